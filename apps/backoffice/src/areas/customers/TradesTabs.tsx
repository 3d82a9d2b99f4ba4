import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import { DataTable, type TColumn } from '../../kit/DataTable';
import type { TTabProps } from './CustomerDetailPage';
import { tradeColumns } from './columns';
import { ORDER_TYPE_LABELS, toneOf, useFormat } from './format';

type TPosition = TTabProps['detail']['positions'][number];
type TOrder = TTabProps['detail']['orders'][number];

/** Open positions of every account of the customer, with live profit. */
export function PositionsTab({ detail }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const col = useMemo(() => tradeColumns(t, format), [t, format]);
  const columns = useMemo<TColumn<TPosition>[]>(
    () => [
      col.ticket(),
      col.account(),
      col.symbol(),
      col.side(),
      col.volume(),
      col.openPrice(),
      {
        key: 'current',
        header: t('admin.customers.trade.currentPrice'),
        align: 'end',
        render: (p) => format.decimal(p.current_price),
      },
      col.stops(),
      {
        key: 'margin',
        header: t('admin.customers.figure.margin'),
        align: 'end',
        render: (p) => format.money(p.margin),
      },
      {
        key: 'swap',
        header: t('admin.customers.trade.swap'),
        align: 'end',
        render: (p) => format.money(p.swap),
      },
      {
        key: 'commission',
        header: t('admin.customers.trade.commission'),
        align: 'end',
        render: (p) => format.money(p.commission),
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
    [t, format, col],
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
  const col = useMemo(() => tradeColumns(t, format), [t, format]);
  const columns = useMemo<TColumn<TOrder>[]>(
    () => [
      col.ticket(),
      col.account(),
      col.symbol(),
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
        key: 'limit',
        header: t('admin.customers.trade.limitPrice'),
        align: 'end',
        render: (o) => (o.limit_price ? format.decimal(o.limit_price) : '—'),
      },
      col.stops(),
      { key: 'time', header: t('admin.customers.trade.placed'), render: (o) => format.dateTime(o.time) },
    ],
    [t, format, col],
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
