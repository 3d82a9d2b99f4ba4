import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { Field } from '../../kit/Field';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { Segmented } from '../../kit/Segmented';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { tone, usePolling, useRiskFormat } from './format';

type TRules = TRouteOutput<'adminriskrules'>;
type TRule = TRules['rules'][number];
type THedge = TRouteOutput<'adminriskliquidity'>['orders'][number];
type TKind = TRule['kind'];
type TSymbolRow = TRouteOutput<'adminriskexposure'>['symbols'][number];

const KIND_LABEL: Record<TKind, string> = {
  group: 'admin.risk.rules.kindGroup',
  customer: 'admin.risk.rules.kindCustomer',
  profitability: 'admin.risk.rules.kindProfit',
};
const STATUS_LABEL: Record<THedge['status'], string> = {
  pending: 'admin.risk.hedges.pending',
  filled: 'admin.risk.hedges.filled',
  failed: 'admin.risk.hedges.failed',
};

/** A-book / B-book routing rules, the liquidity provider and the hedge orders sent to it. */
export function RoutingTab() {
  return (
    <div className="risk-tab-body">
      <RulesSection />
      <BookSplitSection />
      <HedgesSection />
    </div>
  );
}

function RulesSection() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const query = useQuery('adminriskrules', {});
  const [editing, setEditing] = useState<TRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TRule | null>(null);
  const remove = useMutation('adminriskruledelete');
  const condition = (r: TRule) => {
    if (r.kind === 'group') return r.groupName ?? '—';
    if (r.kind === 'customer') return r.userName ? `${r.userName} · ${r.userEmail ?? ''}` : (r.userId ?? '—');
    const parts = [
      r.minRealizedProfitUsd !== null
        ? t('admin.risk.rules.profitAtLeast', { amount: f.usd(r.minRealizedProfitUsd) })
        : null,
      r.minWinRate !== null ? t('admin.risk.rules.winRateAtLeast', { rate: f.percent(r.minWinRate) }) : null,
      r.minTrades > 0 ? t('admin.risk.rules.tradesAtLeast', { count: r.minTrades }) : null,
    ].filter(Boolean);
    return `${parts.join(' · ')} (${t('admin.risk.rules.windowDays', { days: r.windowDays })})`;
  };
  const columns: TColumn<TRule>[] = [
    {
      key: 'priority',
      header: t('admin.risk.rules.priority'),
      render: (r) => f.count(r.priority),
      sortValue: (r) => r.priority,
    },
    { key: 'kind', header: t('admin.risk.rules.kind'), render: (r) => t(KIND_LABEL[r.kind]) },
    {
      key: 'condition',
      header: t('admin.risk.rules.condition'),
      render: (r) => <span className="risk-wrap">{condition(r)}</span>,
    },
    {
      key: 'book',
      header: t('admin.risk.rules.book'),
      render: (r) => (
        <span className={r.book === 'A' ? 'kit-pill kit-pill-up' : 'kit-pill'}>
          {r.book === 'A' ? t('admin.risk.book.a') : t('admin.risk.book.b')}
        </span>
      ),
    },
    {
      key: 'enabled',
      header: t('admin.risk.rules.state'),
      render: (r) =>
        r.enabled ? (
          <span className="kit-pill kit-pill-up">{t('admin.risk.rules.enabled')}</span>
        ) : (
          <span className="kit-pill">{t('admin.risk.rules.disabled')}</span>
        ),
    },
    {
      key: 'note',
      header: t('admin.risk.rules.note'),
      render: (r) => <span className="risk-wrap">{r.note || '—'}</span>,
    },
    {
      key: 'actions',
      header: '',
      align: 'end',
      render: (r) => (
        <Can permission="risk.edit">
          <span className="kit-actions risk-row-actions">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(r)}>
              {t('admin.risk.edit')}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDeleting(r)}>
              {t('admin.risk.delete')}
            </button>
          </span>
        </Can>
      ),
    },
  ];
  return (
    <section className="bo-section">
      <div className="bo-section-head risk-section-head">
        <div>
          <h2>{t('admin.risk.rules.title')}</h2>
          <p>{t('admin.risk.rules.text')}</p>
        </div>
        <Can permission="risk.edit">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setEditing('new')}
            data-testid="risk-rule-add"
          >
            {t('admin.risk.rules.add')}
          </button>
        </Can>
      </div>
      <DataTable
        rows={query.data?.rules ?? []}
        columns={columns}
        rowKey={(r) => r.id}
        loading={query.status === 'loading'}
        error={query.status === 'error' ? query.error.message : null}
        onRetry={query.reload}
        empty={t('admin.risk.rules.empty')}
        testId="risk-rules"
      />
      {editing && query.data ? (
        <RuleDialog
          rule={editing === 'new' ? null : editing}
          groups={query.data.groups}
          nextPriority={Math.max(0, ...query.data.rules.map((r) => r.priority)) + 10}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            query.reload();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={t('admin.risk.rules.deleteTitle')}
          message={t('admin.risk.rules.deleteText', { condition: condition(deleting) })}
          confirmLabel={t('admin.risk.delete')}
          danger
          pending={remove.pending}
          error={remove.error?.message ?? null}
          onCancel={() => {
            remove.reset();
            setDeleting(null);
          }}
          onConfirm={async () => {
            if (await remove.run({ id: deleting.id })) {
              setDeleting(null);
              query.reload();
            }
          }}
        />
      ) : null}
    </section>
  );
}

