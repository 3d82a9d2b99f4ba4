import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import type { TTabProps } from './CustomerDetailPage';
import { ORDER_TYPE_LABELS, SIDE_LABELS, toneOf, useFormat } from './format';

type TPosition = TTabProps['detail']['positions'][number];
type TOrder = TTabProps['detail']['orders'][number];

/** Open positions of every account of the customer, with live profit. */
export function PositionsTab({ detail }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const columns = useMemo<TColumn<TPosition>[]>(
    () => [
      {
        key: 'ticket',
        header: t('admin.customers.trade.ticket'),
        render: (p) => p.order_id,
        sortValue: (p) => p.order_id,
      },
      { key: 'account', header: t('admin.customers.field.account'), render: (p) => `#${p.account_id}` },
      {
        key: 'symbol',
        header: t('admin.customers.trade.symbol'),
        render: (p) => p.symbol,
        sortValue: (p) => p.symbol,
      },
      {
        key: 'side',
        header: t('admin.customers.trade.side'),
        render: (p) => (
          <span className={p.side === 'buy' ? 'kit-up' : 'kit-down'}>{t(SIDE_LABELS[p.side])}</span>
        ),
      },
      {
        key: 'volume',
        header: t('admin.customers.trade.volume'),
        align: 'end',
        render: (p) => format.money(p.volume),
      },
      {
        key: 'open',
        header: t('admin.customers.trade.openPrice'),
        align: 'end',
        render: (p) => format.decimal(p.open_price),
      },
      {
        key: 'current',
        header: t('admin.customers.trade.currentPrice'),
        align: 'end',
        render: (p) => format.decimal(p.current_price),
      },
      {
        key: 'stops',
        header: t('admin.customers.trade.stops'),
        render: (p) =>
          `${p.take_profit ? format.decimal(p.take_profit) : '—'} / ${p.stop_loss ? format.decimal(p.stop_loss) : '—'}`,
      },
      {
        key: 'margin',
        header: t('admin.customers.figure.margin'),
        align: 'end',
        render: (p) => format.money(p.margin),
      },
      {
        key: 'profit',
        header: t('admin.customers.trade.profit'),
        align: 'end',
        sortValue: (p) => Number(p.profit),
        render: (p) => <span className={toneOf(p.profit)}>{format.signed(p.profit)}</span>,
      },
      {
        key: 'time',
        header: t('admin.customers.trade.openTime'),
        render: (p) => format.dateTime(p.open_time),
      },
    ],
    [t, format],
  );
  return (
    <DataTable
      testId="positions-table"
      rowTestId="position-row"
      rows={detail.positions}
      columns={columns}
      rowKey={(p) => String(p.order_id)}
      filterText={(p) => `${p.symbol} ${p.order_id} ${p.account_id}`}
      filterPlaceholder={t('admin.customers.trade.filter')}
      empty={t('admin.customers.trade.noPositions')}
    />
  );
}

/** Pending orders of every account of the customer. */
export function OrdersTab({ detail }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const columns = useMemo<TColumn<TOrder>[]>(
    () => [
      {
        key: 'ticket',
        header: t('admin.customers.trade.ticket'),
        render: (o) => o.order_id,
        sortValue: (o) => o.order_id,
      },
      { key: 'account', header: t('admin.customers.field.account'), render: (o) => `#${o.account_id}` },
      {
        key: 'symbol',
        header: t('admin.customers.trade.symbol'),
        render: (o) => o.symbol,
        sortValue: (o) => o.symbol,
      },
      {
        key: 'type',
        header: t('admin.customers.trade.type'),
        render: (o) => t(ORDER_TYPE_LABELS[o.type] ?? o.type),
      },
      {
        key: 'volume',
        header: t('admin.customers.trade.volume'),
        align: 'end',
        render: (o) => format.money(o.volume),
      },
      {
        key: 'price',
        header: t('admin.customers.trade.price'),
        align: 'end',
        render: (o) => format.decimal(o.price),
      },
      {
        key: 'limit',
        header: t('admin.customers.trade.limitPrice'),
        align: 'end',
        render: (o) => (o.limit_price ? format.decimal(o.limit_price) : '—'),
      },
      {
        key: 'stops',
        header: t('admin.customers.trade.stops'),
        render: (o) =>
          `${o.take_profit ? format.decimal(o.take_profit) : '—'} / ${o.stop_loss ? format.decimal(o.stop_loss) : '—'}`,
      },
      { key: 'time', header: t('admin.customers.trade.placed'), render: (o) => format.dateTime(o.time) },
    ],
    [t, format],
  );
  return (
    <DataTable
      testId="orders-table"
      rowTestId="order-row"
      rows={detail.orders}
      columns={columns}
      rowKey={(o) => String(o.order_id)}
      filterText={(o) => `${o.symbol} ${o.order_id} ${o.account_id}`}
      filterPlaceholder={t('admin.customers.trade.filter')}
      empty={t('admin.customers.trade.noOrders')}
    />
  );
}
