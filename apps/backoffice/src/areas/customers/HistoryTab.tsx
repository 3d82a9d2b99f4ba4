import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';
import { type ReactNode, useMemo, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { useQuery } from '../../kit/useApi';
import { CLOSE_REASON_LABELS } from '../../lib/close-reasons';
import { tradeColumns } from './columns';
import { LEDGER_KIND_LABELS, ORDER_TYPE_LABELS, toneOf, useFormat } from './format';
import type { TTabProps } from './tabs';

const PAGE_SIZE = 20;
const KINDS = {
  deals: 'admin.customers.history.deals',
  orders: 'admin.customers.history.orders',
  ledger: 'admin.customers.history.ledger',
} as const;
type TKind = keyof typeof KINDS;

type TDeal = TRouteOutput<'admincustomerdeals'>['items'][number];
type TFinished = TRouteOutput<'admincustomerorders'>['items'][number];
type TEntry = TRouteOutput<'admincustomerledger'>['items'][number];

/** Closed deals, finished orders and balance movements of one account, paged on the server. */
export function HistoryTab({ detail }: TTabProps) {
  const { t } = useI18n();
  const [accountId, setAccountId] = useState(detail.accounts[0]?.accountId ?? 0);
  const [kind, setKind] = useState<TKind>('deals');
  if (detail.accounts.length === 0)
    return (
      <div className="card empty-state cu-empty">
        <Icon name="history" size={22} />
        <p>{t('admin.customers.accounts.none')}</p>
      </div>
    );
  const toolbar = (
    <div className="cu-filters">
      <select
        className="input cu-select"
        value={accountId}
        onChange={(e) => setAccountId(Number(e.target.value))}
        aria-label={t('admin.customers.field.account')}
        data-testid="history-account"
      >
        {detail.accounts.map((a) => (
          <option key={a.accountId} value={a.accountId}>
            #{a.accountId} · {a.currency}
          </option>
        ))}
      </select>
      <div className="cu-segment" role="radiogroup" aria-label={t('admin.customers.tab.history')}>
        {(Object.keys(KINDS) as TKind[]).map((key) => (
          <button
            key={key}
            type="button"
            role="radio"
            aria-checked={kind === key}
            className="cu-segment-item"
            data-testid={`history-${key}`}
            onClick={() => setKind(key)}
          >
            {t(KINDS[key])}
          </button>
        ))}
      </div>
    </div>
  );
  const props = { userId: detail.profile.id, accountId, toolbar };
  return kind === 'deals' ? (
    <DealsTable key={accountId} {...props} />
  ) : kind === 'orders' ? (
    <FinishedOrdersTable key={accountId} {...props} />
  ) : (
    <LedgerTable key={accountId} {...props} />
  );
}

interface TTableProps {
  userId: string;
  accountId: number;
  toolbar: ReactNode;
}

function DealsTable({ userId, accountId, toolbar }: TTableProps) {
  const { t } = useI18n();
  const format = useFormat();
  const col = useMemo(() => tradeColumns(t, format), [t, format]);
  const columns = useMemo<TColumn<TDeal>[]>(
    () => [
      {
        key: 'closed',
        header: t('admin.customers.history.closeTime'),
        render: (d) => format.dateTime(d.close_time),
      },
      { key: 'position', header: t('admin.customers.trade.ticket'), render: (d) => d.position_id },
      { key: 'symbol', header: t('admin.customers.trade.symbol'), render: (d) => d.symbol },
      col.side(),
      col.volume(),
      col.openPrice(),
      {
        key: 'close',
        header: t('admin.customers.history.closePrice'),
        align: 'end',
        render: (d) => format.decimal(d.close_price),
      },
      col.swap(),
      col.commission(),
      {
        key: 'profit',
        header: t('admin.customers.trade.profit'),
        align: 'end',
        render: (d) => <span className={toneOf(d.profit)}>{format.signed(d.profit)}</span>,
      },
      {
        key: 'reason',
        header: t('admin.customers.history.reason'),
        render: (d) => t(CLOSE_REASON_LABELS[d.close_reason] ?? 'admin.customers.closeReason.manual'),
      },
    ],
    [t, format, col],
  );
  return (
    <PagedTable
      route="admincustomerdeals"
      userId={userId}
      accountId={accountId}
      toolbar={toolbar}
      columns={columns}
      rowKey={(d) => String(d.id)}
      empty={t('admin.customers.history.noDeals')}
    />
  );
}

function FinishedOrdersTable({ userId, accountId, toolbar }: TTableProps) {
  const { t } = useI18n();
  const format = useFormat();
  const col = useMemo(() => tradeColumns(t, format), [t, format]);
  const columns = useMemo<TColumn<TFinished>[]>(
    () => [
      {
        key: 'done',
        header: t('admin.customers.history.doneTime'),
        render: (o) => format.dateTime(o.done_time),
      },
      { key: 'ticket', header: t('admin.customers.trade.ticket'), render: (o) => o.order_id },
      { key: 'symbol', header: t('admin.customers.trade.symbol'), render: (o) => o.symbol },
      {
        key: 'type',
        header: t('admin.customers.trade.type'),
        render: (o) => t(ORDER_TYPE_LABELS[o.type] ?? o.type),
      },
      col.volume(),
      {
        key: 'price',
        header: t('admin.customers.trade.price'),
        align: 'end',
        render: (o) => format.decimal(o.price),
      },
      {
        key: 'status',
        header: t('admin.customers.field.status'),
        render: (o) => (
          <span className={`kit-pill ${o.status === 'filled' ? 'kit-pill-up' : ''}`}>
            {t(
              o.status === 'filled' ? 'admin.customers.history.filled' : 'admin.customers.history.cancelled',
            )}
          </span>
        ),
      },
      {
        key: 'fill',
        header: t('admin.customers.history.fillPrice'),
        align: 'end',
        render: (o) => (o.fill_price ? format.decimal(o.fill_price) : '—'),
      },
    ],
    [t, format, col],
  );
  return (
    <PagedTable
      route="admincustomerorders"
      userId={userId}
      accountId={accountId}
      toolbar={toolbar}
      columns={columns}
      rowKey={(o) => String(o.order_id)}
      empty={t('admin.customers.history.noOrders')}
    />
  );
}

function LedgerTable({ userId, accountId, toolbar }: TTableProps) {
  const { t } = useI18n();
  const format = useFormat();
  const columns = useMemo<TColumn<TEntry>[]>(
    () => [
      { key: 'time', header: t('admin.customers.history.time'), render: (e) => format.dateTime(e.time) },
      { key: 'tx', header: t('admin.customers.history.transaction'), render: (e) => e.txId },
      {
        key: 'kind',
        header: t('admin.customers.history.kind'),
        render: (e) => t(LEDGER_KIND_LABELS[e.kind] ?? e.kind),
      },
      {
        key: 'amount',
        header: t('admin.customers.adjustment.amount'),
        align: 'end',
        render: (e) => <span className={toneOf(e.amount)}>{format.signed(e.amount)}</span>,
      },
      {
        key: 'balance',
        header: t('admin.customers.history.balanceAfter'),
        align: 'end',
        render: (e) => format.money(e.balanceAfter),
      },
      {
        key: 'position',
        header: t('admin.customers.trade.ticket'),
        render: (e) => e.positionId ?? '—',
      },
    ],
    [t, format],
  );
  return (
    <PagedTable
      route="admincustomerledger"
      userId={userId}
      accountId={accountId}
      toolbar={toolbar}
      columns={columns}
      rowKey={(e) => `${e.txId}`}
      empty={t('admin.customers.history.noLedger')}
    />
  );
}

type THistoryRoute = 'admincustomerdeals' | 'admincustomerorders' | 'admincustomerledger';
type THistoryRow<N extends THistoryRoute> = TRouteOutput<N>['items'][number];

/** One page of an account's history from the server, with the account and kind pickers above it. */
function PagedTable<N extends THistoryRoute>({
  route,
  userId,
  accountId,
  toolbar,
  columns,
  rowKey,
  empty,
}: TTableProps & {
  route: N;
  columns: TColumn<THistoryRow<N>>[];
  rowKey: (row: THistoryRow<N>) => string;
  empty: string;
}) {
  const [page, setPage] = useState(1);
  const result = useQuery(route, { userId, accountId, page, size: PAGE_SIZE } as TRouteInput<N>);
  const data = result.data as { items: THistoryRow<N>[]; total: number } | null;
  return (
    <DataTable
      testId="history-table"
      stackOnMobile
      rows={data?.items ?? []}
      columns={columns}
      rowKey={rowKey}
      loading={result.status === 'loading'}
      error={result.status === 'error' ? result.error.message : null}
      onRetry={result.reload}
      toolbar={toolbar}
      empty={empty}
      server={{ total: data?.total ?? 0, page, pageSize: PAGE_SIZE, onPage: setPage }}
    />
  );
}
