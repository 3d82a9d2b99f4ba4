import {
  PACKAGE_CORE_MODULES,
  PACKAGE_LIMITS,
  PACKAGE_OPTIONAL_MODULES,
  type TPackageLimit,
} from '@broker/contracts/admin/audit-rules';
import type { TRouteOutput } from '@broker/contracts/routes';
import { useMemo, useState } from 'react';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { EditorModal, useCheckedSave } from './EditorModal';
import './audit.css';

type TPackage = TRouteOutput<'adminpackagelist'>['packages'][number];
type TBroker = TRouteOutput<'adminpackagelist'>['brokers'][number];
type TMine = TRouteOutput<'adminpackagemine'>;

const LIMIT_LABEL = {
  staff: 'admin.audit.packages.limit.staff',
  customers: 'admin.audit.packages.limit.customers',
  tradingAccounts: 'admin.audit.packages.limit.tradingAccounts',
  symbols: 'admin.audit.packages.limit.symbols',
} as const satisfies Record<TPackageLimit, string>;

const moduleLabel = (t: (key: string) => string, key: string) => t(`admin.menu.${key}`);

/** Package services: the broker's own package, and for the platform operator every package and broker. */
export function PackagesPage() {
  const { t } = useI18n();
  const title = t('admin.menu.packages');
  useDocumentTitle(title);
  const mine = useQuery('adminpackagemine', {});
  return (
    <div className="bo-page audit-page" data-testid="packages-page">
      <PageHeader title={title} description={t('admin.audit.packages.pageDescription')} />
      {mine.status === 'error' ? (
        <div className="card audit-error" role="alert">
          <Icon name="alert" size={18} />
          <span>{mine.error.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={mine.reload}>
            {t('admin.kit.retry')}
          </button>
        </div>
      ) : null}
      {mine.data ? (
        <OwnPackage mine={mine.data} />
      ) : (
        <div className="card audit-own kit-skeleton-card" aria-busy="true" />
      )}
      {mine.data?.platform ? <PlatformPackages onChange={mine.reload} /> : null}
    </div>
  );
}

function OwnPackage({ mine }: { mine: TMine }) {
  const { t, formatNumber } = useI18n();
  const pack = mine.package;
  return (
    <section className="card audit-own" data-testid="own-package">
      <div className="audit-own-head">
        <div>
          <span className="audit-eyebrow">{t('admin.audit.packages.yours')}</span>
          <h2>{pack ? pack.name : t('admin.audit.packages.none')}</h2>
          <p className="audit-muted">{pack ? pack.description || '—' : t('admin.audit.packages.noneText')}</p>
        </div>
        {mine.platform ? <span className="kit-pill">{t('admin.audit.packages.platformBadge')}</span> : null}
      </div>
      <div className="audit-own-grid">
        <div>
          <h3 className="audit-subtitle">{t('admin.audit.packages.modules')}</h3>
          <ul className="audit-modules">
            {mine.optionalModules.map((key) => {
              const on = !pack || pack.modules.includes(key);
              return (
                <li key={key} className={on ? 'is-on' : 'is-off'} data-module={key} data-on={on}>
                  <Icon name={on ? 'check' : 'close'} size={14} />
                  {moduleLabel(t, key)}
                </li>
              );
            })}
            {PACKAGE_CORE_MODULES.map((key) => (
              <li key={key} className="is-on is-core" data-module={key}>
                <Icon name="lock" size={14} />
                {moduleLabel(t, key)}
              </li>
            ))}
          </ul>
          <p className="kit-hint">{t('admin.audit.packages.coreHint')}</p>
        </div>
        <div>
          <h3 className="audit-subtitle">{t('admin.audit.packages.limits')}</h3>
          <ul className="audit-usage">
            {PACKAGE_LIMITS.map((key) => {
              const limit = pack?.limits[key] ?? null;
              const used = mine.usage[key];
              const share = limit ? Math.min(1, used / Math.max(1, limit)) : 0;
              return (
                <li key={key} data-limit={key}>
                  <div className="audit-usage-head">
                    <span>{t(LIMIT_LABEL[key])}</span>
                    <span className="audit-mono">
                      {limit === null
                        ? t('admin.audit.packages.usedUnlimited', { used: formatNumber(used) })
                        : t('admin.audit.packages.usedOf', {
                            used: formatNumber(used),
                            limit: formatNumber(limit),
                          })}
                    </span>
                  </div>
                  <div
                    className={`audit-meter${share >= 1 ? ' is-full' : share >= 0.8 ? ' is-high' : ''}`}
                    role="meter"
                    aria-label={t(LIMIT_LABEL[key])}
                    aria-valuemin={0}
                    aria-valuemax={limit ?? used}
                    aria-valuenow={used}
                  >
                    <span style={{ width: `${limit === null ? 0 : share * 100}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </section>
  );
}

function PlatformPackages({ onChange }: { onChange: () => void }) {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const editable = can('packages.edit');
  const list = useQuery('adminpackagelist', {});
  const [editing, setEditing] = useState<TPackage | 'new' | null>(null);
  const [removing, setRemoving] = useState<TPackage | null>(null);
  const [assigning, setAssigning] = useState<{ broker: TBroker; packageId: string | null } | null>(null);
  const packages = list.data?.packages ?? [];
  const nameOf = (id: string | null) =>
    packages.find((p) => p.id === id)?.name ?? t('admin.audit.packages.none');
  const refresh = () => {
    list.reload();
    onChange();
  };

  const packageColumns = useMemo<TColumn<TPackage>[]>(() => {
    const columns: TColumn<TPackage>[] = [
      {
        key: 'name',
        header: t('admin.audit.packages.name'),
        render: (p) => <strong>{p.name}</strong>,
        sortValue: (p) => p.name,
      },
      {
        key: 'modules',
        header: t('admin.audit.packages.modules'),
        render: (p) => (
          <span className="audit-chips">
            {p.modules.length === 0
              ? '—'
              : p.modules.map((m) => (
                  <span key={m} className="kit-pill">
                    {moduleLabel(t, m)}
                  </span>
                ))}
          </span>
        ),
        sortValue: (p) => p.modules.length,
      },
      {
        key: 'limits',
        header: t('admin.audit.packages.limits'),
        render: (p) => (
          <span className="audit-limits">
            {PACKAGE_LIMITS.map((key) => (
              <span key={key}>
                {t('admin.audit.packages.limitValue', {
                  label: t(LIMIT_LABEL[key]),
                  value: p.limits[key] === null ? '∞' : formatNumber(p.limits[key] as number),
                })}
              </span>
            ))}
          </span>
        ),
      },
      {
        key: 'brokers',
        header: t('admin.audit.packages.brokers'),
        render: (p) => formatNumber(p.brokers),
        sortValue: (p) => p.brokers,
        align: 'end',
      },
    ];
    if (editable)
      columns.push({
        key: 'actions',
        header: <span className="audit-sr-only">{t('admin.audit.actions')}</span>,
        align: 'end',
        render: (p) => (
          <span className="kit-actions audit-row-actions">
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setEditing(p)}
              data-testid="package-edit"
            >
              {t('admin.audit.edit')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm kit-down"
              onClick={() => setRemoving(p)}
              disabled={p.brokers > 0}
              title={p.brokers > 0 ? t('admin.audit.packages.inUse') : undefined}
            >
              {t('admin.audit.delete')}
            </button>
          </span>
        ),
      });
    return columns;
  }, [t, formatNumber, editable]);

  const brokerColumns: TColumn<TBroker>[] = [
    {
      key: 'name',
      header: t('admin.audit.packages.broker'),
      render: (b) => <strong>{b.name}</strong>,
      sortValue: (b) => b.name,
    },
    {
      key: 'slug',
      header: t('admin.audit.packages.slug'),
      render: (b) => <span className="audit-mono">{b.slug}</span>,
      sortValue: (b) => b.slug,
    },
    {
      key: 'status',
      header: t('admin.audit.packages.status'),
      render: (b) => (
        <span className={`kit-pill ${b.status === 'active' ? 'kit-pill-up' : 'kit-pill-down'}`}>
          {b.status === 'active' ? t('admin.audit.packages.active') : t('admin.audit.packages.suspended')}
        </span>
      ),
      sortValue: (b) => b.status,
    },
    {
      key: 'package',
      header: t('admin.audit.packages.package'),
      render: (b) =>
        editable ? (
          <select
            className="input audit-assign"
            value={b.packageId ?? ''}
            aria-label={t('admin.audit.packages.assignTo', { broker: b.name })}
            onChange={(e) => setAssigning({ broker: b, packageId: e.target.value || null })}
            data-testid={`assign-${b.slug}`}
          >
            <option value="">{t('admin.audit.packages.none')}</option>
            {packages.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        ) : (
          nameOf(b.packageId)
        ),
      sortValue: (b) => nameOf(b.packageId),
    },
  ];

  return (
    <>
      <section className="audit-section">
        <div className="audit-section-head">
          <h2 className="audit-section-title">{t('admin.audit.packages.catalogue')}</h2>
          {editable ? (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => setEditing('new')}
              data-testid="package-new"
            >
              {t('admin.audit.packages.new')}
            </button>
          ) : null}
        </div>
        <DataTable
          rows={packages}
          columns={packageColumns}
          rowKey={(p) => p.id}
          filterText={(p) => `${p.name} ${p.description}`}
          loading={list.status === 'loading'}
          error={list.status === 'error' ? list.error.message : null}
          onRetry={list.reload}
          empty={t('admin.audit.packages.emptyCatalogue')}
          testId="packages-table"
        />
      </section>
      <section className="audit-section">
        <h2 className="audit-section-title">{t('admin.audit.packages.brokersTitle')}</h2>
        <DataTable
          rows={list.data?.brokers ?? []}
          columns={brokerColumns}
          rowKey={(b) => b.tenantId}
          filterText={(b) => `${b.name} ${b.slug}`}
          loading={list.status === 'loading'}
          empty={t('admin.audit.packages.emptyBrokers')}
          testId="brokers-table"
        />
        <p className="audit-note">{t('admin.audit.packages.enforcement')}</p>
      </section>
      {editing ? (
        <PackageEditor
          pack={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      {removing ? (
        <RemovePackage
          pack={removing}
          onClose={() => setRemoving(null)}
          onDone={() => {
            setRemoving(null);
            refresh();
          }}
        />
      ) : null}
      {assigning ? (
        <AssignPackage
          broker={assigning.broker}
          packageId={assigning.packageId}
          from={nameOf(assigning.broker.packageId)}
          to={nameOf(assigning.packageId)}
          onClose={() => setAssigning(null)}
          onDone={() => {
            setAssigning(null);
            refresh();
          }}
        />
      ) : null}
    </>
  );
}

interface TDraft {
  name: string;
  description: string;
  modules: string[];
  limits: Record<TPackageLimit, string>;
}

/** Field problems before asking the server (translation keys). */
export function checkPackageDraft(draft: TDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!draft.name.trim()) problems.name = 'admin.audit.packages.errors.name';
  for (const key of PACKAGE_LIMITS) {
    const text = draft.limits[key].trim();
    if (text === '') continue;
    const min = key === 'staff' ? 1 : 0;
    if (!/^\d{1,8}$/.test(text) || Number(text) < min)
      problems[`limits.${key}`] =
        key === 'staff' ? 'admin.audit.packages.errors.staff' : 'admin.audit.packages.errors.limit';
  }
  return problems;
}

function PackageEditor({
  pack,
  onClose,
  onSaved,
}: {
  pack: TPackage | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<TDraft>(() => ({
    name: pack?.name ?? '',
    description: pack?.description ?? '',
    modules: pack ? [...pack.modules] : [...PACKAGE_OPTIONAL_MODULES],
    limits: {
      staff: pack?.limits.staff?.toString() ?? '',
      customers: pack?.limits.customers?.toString() ?? '',
      tradingAccounts: pack?.limits.tradingAccounts?.toString() ?? '',
      symbols: pack?.limits.symbols?.toString() ?? '',
    },
  }));
  const { save, problem, submit, confirming, setConfirming } = useCheckedSave('adminpackagesave', () =>
    checkPackageDraft(draft),
  );
  const toggle = (key: string) =>
    setDraft((d) => ({
      ...d,
      modules: d.modules.includes(key) ? d.modules.filter((m) => m !== key) : [...d.modules, key],
    }));
  const limit = (key: TPackageLimit) => (draft.limits[key].trim() === '' ? null : Number(draft.limits[key]));
  const confirm = async () => {
    const saved = await save.run({
      ...(pack ? { id: pack.id, revision: pack.revision } : {}),
      name: draft.name.trim(),
      description: draft.description.trim(),
      modules: PACKAGE_OPTIONAL_MODULES.filter((m) => draft.modules.includes(m)),
      limits: {
        staff: limit('staff'),
        customers: limit('customers'),
        tradingAccounts: limit('tradingAccounts'),
        symbols: limit('symbols'),
      },
    });
    setConfirming(false);
    if (saved) onSaved();
  };
  const formId = 'audit-package-form';
  return (
    <>
      <EditorModal
        title={
          pack ? t('admin.audit.packages.editTitle', { name: pack.name }) : t('admin.audit.packages.new')
        }
        testId="package-editor"
        saveTestId="package-save"
        formId={formId}
        error={save.error}
        onSubmit={submit}
        onClose={onClose}
      >
        <div className="kit-form-grid">
          <Field label={t('admin.audit.packages.name')} error={problem('name')}>
            {(props) => (
              <input
                {...props}
                className="input"
                maxLength={60}
                value={draft.name}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                data-testid="package-name"
              />
            )}
          </Field>
          <Field label={t('admin.audit.packages.description')} error={problem('description')}>
            {(props) => (
              <input
                {...props}
                className="input"
                maxLength={500}
                value={draft.description}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
              />
            )}
          </Field>
        </div>
        <fieldset className="audit-fieldset">
          <legend>{t('admin.audit.packages.modules')}</legend>
          <div className="audit-module-grid">
            {PACKAGE_OPTIONAL_MODULES.map((key) => (
              <label key={key} className="kit-check">
                <input
                  type="checkbox"
                  checked={draft.modules.includes(key)}
                  onChange={() => toggle(key)}
                  data-testid={`module-${key}`}
                />
                {moduleLabel(t, key)}
              </label>
            ))}
          </div>
          <p className="kit-hint">{t('admin.audit.packages.coreHint')}</p>
        </fieldset>
        <fieldset className="audit-fieldset">
          <legend>{t('admin.audit.packages.limits')}</legend>
          <div className="kit-form-grid">
            {PACKAGE_LIMITS.map((key) => (
              <Field
                key={key}
                label={t(LIMIT_LABEL[key])}
                error={problem(`limits.${key}`)}
                hint={t('admin.audit.packages.unlimitedHint')}
              >
                {(props) => (
                  <input
                    {...props}
                    className="input"
                    inputMode="numeric"
                    value={draft.limits[key]}
                    placeholder="∞"
                    onChange={(e) =>
                      setDraft({ ...draft, limits: { ...draft.limits, [key]: e.target.value } })
                    }
                    data-testid={`limit-${key}`}
                  />
                )}
              </Field>
            ))}
          </div>
        </fieldset>
      </EditorModal>
      {confirming ? (
        <ConfirmDialog
          title={pack ? t('admin.audit.packages.confirmEdit') : t('admin.audit.packages.confirmCreate')}
          message={
            pack && pack.brokers > 0
              ? t('admin.audit.packages.confirmEditUsed', { name: draft.name, count: pack.brokers })
              : t('admin.audit.packages.confirmText', { name: draft.name })
          }
          pending={save.pending}
          error={save.error?.message ?? null}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

function RemovePackage({
  pack,
  onClose,
  onDone,
}: {
  pack: TPackage;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const remove = useMutation('adminpackagedelete');
  return (
    <ConfirmDialog
      danger
      title={t('admin.audit.packages.deleteTitle')}
      message={t('admin.audit.packages.deleteText', { name: pack.name })}
      confirmLabel={t('admin.audit.delete')}
      pending={remove.pending}
      error={remove.error?.message ?? null}
      onConfirm={async () => {
        if (await remove.run({ id: pack.id })) onDone();
      }}
      onCancel={onClose}
    />
  );
}

function AssignPackage({
  broker,
  packageId,
  from,
  to,
  onClose,
  onDone,
}: {
  broker: TBroker;
  packageId: string | null;
  from: string;
  to: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const assign = useMutation('adminpackageassign');
  return (
    <ConfirmDialog
      title={t('admin.audit.packages.assignTitle')}
      message={t('admin.audit.packages.assignText', { broker: broker.name, from, to })}
      pending={assign.pending}
      error={assign.error?.message ?? null}
      onConfirm={async () => {
        if (await assign.run({ tenantId: broker.tenantId, packageId })) onDone();
      }}
      onCancel={onClose}
    />
  );
}
