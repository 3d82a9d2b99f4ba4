import { AUDIT_ACTOR_KINDS, AUDIT_EXPORT_MAX_ROWS } from '@broker/contracts/admin/audit-rules';
import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { formatUtc, shortHash } from './format';
import './audit.css';

type TEntry = TRouteOutput<'adminoperationlist'>['rows'][number];
type TChain = TRouteOutput<'adminoperationverify'>;
const FILTER_KEYS = ['actor', 'actorKind', 'action', 'target', 'from', 'to'] as const;
type TFilter = Partial<Record<(typeof FILTER_KEYS)[number], string>>;
type TFilterInput = TRouteInput<'adminoperationexport'>;

/** The filter as the routes take it (the kind is one of the known kinds or left out). */
const filterInput = (filter: TFilter): TFilterInput => ({
  ...filter,
  actorKind: AUDIT_ACTOR_KINDS.find((kind) => kind === filter.actorKind),
});
const PAGE_SIZE = 20;

const KIND_LABEL = {
  staff: 'admin.audit.kind.staff',
  user: 'admin.audit.kind.user',
  anonymous: 'admin.audit.kind.anonymous',
  system: 'admin.audit.kind.system',
} as const;
const REASON_LABEL = {
  content: 'admin.audit.chain.reason.content',
  missing: 'admin.audit.chain.reason.missing',
  link: 'admin.audit.chain.reason.link',
} as const;

const kindLabel = (t: (key: string) => string, kind: string) =>
  kind in KIND_LABEL ? t(KIND_LABEL[kind as keyof typeof KIND_LABEL]) : kind;

/** Operation history: the broker's append-only, hash-chained trail, searchable and exportable. */
export function OperationsPage() {
  const { t, intl, formatNumber } = useI18n();
  const title = t('admin.menu.operations');
  useDocumentTitle(title);
  const [params, setParams] = useSearchParams();
  const filter: TFilter = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery('adminoperationlist', { ...filterInput(filter), page, pageSize: PAGE_SIZE });
  const chain = useQuery('adminoperationverify', {});
  const actions = useQuery('adminoperationactions', {});
  const [openId, setOpenId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const setFilter = (next: TFilter) => {
    const merged = new URLSearchParams();
    for (const key of FILTER_KEYS) if (next[key]) merged.set(key, next[key] as string);
    setParams(merged, { replace: true });
  };
  const setPage = (next: number) => {
    const merged = new URLSearchParams(params);
    merged.set('page', String(next));
    setParams(merged, { replace: true });
  };

  const columns = useMemo<TColumn<TEntry>[]>(
    () => [
      { key: 'seq', header: '#', render: (r) => <span className="audit-mono">{r.seq}</span>, align: 'end' },
      { key: 'time', header: t('admin.audit.ops.time'), render: (r) => formatUtc(r.createdAt, intl) },
      {
        key: 'actor',
        header: t('admin.audit.ops.actor'),
        render: (r) => (
          <span className="audit-actor">
            <span className="kit-pill">{kindLabel(t, r.actorKind)}</span>
            <span className="audit-actor-name">{r.actorName ?? r.actorId ?? '—'}</span>
          </span>
        ),
      },
      {
        key: 'action',
        header: t('admin.audit.ops.action'),
        render: (r) => <code className="audit-code">{r.action}</code>,
      },
      {
        key: 'target',
        header: t('admin.audit.ops.target'),
        render: (r) => <span className="audit-clip">{r.target ?? '—'}</span>,
      },
      {
        key: 'ip',
        header: t('admin.audit.ops.ip'),
        render: (r) => <span className="audit-mono">{r.ip ?? '—'}</span>,
      },
    ],
    [t, intl],
  );

  const data = list.data;
  return (
    <div className="bo-page audit-page" data-testid="operations-page">
      <PageHeader
        title={title}
        description={t('admin.module.operations.description')}
        actions={
          <Can permission="operations.export">
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setExporting(true)}
              disabled={!data || data.total === 0}
              data-testid="operations-export"
            >
              {t('admin.audit.ops.export')}
            </button>
          </Can>
        }
      />

      <ChainStatus state={chain} onOpen={setOpenId} />

      <FilterForm
        value={filter}
        actions={actions.data?.actions ?? []}
        onApply={setFilter}
        onReset={() => setFilter({})}
      />

      <DataTable
        rows={data?.rows ?? []}
        columns={columns}
        rowKey={(r) => r.id}
        loading={list.status === 'loading'}
        error={list.status === 'error' ? list.error.message : null}
        onRetry={list.reload}
        empty={Object.keys(filter).length ? t('admin.audit.ops.noMatch') : t('admin.audit.ops.empty')}
        server={{ total: data?.total ?? 0, page: data?.page ?? page, pageSize: PAGE_SIZE, onPage: setPage }}
        onRowClick={(row) => setOpenId(row.id)}
        testId="operations-table"
        rowTestId="operations-row"
      />
      <p className="audit-note">
        <Icon name="info" size={14} />
        {t('admin.audit.ops.utcNote')}
      </p>

      {openId ? <EntryDialog id={openId} onClose={() => setOpenId(null)} /> : null}
      {exporting && data ? (
        <ExportDialog filter={filter} total={data.total} onClose={() => setExporting(false)} />
      ) : null}
      <span className="audit-sr-only" aria-live="polite">
        {data ? t('admin.kit.total', { count: formatNumber(data.total) }) : ''}
      </span>
    </div>
  );
}

