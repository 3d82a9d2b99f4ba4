import {
  APP_PLATFORMS,
  compareSemver,
  parseSemver,
  RELEASE_NOTE_LOCALES,
  type TAppPlatform,
} from '@broker/contracts/admin/audit-rules';
import type { TRouteOutput } from '@broker/contracts/routes';
import { LOCALES } from '@broker/i18n/locales';
import { useMemo, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { EditorModal, useCheckedSave } from './EditorModal';
import { formatUtc } from './format';
import './audit.css';

type TVersion = TRouteOutput<'adminversionlist'>['versions'][number];

export const PLATFORM_LABEL = {
  ios: 'admin.audit.platform.ios',
  android: 'admin.audit.platform.android',
  windows: 'admin.audit.platform.windows',
  macos: 'admin.audit.platform.macos',
  web: 'admin.audit.platform.web',
} as const satisfies Record<TAppPlatform, string>;

interface TDraft {
  id?: string;
  revision?: number;
  platform: TAppPlatform;
  version: string;
  buildNumber: string;
  forceUpdate: boolean;
  minSupportedVersion: string;
  notes: Record<string, string>;
  downloadUrl: string;
  /** datetime-local text, read as UTC. */
  releasedAt: string;
}

const toLocalInput = (iso: string) => iso.slice(0, 16);

function draftOf(version: TVersion | null): TDraft {
  if (!version)
    return {
      platform: 'android',
      version: '',
      buildNumber: '',
      forceUpdate: false,
      minSupportedVersion: '',
      notes: { 'zh-CN': '', en: '' },
      downloadUrl: 'https://',
      releasedAt: toLocalInput(new Date().toISOString()),
    };
  return {
    id: version.id,
    revision: version.revision,
    platform: version.platform,
    version: version.version,
    buildNumber: String(version.buildNumber),
    forceUpdate: version.forceUpdate,
    minSupportedVersion: version.minSupportedVersion ?? '',
    notes: { 'zh-CN': '', en: '', ...version.notes },
    downloadUrl: version.downloadUrl,
    releasedAt: toLocalInput(version.releasedAt),
  };
}

/** Field problems found before asking the server (translation keys). */
export function checkVersionDraft(draft: TDraft, siblings: readonly TVersion[]): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!parseSemver(draft.version)) problems.version = 'admin.audit.versions.errors.semver';
  else if (
    siblings.some(
      (s) =>
        s.id !== draft.id && s.platform === draft.platform && compareSemver(s.version, draft.version) === 0,
    )
  )
    problems.version = 'admin.audit.versions.errors.duplicate';
  if (!/^\d{1,10}$/.test(draft.buildNumber) || Number(draft.buildNumber) > 2_147_483_647)
    problems.buildNumber = 'admin.audit.versions.errors.build';
  if (draft.minSupportedVersion) {
    if (!parseSemver(draft.minSupportedVersion))
      problems.minSupportedVersion = 'admin.audit.versions.errors.semver';
    else if (parseSemver(draft.version) && compareSemver(draft.minSupportedVersion, draft.version) > 0)
      problems.minSupportedVersion = 'admin.audit.versions.errors.minAbove';
  }
  if (!/^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/.test(draft.downloadUrl.trim()))
    problems.downloadUrl = 'admin.audit.versions.errors.https';
  for (const locale of RELEASE_NOTE_LOCALES)
    if (!draft.notes[locale]?.trim()) problems[`notes.${locale}`] = 'admin.audit.versions.errors.notes';
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(draft.releasedAt) ||
    Number.isNaN(Date.parse(`${draft.releasedAt}:00Z`))
  )
    problems.releasedAt = 'admin.audit.versions.errors.date';
  return problems;
}