type TDraft = {
  priority: string;
  kind: TKind;
  groupId: string;
  customer: string;
  minRealizedProfitUsd: string;
  minWinRate: string;
  minTrades: string;
  windowDays: string;
  book: 'A' | 'B';
  enabled: boolean;
  note: string;
};

function RuleDialog({
  rule,
  groups,
  nextPriority,
  onClose,
  onSaved,
}: {
  rule: TRule | null;
  groups: TRules['groups'];
  nextPriority: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<TDraft>({
    priority: String(rule?.priority ?? nextPriority),
    kind: rule?.kind ?? 'group',
    groupId: rule?.groupId ?? groups[0]?.id ?? '',
    customer: rule?.userEmail ?? rule?.userId ?? '',
    minRealizedProfitUsd: rule?.minRealizedProfitUsd ?? '',
    minWinRate: rule?.minWinRate ?? '',
    minTrades: String(rule?.minTrades ?? 0),
    windowDays: String(rule?.windowDays ?? 30),
    book: rule?.book ?? 'A',
    enabled: rule?.enabled ?? true,
    note: rule?.note ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<TRouteInput<'adminriskrulesave'> | null>(null);
  const save = useMutation('adminriskrulesave');
  const set = <K extends keyof TDraft>(key: K, value: TDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const formId = 'risk-rule-form';

  const build = (): TRouteInput<'adminriskrulesave'> | null => {
    const problems: Record<string, string> = {};
    const integer = (text: string, min: number, max: number) => {
      const n = /^\d{1,6}$/.test(text.trim()) ? Number(text) : Number.NaN;
      return n >= min && n <= max ? n : null;
    };
    const priority = integer(draft.priority, 1, 10_000);
    if (priority === null) problems.priority = t('admin.risk.rules.errPriority');
    const minTrades = integer(draft.minTrades, 0, 100_000);
    const windowDays = integer(draft.windowDays, 1, 365);
    if (draft.kind === 'group' && !draft.groupId) problems.groupId = t('admin.risk.rules.errRequired');
    if (draft.kind === 'customer' && !draft.customer.trim())
      problems.customer = t('admin.risk.rules.errRequired');
    if (draft.kind === 'profitability') {
      const profit = draft.minRealizedProfitUsd.trim();
      const rate = draft.minWinRate.trim();
      if (!profit && !rate) problems.minRealizedProfitUsd = t('admin.risk.rules.errThreshold');
      if (profit && !/^-?\d{1,12}(\.\d{1,2})?$/.test(profit))
        problems.minRealizedProfitUsd = t('admin.risk.rules.errAmount');
      if (rate && (!/^\d{1,3}(\.\d{1,2})?$/.test(rate) || Number(rate) > 100))
        problems.minWinRate = t('admin.risk.rules.errRate');
      if (minTrades === null) problems.minTrades = t('admin.risk.rules.errTrades');
      if (windowDays === null) problems.windowDays = t('admin.risk.rules.errWindow');
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0 || priority === null) return null;
    return {
      ...(rule ? { id: rule.id } : {}),
      priority,
      kind: draft.kind,
      groupId: draft.kind === 'group' ? draft.groupId : null,
      customer: draft.kind === 'customer' ? draft.customer.trim() : null,
      minRealizedProfitUsd:
        draft.kind === 'profitability' && draft.minRealizedProfitUsd.trim()
          ? draft.minRealizedProfitUsd.trim()
          : null,
      minWinRate: draft.kind === 'profitability' && draft.minWinRate.trim() ? draft.minWinRate.trim() : null,
      minTrades: minTrades ?? 0,
      windowDays: windowDays ?? 30,
      book: draft.book,
      enabled: draft.enabled,
      note: draft.note.trim(),
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = build();
    if (input) setConfirming(input);
  };

  if (confirming)
    return (
      <ConfirmDialog
        title={rule ? t('admin.risk.rules.confirmEdit') : t('admin.risk.rules.confirmAdd')}
        message={t('admin.risk.rules.confirmText', {
          book: confirming.book === 'A' ? t('admin.risk.book.a') : t('admin.risk.book.b'),
        })}
        pending={save.pending}
        error={save.error ? [save.error.message, ...Object.values(save.error.fields)].join(' ') : null}
        onCancel={() => {
          save.reset();
          setConfirming(null);
        }}
        onConfirm={async () => {
          if (await save.run(confirming)) onSaved();
        }}
      />
    );

  return (
    <Modal
      title={rule ? t('admin.risk.rules.editTitle') : t('admin.risk.rules.addTitle')}
      onClose={onClose}
      wide
      testId="risk-rule-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('admin.kit.cancel')}
          </button>
          <button type="submit" form={formId} className="btn btn-primary" data-testid="risk-rule-submit">
            {t('admin.risk.save')}
          </button>
        </>
      }
    >
      <form id={formId} className="kit-form-grid" onSubmit={submit} noValidate>
        <Field label={t('admin.risk.rules.kind')}>
          {(props) => (
            <select
              {...props}
              className="input"
              name="kind"
              value={draft.kind}
              onChange={(e) => set('kind', e.target.value as TKind)}
            >
              {(['group', 'customer', 'profitability'] as const).map((kind) => (
                <option key={kind} value={kind}>
                  {t(KIND_LABEL[kind])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('admin.risk.rules.book')}>
          {(props) => (
            <select
              {...props}
              className="input"
              name="book"
              value={draft.book}
              onChange={(e) => set('book', e.target.value as 'A' | 'B')}
            >
              <option value="A">{t('admin.risk.book.a')}</option>
              <option value="B">{t('admin.risk.book.b')}</option>
            </select>
          )}
        </Field>
        <Field
          label={t('admin.risk.rules.priority')}
          error={errors.priority}
          hint={t('admin.risk.rules.priorityHint')}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              name="priority"
              inputMode="numeric"
              value={draft.priority}
              onChange={(e) => set('priority', e.target.value)}
            />
          )}
        </Field>
        {draft.kind === 'group' ? (
          <Field label={t('admin.risk.col.group')} error={errors.groupId}>
            {(props) => (
              <select
                {...props}
                className="input"
                name="groupId"
                value={draft.groupId}
                onChange={(e) => set('groupId', e.target.value)}
              >
                {groups.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {draft.kind === 'customer' ? (
          <Field
            label={t('admin.risk.col.customer')}
            error={errors.customer}
            hint={t('admin.risk.rules.customerHint')}
          >
            {(props) => (
              <input
                {...props}
                className="input"
                name="customer"
                value={draft.customer}
                onChange={(e) => set('customer', e.target.value)}
              />
            )}
          </Field>
        ) : null}
        {draft.kind === 'profitability' ? (
          <>
            <Field
              label={t('admin.risk.rules.minProfit')}
              error={errors.minRealizedProfitUsd}
              hint={t('admin.risk.rules.minProfitHint')}
            >
              {(props) => (
                <input
                  {...props}
                  className="input"
                  name="minRealizedProfitUsd"
                  inputMode="decimal"
                  value={draft.minRealizedProfitUsd}
                  onChange={(e) => set('minRealizedProfitUsd', e.target.value)}
                />
              )}
            </Field>
            <Field
              label={t('admin.risk.rules.minWinRate')}
              error={errors.minWinRate}
              hint={t('admin.risk.rules.minWinRateHint')}
            >
              {(props) => (
                <input
                  {...props}
                  className="input"
                  name="minWinRate"
                  inputMode="decimal"
                  value={draft.minWinRate}
                  onChange={(e) => set('minWinRate', e.target.value)}
                />
              )}
            </Field>
            <Field label={t('admin.risk.rules.minTrades')} error={errors.minTrades}>
              {(props) => (
                <input
                  {...props}
                  className="input"
                  name="minTrades"
                  inputMode="numeric"
                  value={draft.minTrades}
                  onChange={(e) => set('minTrades', e.target.value)}
                />
              )}
            </Field>
            <Field label={t('admin.risk.rules.window')} error={errors.windowDays}>
              {(props) => (
                <input
                  {...props}
                  className="input"
                  name="windowDays"
                  inputMode="numeric"
                  value={draft.windowDays}
                  onChange={(e) => set('windowDays', e.target.value)}
                />
              )}
            </Field>
          </>
        ) : null}
        <Field label={t('admin.risk.rules.note')}>
          {(props) => (
            <input
              {...props}
              className="input"
              name="note"
              maxLength={200}
              value={draft.note}
              onChange={(e) => set('note', e.target.value)}
            />
          )}
        </Field>
      </form>
      <label className="kit-check">
        <input
          type="checkbox"
          name="enabled"
          checked={draft.enabled}
          onChange={(e) => set('enabled', e.target.checked)}
        />
        {t('admin.risk.rules.enabledLabel')}
      </label>
    </Modal>
  );
}

function HedgesSection() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const { can } = useSession();
  const [filter, setFilter] = useState<'all' | 'attention'>('all');
  const query = useQuery('adminriskliquidity', { filter, limit: 100 });
  usePolling(query.reload, 2_000);
  const [retrying, setRetrying] = useState<THedge | null>(null);
  const retry = useMutation('adminriskhedgeretry');
  const data = query.data;
  const provider = data?.provider;
  const statusPill = (h: THedge) => (
    <span
      className={
        h.status === 'filled'
          ? 'kit-pill kit-pill-up'
          : h.status === 'failed'
            ? 'kit-pill kit-pill-down'
            : 'kit-pill kit-pill-warn'
      }
    >
      {t(STATUS_LABEL[h.status])}
    </span>
  );
  const columns: TColumn<THedge>[] = [
    {
      key: 'time',
      header: t('admin.risk.col.time'),
      render: (h) => f.time(h.createdAt),
      sortValue: (h) => h.createdAt,
    },
    {
      key: 'position',
      header: t('admin.risk.hedges.position'),
      render: (h) => (
        <span className="risk-who">
          <strong className="num">#{h.positionId}</strong>
          <span>
            {t('admin.risk.col.account')} #{h.accountId}
          </span>
        </span>
      ),
    },
    {
      key: 'order',
      header: t('admin.risk.hedges.order'),
      render: (h) => (
        <span className="risk-split">
          <span className={h.side === 'buy' ? 'kit-up' : 'kit-down'}>
            {h.side === 'buy' ? t('admin.risk.hedges.buy') : t('admin.risk.hedges.sell')}
          </span>
          <strong>{h.symbol}</strong>
          <span>{h.volume}</span>
          <span className="kit-pill">
            {h.purpose === 'open' ? t('admin.risk.hedges.open') : t('admin.risk.hedges.close')}
          </span>
        </span>
      ),
    },
    {
      key: 'requested',
      header: t('admin.risk.hedges.requested'),
      align: 'end',
      render: (h) => h.requestedPrice ?? '—',
    },
    { key: 'fill', header: t('admin.risk.hedges.fill'), align: 'end', render: (h) => h.fillPrice ?? '—' },
    {
      key: 'slippage',
      header: t('admin.risk.hedges.slippage'),
      align: 'end',
      render: (h) =>
        h.slippagePoints === null ? (
          '—'
        ) : (
          <span className={h.slippagePoints > 0 ? 'kit-down' : h.slippagePoints < 0 ? 'kit-up' : undefined}>
            {t('admin.risk.hedges.points', { value: h.slippagePoints })}
          </span>
        ),
    },
    {
      key: 'latency',
      header: t('admin.risk.hedges.latency'),
      align: 'end',
      render: (h) => (h.latencyMs === null ? '—' : `${h.latencyMs} ms`),
    },
    {
      key: 'status',
      header: t('admin.risk.hedges.status'),
      render: (h) => (
        <span className="risk-who">
          <span className="risk-split">
            {statusPill(h)}
            {h.attempts > 1 ? (
              <span className="kit-hint">{t('admin.risk.hedges.attempts', { count: h.attempts })}</span>
            ) : null}
          </span>
          {h.error ? <span className="risk-wrap">{h.error}</span> : null}
        </span>
      ),
    },
    {
      key: 'actions',
      header: '',
      align: 'end',
      render: (h) =>
        h.flagged && can('risk.edit') ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setRetrying(h)}>
            {t('admin.risk.hedges.retry')}
          </button>
        ) : null,
    },
  ];
  return (
    <>
      <section className="bo-section">
        <div className="bo-section-head">
          <h2>{t('admin.risk.lp.title')}</h2>
          <p>{t('admin.risk.lp.text')}</p>
        </div>
        <div className="card risk-lp" data-testid="risk-lp">
          <div className="risk-lp-name">
            <span className={provider?.connected ? 'risk-dot' : 'risk-dot risk-dot-off'} aria-hidden="true" />
            <strong>{provider?.name ?? '—'}</strong>
            {provider ? (
              <span className={provider.connected ? 'kit-pill kit-pill-up' : 'kit-pill kit-pill-down'}>
                {provider.connected ? t('admin.risk.lp.connected') : t('admin.risk.lp.disconnected')}
              </span>
            ) : null}
          </div>
          <dl className="risk-lp-figures">
            <div>
              <dt>{t('admin.risk.lp.sent')}</dt>
              <dd className="num">{provider ? f.count(provider.sent) : '—'}</dd>
            </div>
            <div>
              <dt>{t('admin.risk.lp.filled')}</dt>
              <dd className="num">{provider ? f.count(provider.filled) : '—'}</dd>
            </div>
            <div>
              <dt>{t('admin.risk.lp.rejected')}</dt>
              <dd className="num">{provider ? f.count(provider.rejected) : '—'}</dd>
            </div>
            <div>
              <dt>{t('admin.risk.lp.latency')}</dt>
              <dd className="num">
                {provider?.averageLatencyMs != null ? `${provider.averageLatencyMs} ms` : '—'}
              </dd>
            </div>
            <div>
              <dt>{t('admin.risk.lp.inFlight')}</dt>
              <dd className="num">{data ? f.count(data.inFlight) : '—'}</dd>
            </div>
            <div>
              <dt>{t('admin.risk.lp.attention')}</dt>
              <dd className={data && data.attention > 0 ? 'num kit-down' : 'num'}>
                {data ? f.count(data.attention) : '—'}
              </dd>
            </div>
          </dl>
          {provider?.lastError ? (
            <p className="kit-hint">{t('admin.risk.lp.lastError', { error: provider.lastError })}</p>
          ) : null}
        </div>
      </section>
      <section className="bo-section">
        <div className="bo-section-head">
          <h2>{t('admin.risk.hedges.title')}</h2>
          <p>{t('admin.risk.hedges.text')}</p>
        </div>
        <DataTable
          rows={data?.orders ?? []}
          columns={columns}
          rowKey={(h) => h.id}
          loading={query.status === 'loading' && !data}
          error={query.status === 'error' ? query.error.message : null}
          onRetry={query.reload}
          empty={filter === 'attention' ? t('admin.risk.hedges.noAttention') : t('admin.risk.hedges.empty')}
          testId="risk-hedges"
          toolbar={
            <Segmented
              classPrefix="risk-seg"
              value={filter}
              onChange={setFilter}
              label={t('admin.risk.hedges.filter')}
              options={[
                { value: 'all', label: t('admin.risk.hedges.all') },
                {
                  value: 'attention',
                  label: t('admin.risk.hedges.needsAttention', { count: data?.attention ?? 0 }),
                },
              ]}
            />
          }
        />
      </section>
      {retrying ? (
        <ConfirmDialog
          title={t('admin.risk.hedges.retryTitle')}
          message={t('admin.risk.hedges.retryText', {
            symbol: retrying.symbol,
            volume: retrying.volume,
            position: retrying.positionId,
          })}
          confirmLabel={t('admin.risk.hedges.retry')}
          pending={retry.pending}
          error={retry.error?.message ?? null}
          onCancel={() => {
            retry.reset();
            setRetrying(null);
          }}
          onConfirm={async () => {
            if (await retry.run({ id: retrying.id })) {
              setRetrying(null);
              query.reload();
            }
          }}
        />
      ) : null}
    </>
  );
}

/** The broker's real-money net exposure per symbol, hedged (A-book) apart from kept (B-book). */
function BookSplitSection() {
  const { t } = useI18n();
  const f = useRiskFormat();
  const query = useQuery('adminriskexposure', { scope: 'real', top: 1 });
  usePolling(query.reload, 2_000);
  const data = query.data;
  const lots = (text: string) => <span className={tone(text)}>{f.lots(text)}</span>;
  const columns: TColumn<TSymbolRow>[] = [
    {
      key: 'symbol',
      header: t('admin.risk.col.symbol'),
      render: (r) => <strong>{r.symbol}</strong>,
      sortValue: (r) => r.symbol,
    },
    {
      key: 'a',
      header: t('admin.risk.book.a'),
      align: 'end',
      render: (r) => lots(r.netLotsA),
      sortValue: (r) => Number(r.netLotsA),
    },
    {
      key: 'b',
      header: t('admin.risk.book.b'),
      align: 'end',
      render: (r) => lots(r.netLotsB),
      sortValue: (r) => Number(r.netLotsB),
    },
    {
      key: 'net',
      header: t('admin.risk.col.netLots'),
      align: 'end',
      render: (r) => lots(r.netLots),
      sortValue: (r) => Number(r.netLots),
    },
    {
      key: 'broker',
      header: t('admin.risk.col.brokerPnl'),
      align: 'end',
      render: (r) => <span className={tone(r.brokerPnlUsd)}>{f.usd(r.brokerPnlUsd)}</span>,
      sortValue: (r) => Number(r.brokerPnlUsd),
    },
  ];
  return (
    <section className="bo-section">
      <div className="bo-section-head">
        <h2>{t('admin.risk.split.title')}</h2>
        <p>
          {data
            ? t('admin.risk.split.text', {
                a: f.usd(data.books.A.exposureUsd),
                b: f.usd(data.books.B.exposureUsd),
              })
            : ''}
        </p>
      </div>
      <DataTable
        rows={data?.symbols ?? []}
        columns={columns}
        rowKey={(r) => r.symbol}
        loading={query.status === 'loading' && !data}
        error={query.status === 'error' ? query.error.message : null}
        onRetry={query.reload}
        empty={t('admin.risk.symbols.empty')}
        testId="risk-split"
        pageSize={10}
      />
    </section>
  );
}