function ChainStatus({
  state,
  onOpen,
}: {
  state: ReturnType<typeof useQuery<'adminoperationverify'>>;
  onOpen: (id: string) => void;
}) {
  const { t, intl } = useI18n();
  const report: TChain | null = state.data;
  const tone = state.status === 'error' ? 'warn' : report ? (report.intact ? 'up' : 'down') : 'muted';
  return (
    <section className={`card audit-chain audit-chain-${tone}`} data-testid="chain-status" aria-live="polite">
      <span className="audit-chain-icon" aria-hidden="true">
        <Icon name={report && !report.intact ? 'alert' : 'shield'} size={20} />
      </span>
      <div className="audit-chain-text">
        {state.status === 'error' ? (
          <strong>{state.error.message}</strong>
        ) : !report ? (
          <strong>{t('admin.audit.chain.checking')}</strong>
        ) : report.intact ? (
          <>
            <strong data-testid="chain-intact">
              {t('admin.audit.chain.intact', { count: report.entries })}
            </strong>
            <span>
              {t('admin.audit.chain.head', {
                hash: shortHash(report.headHash) || '—',
                time: formatUtc(report.checkedAt, intl),
              })}
            </span>
          </>
        ) : (
          <>
            <strong data-testid="chain-broken">
              {t('admin.audit.chain.broken', {
                seq: report.broken?.seq ?? 0,
                count: report.entries,
              })}
            </strong>
            <span>{report.broken ? t(REASON_LABEL[report.broken.reason]) : null}</span>
          </>
        )}
      </div>
      <div className="kit-actions">
        {report?.broken ? (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => onOpen(report.broken?.id ?? '')}
          >
            {t('admin.audit.chain.openBroken')}
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={state.reload}
          disabled={state.status === 'loading'}
          data-testid="chain-verify"
        >
          <Icon name="refresh" size={14} className={state.status === 'loading' ? 'bo-spin' : undefined} />
          {t('admin.audit.chain.verify')}
        </button>
      </div>
    </section>
  );
}

function FilterForm({
  value,
  actions,
  onApply,
  onReset,
}: {
  value: TFilter;
  actions: readonly string[];
  onApply: (filter: TFilter) => void;
  onReset: () => void;
}) {
  const { t } = useI18n();
  const listId = useId();
  const [draft, setDraft] = useState<TFilter>(value);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof TFilter) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.to < draft.from)
      return setError(t('admin.audit.stats.rangeReversed'));
    setError(null);
    const trimmed: TFilter = {};
    for (const [key, text] of Object.entries(draft))
      if (text?.trim()) trimmed[key as keyof TFilter] = text.trim();
    onApply(trimmed);
  };
  // Suggest action prefixes too: "staff." for "staff.signin".
  const suggestions = [...new Set(actions.flatMap((a) => [`${a.split('.')[0]}.`, a]))];
  return (
    <form
      className="card audit-filters"
      onSubmit={submit}
      role="search"
      data-testid="operations-filters"
      noValidate
    >
      <div className="audit-filter-grid">
        <Field label={t('admin.audit.ops.actor')} hint={t('admin.audit.ops.actorHint')}>
          {(props) => (
            <input
              {...props}
              className="input"
              value={draft.actor ?? ''}
              onChange={set('actor')}
              maxLength={100}
              data-testid="filter-actor"
            />
          )}
        </Field>
        <Field label={t('admin.audit.ops.actorKind')}>
          {(props) => (
            <select
              {...props}
              className="input"
              value={draft.actorKind ?? ''}
              onChange={set('actorKind')}
              data-testid="filter-kind"
            >
              <option value="">{t('admin.audit.ops.anyKind')}</option>
              {AUDIT_ACTOR_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {kindLabel(t, kind)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('admin.audit.ops.action')} hint={t('admin.audit.ops.actionHint')}>
          {(props) => (
            <>
              <input
                {...props}
                className="input audit-mono"
                value={draft.action ?? ''}
                onChange={set('action')}
                list={listId}
                maxLength={100}
                data-testid="filter-action"
              />
              <datalist id={listId}>
                {suggestions.map((a) => (
                  <option key={a} value={a} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label={t('admin.audit.ops.target')}>
          {(props) => (
            <input
              {...props}
              className="input"
              value={draft.target ?? ''}
              onChange={set('target')}
              maxLength={200}
              data-testid="filter-target"
            />
          )}
        </Field>
        <Field label={t('admin.audit.from')} error={error}>
          {(props) => (
            <input
              {...props}
              className="input"
              type="date"
              value={draft.from ?? ''}
              onChange={set('from')}
              data-testid="filter-from"
            />
          )}
        </Field>
        <Field label={t('admin.audit.to')}>
          {(props) => (
            <input
              {...props}
              className="input"
              type="date"
              value={draft.to ?? ''}
              onChange={set('to')}
              data-testid="filter-to"
            />
          )}
        </Field>
      </div>
      <div className="kit-actions audit-filter-actions">
        <button type="submit" className="btn btn-primary btn-sm" data-testid="filter-apply">
          {t('admin.audit.search')}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => {
            setDraft({});
            setError(null);
            onReset();
          }}
        >
          {t('admin.audit.reset')}
        </button>
      </div>
    </form>
  );
}

function EntryDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t, intl } = useI18n();
  const entry = useQuery('adminoperationdetail', { id });
  const data = entry.data;
  const row = (label: string, value: React.ReactNode, testId?: string) => (
    <div className="audit-detail-row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
  return (
    <Modal
      title={t('admin.audit.ops.entryTitle', { seq: data?.seq ?? '' })}
      onClose={onClose}
      wide
      testId="operation-detail"
    >
      {entry.status === 'error' ? (
        <p className="kit-error" role="alert">
          {entry.error.message}
        </p>
      ) : !data ? (
        <span className="kit-skeleton" />
      ) : (
        <>
          <dl className="audit-detail">
            {row(t('admin.audit.ops.time'), `${formatUtc(data.createdAt, intl)} UTC`)}
            {row(t('admin.audit.ops.actorKind'), kindLabel(t, data.actorKind))}
            {row(
              t('admin.audit.ops.actor'),
              data.actorName ? `${data.actorName} (${data.actorId})` : (data.actorId ?? '—'),
            )}
            {row(
              t('admin.audit.ops.action'),
              <code className="audit-code">{data.action}</code>,
              'detail-action',
            )}
            {row(t('admin.audit.ops.target'), data.target ?? '—')}
            {row(t('admin.audit.ops.ip'), data.ip ?? '—')}
            {row(
              t('admin.audit.ops.integrity'),
              <span className={`kit-pill ${data.hashValid ? 'kit-pill-up' : 'kit-pill-down'}`}>
                {data.hashValid ? t('admin.audit.ops.hashValid') : t('admin.audit.ops.hashInvalid')}
              </span>,
              'detail-integrity',
            )}
          </dl>
          <div className="audit-detail-block">
            <h3>{t('admin.audit.ops.details')}</h3>
            <pre className="audit-json" data-testid="detail-json">
              {JSON.stringify(data.details, null, 2)}
            </pre>
          </div>
          <div className="audit-detail-block">
            <h3>{t('admin.audit.ops.hash')}</h3>
            <code className="audit-hash" data-testid="detail-hash">
              {data.hash}
            </code>
            <h3>{t('admin.audit.ops.prevHash')}</h3>
            <code className="audit-hash">{data.prevHash}</code>
          </div>
        </>
      )}
    </Modal>
  );
}

function ExportDialog({ filter, total, onClose }: { filter: TFilter; total: number; onClose: () => void }) {
  const { t, formatNumber } = useI18n();
  const exporter = useMutation('adminoperationexport');
  const run = async () => {
    const result = await exporter.run(filterInput(filter));
    if (!result) return;
    const url = URL.createObjectURL(new Blob([result.csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = result.filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    onClose();
  };
  return (
    <ConfirmDialog
      title={t('admin.audit.ops.exportTitle')}
      message={t('admin.audit.ops.exportText', {
        count: Math.min(total, AUDIT_EXPORT_MAX_ROWS),
        max: formatNumber(AUDIT_EXPORT_MAX_ROWS),
      })}
      confirmLabel={t('admin.audit.ops.exportConfirm')}
      pending={exporter.pending}
      error={exporter.error?.message ?? null}
      onConfirm={run}
      onCancel={onClose}
    />
  );
}