/** Version management: app releases per platform, and what the apps' update check answers. */
export function VersionsPage() {
  const { t, intl } = useI18n();
  const { can } = useSession();
  const title = t('admin.menu.versions');
  useDocumentTitle(title);
  const list = useQuery('adminversionlist', {});
  const versions = list.data?.versions ?? [];
  const [platform, setPlatform] = useState<TAppPlatform | 'all'>('all');
  const [editing, setEditing] = useState<TVersion | 'new' | null>(null);
  const [removing, setRemoving] = useState<TVersion | null>(null);
  const editable = can('versions.edit');

  const latest = useMemo(() => {
    const out = new Map<string, string>();
    const now = Date.now();
    for (const v of versions) {
      if (Date.parse(v.releasedAt) > now) continue;
      const best = out.get(v.platform);
      if (!best || compareSemver(v.version, best) > 0) out.set(v.platform, v.version);
    }
    return out;
  }, [versions]);

  const columns = useMemo<TColumn<TVersion>[]>(() => {
    const list: TColumn<TVersion>[] = [
      {
        key: 'platform',
        header: t('admin.audit.versions.platform'),
        render: (v) => t(PLATFORM_LABEL[v.platform]),
        sortValue: (v) => v.platform,
      },
      {
        key: 'version',
        header: t('admin.audit.versions.version'),
        render: (v) => (
          <span className="audit-version">
            <strong className="audit-mono">{v.version}</strong>
            {latest.get(v.platform) === v.version ? (
              <span className="kit-pill kit-pill-up">{t('admin.audit.versions.latest')}</span>
            ) : null}
            {Date.parse(v.releasedAt) > Date.now() ? (
              <span className="kit-pill">{t('admin.audit.versions.scheduled')}</span>
            ) : null}
          </span>
        ),
        sortValue: (v) => `${v.platform} ${v.version}`,
      },
      {
        key: 'build',
        header: t('admin.audit.versions.build'),
        render: (v) => v.buildNumber,
        sortValue: (v) => v.buildNumber,
        align: 'end',
      },
      {
        key: 'force',
        header: t('admin.audit.versions.forceUpdate'),
        render: (v) =>
          v.forceUpdate ? (
            <span className="kit-pill kit-pill-warn">{t('admin.audit.versions.forced')}</span>
          ) : (
            '—'
          ),
        sortValue: (v) => (v.forceUpdate ? 1 : 0),
      },
      {
        key: 'minimum',
        header: t('admin.audit.versions.minSupported'),
        render: (v) => <span className="audit-mono">{v.minSupportedVersion ?? '—'}</span>,
      },
      {
        key: 'released',
        header: t('admin.audit.versions.releasedAt'),
        render: (v) => formatUtc(v.releasedAt, intl),
        sortValue: (v) => v.releasedAt,
      },
    ];
    if (editable)
      list.push({
        key: 'actions',
        header: <span className="audit-sr-only">{t('admin.audit.actions')}</span>,
        align: 'end',
        render: (v) => (
          <span className="kit-actions audit-row-actions">
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setEditing(v)}
              data-testid="version-edit"
            >
              {t('admin.audit.edit')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm kit-down"
              onClick={() => setRemoving(v)}
              data-testid="version-delete"
            >
              {t('admin.audit.delete')}
            </button>
          </span>
        ),
      });
    return list;
  }, [t, intl, latest, editable]);

  const shown = platform === 'all' ? versions : versions.filter((v) => v.platform === platform);
  return (
    <div className="bo-page audit-page" data-testid="versions-page">
      <PageHeader
        title={title}
        description={t('admin.module.versions.description')}
        actions={
          editable ? (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => setEditing('new')}
              data-testid="version-new"
            >
              {t('admin.audit.versions.new')}
            </button>
          ) : null
        }
      />
      <div className="audit-platforms" data-testid="version-platforms">
        {APP_PLATFORMS.map((p) => (
          <div key={p} className="card audit-platform">
            <span className="audit-platform-name">{t(PLATFORM_LABEL[p])}</span>
            <strong className="audit-mono">{latest.get(p) ?? '—'}</strong>
          </div>
        ))}
      </div>
      <DataTable
        rows={shown}
        columns={columns}
        rowKey={(v) => v.id}
        filterText={(v) => `${v.version} ${v.platform} ${Object.values(v.notes).join(' ')}`}
        filterPlaceholder={t('admin.audit.versions.filter')}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        initialSort={{ key: 'released', direction: 'desc' }}
        empty={t('admin.audit.versions.empty')}
        testId="versions-table"
        rowTestId="version-row"
        toolbar={
          <select
            className="input"
            value={platform}
            onChange={(e) => setPlatform(e.target.value as TAppPlatform | 'all')}
            aria-label={t('admin.audit.versions.platform')}
          >
            <option value="all">{t('admin.audit.versions.allPlatforms')}</option>
            {APP_PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {t(PLATFORM_LABEL[p])}
              </option>
            ))}
          </select>
        }
      />
      <p className="audit-note">{t('admin.audit.versions.rules')}</p>
      {editing ? (
        <VersionEditor
          version={editing === 'new' ? null : editing}
          siblings={versions}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      ) : null}
      {removing ? (
        <DeleteVersion
          version={removing}
          onClose={() => setRemoving(null)}
          onDone={() => {
            setRemoving(null);
            list.reload();
          }}
        />
      ) : null}
    </div>
  );
}

function VersionEditor({
  version,
  siblings,
  onClose,
  onSaved,
}: {
  version: TVersion | null;
  siblings: readonly TVersion[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<TDraft>(() => draftOf(version));
  const { save, problem, submit, confirming, setConfirming } = useCheckedSave('adminversionsave', () =>
    checkVersionDraft(draft, siblings),
  );
  const extraLocales = LOCALES.map((l) => l.code).filter(
    (code) => !(RELEASE_NOTE_LOCALES as readonly string[]).includes(code),
  );
  const [extra, setExtra] = useState<string[]>(() =>
    Object.keys(draft.notes).filter((k) => !(RELEASE_NOTE_LOCALES as readonly string[]).includes(k)),
  );
  const set = <K extends keyof TDraft>(key: K, value: TDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setNote = (locale: string, text: string) =>
    setDraft((d) => ({ ...d, notes: { ...d.notes, [locale]: text } }));

  const confirm = async () => {
    const notes: Record<string, string> = {};
    for (const [locale, text] of Object.entries(draft.notes)) if (text.trim()) notes[locale] = text.trim();
    const saved = await save.run({
      ...(draft.id ? { id: draft.id, revision: draft.revision } : {}),
      platform: draft.platform,
      version: draft.version.trim(),
      buildNumber: Number(draft.buildNumber),
      forceUpdate: draft.forceUpdate,
      minSupportedVersion: draft.minSupportedVersion.trim() || null,
      notes,
      downloadUrl: draft.downloadUrl.trim(),
      releasedAt: new Date(`${draft.releasedAt}:00Z`).toISOString(),
    });
    setConfirming(false);
    if (saved) onSaved();
  };
  const formId = 'audit-version-form';
  const localeName = (code: string) => LOCALES.find((l) => l.code === code)?.name ?? code;

  return (
    <>
      <EditorModal
        title={
          version
            ? t('admin.audit.versions.editTitle', { version: version.version })
            : t('admin.audit.versions.new')
        }
        testId="version-editor"
        saveTestId="version-save"
        formId={formId}
        error={save.error}
        onSubmit={submit}
        onClose={onClose}
      >
        <div className="kit-form-grid">
          <Field label={t('admin.audit.versions.platform')} error={problem('platform')}>
            {(props) => (
              <select
                {...props}
                className="input"
                value={draft.platform}
                onChange={(e) => set('platform', e.target.value as TAppPlatform)}
                data-testid="version-platform"
              >
                {APP_PLATFORMS.map((p) => (
                  <option key={p} value={p}>
                    {t(PLATFORM_LABEL[p])}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label={t('admin.audit.versions.version')}
            error={problem('version')}
            hint={t('admin.audit.versions.versionHint')}
          >
            {(props) => (
              <input
                {...props}
                className="input audit-mono"
                value={draft.version}
                onChange={(e) => set('version', e.target.value)}
                placeholder="1.4.0"
                data-testid="version-version"
              />
            )}
          </Field>
          <Field label={t('admin.audit.versions.build')} error={problem('buildNumber')}>
            {(props) => (
              <input
                {...props}
                className="input"
                inputMode="numeric"
                value={draft.buildNumber}
                onChange={(e) => set('buildNumber', e.target.value)}
                data-testid="version-build"
              />
            )}
          </Field>
          <Field
            label={t('admin.audit.versions.minSupported')}
            error={problem('minSupportedVersion')}
            hint={t('admin.audit.versions.minHint')}
          >
            {(props) => (
              <input
                {...props}
                className="input audit-mono"
                value={draft.minSupportedVersion}
                onChange={(e) => set('minSupportedVersion', e.target.value)}
                data-testid="version-minimum"
              />
            )}
          </Field>
          <Field label={t('admin.audit.versions.downloadUrl')} error={problem('downloadUrl')}>
            {(props) => (
              <input
                {...props}
                className="input"
                type="url"
                value={draft.downloadUrl}
                onChange={(e) => set('downloadUrl', e.target.value)}
                data-testid="version-url"
              />
            )}
          </Field>
          <Field
            label={t('admin.audit.versions.releasedAtUtc')}
            error={problem('releasedAt')}
            hint={t('admin.audit.versions.releasedHint')}
          >
            {(props) => (
              <input
                {...props}
                className="input"
                type="datetime-local"
                value={draft.releasedAt}
                onChange={(e) => set('releasedAt', e.target.value)}
                data-testid="version-released"
              />
            )}
          </Field>
        </div>
        <label className="kit-check audit-force">
          <input
            type="checkbox"
            checked={draft.forceUpdate}
            onChange={(e) => set('forceUpdate', e.target.checked)}
            data-testid="version-force"
          />
          <span>
            <strong>{t('admin.audit.versions.forceUpdate')}</strong>
            <span className="kit-hint">{t('admin.audit.versions.forceHint')}</span>
          </span>
        </label>
        {[...RELEASE_NOTE_LOCALES, ...extra].map((locale) => (
          <Field
            key={locale}
            label={t('admin.audit.versions.notesIn', { language: localeName(locale) })}
            error={problem(`notes.${locale}`)}
          >
            {(props) => (
              <textarea
                {...props}
                className="input audit-notes"
                rows={3}
                maxLength={4000}
                value={draft.notes[locale] ?? ''}
                onChange={(e) => setNote(locale, e.target.value)}
                data-testid={`version-notes-${locale}`}
              />
            )}
          </Field>
        ))}
        {extraLocales.some((code) => !extra.includes(code)) ? (
          <label className="audit-add-language">
            <span>{t('admin.audit.versions.addLanguage')}</span>
            <select
              className="input"
              value=""
              onChange={(e) => {
                const code = e.target.value;
                if (code) setExtra((list) => [...list, code]);
              }}
            >
              <option value="">—</option>
              {extraLocales
                .filter((code) => !extra.includes(code))
                .map((code) => (
                  <option key={code} value={code}>
                    {localeName(code)}
                  </option>
                ))}
            </select>
          </label>
        ) : null}
      </EditorModal>
      {confirming ? (
        <ConfirmDialog
          title={version ? t('admin.audit.versions.confirmEdit') : t('admin.audit.versions.confirmCreate')}
          message={t('admin.audit.versions.confirmText', {
            platform: t(PLATFORM_LABEL[draft.platform]),
            version: draft.version,
          })}
          pending={save.pending}
          error={save.error?.message ?? null}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          {draft.forceUpdate ? (
            <p className="kit-pill kit-pill-warn">{t('admin.audit.versions.confirmForced')}</p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function DeleteVersion({
  version,
  onClose,
  onDone,
}: {
  version: TVersion;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const remove = useMutation('adminversiondelete');
  return (
    <ConfirmDialog
      danger
      title={t('admin.audit.versions.deleteTitle')}
      message={t('admin.audit.versions.deleteText', {
        platform: t(PLATFORM_LABEL[version.platform]),
        version: version.version,
      })}
      confirmLabel={t('admin.audit.delete')}
      pending={remove.pending}
      error={remove.error?.message ?? null}
      onConfirm={async () => {
        if (await remove.run({ id: version.id })) onDone();
      }}
      onCancel={onClose}
    />
  );
}
