import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n';
import { Can } from '../../kit/Can';
import { DataTable, type TColumn } from '../../kit/DataTable';
import { ConfirmDialog } from '../../kit/Modal';
import { newIdempotencyKey, useMutation } from '../../kit/useApi';
import { tradeColumns } from './columns';
import { ORDER_TYPE_LABELS, toneOf, useFormat } from './format';
import type { TTabProps } from './tabs';

type TPosition = TTabProps['detail']['positions'][number];
type TOrder = TTabProps['detail']['orders'][number];

/** The dealer's action on a row (close a position, cancel an order), for holders of users.trade. */
function dealerColumn<R>(testId: string, label: string, act: (row: R) => void): TColumn<R> {
  return {
    key: 'actions',
    header: '',
    align: 'end',
    render: (row) => (
      <Can permission="users.trade">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          data-testid={testId}
          onClick={() => act(row)}
        >
          {label}
        </button>
      </Can>
    ),
  };
}

/** Open positions of every account of the customer, with live profit; a dealer can close one. */
export function PositionsTab({ detail, reload, notify }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const col = useMemo(() => tradeColumns(t, format), [t, format]);
  const [closing, setClosing] = useState<TPosition | null>(null);
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
      col.swap(),
      col.commission(),
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
        render: (p) => format.shortDateTime(p.open_time),
      },
      dealerColumn<TPosition>('position-close', t('admin.customers.dealer.close'), setClosing),
    ],
    [t, format, col],
  );
  return (
    <>
      <DataTable
        testId="positions-table"
        dense
        stackOnMobile
        rowTestId="position-row"
        rows={detail.positions}
        columns={columns}
        rowKey={(p) => String(p.order_id)}
        filterText={(p) => `${p.symbol} ${p.order_id} ${p.account_id}`}
        filterPlaceholder={t('admin.customers.trade.filter')}
        empty={t('admin.customers.trade.noPositions')}
      />
      {closing ? (
        <DealerDialog
          kind="close"
          userId={detail.profile.id}
          accountId={Number(closing.account_id)}
          ticket={Number(closing.order_id)}
          text={t('admin.customers.dealer.closeText', {
            ticket: closing.order_id,
            volume: format.money(closing.volume),
            symbol: closing.symbol,
            profit: format.signed(closing.profit),
          })}
          onClose={() => setClosing(null)}
          onDone={(message) => {
            setClosing(null);
            notify(message);
            reload();
          }}
        />
      ) : null}
    </>
  );
}

/**
 * The dealer's confirmation before closing a customer's position or cancelling a pending order; one
 * idempotency key per dialog, so a double click acts once.
 */
function DealerDialog({
  kind,
  userId,
  accountId,
  ticket,
  text,
  onClose,
  onDone,
}: {
  kind: 'close' | 'cancel';
  userId: string;
  accountId: number;
  ticket: number;
  text: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useI18n();
  const close = useMutation('admincustomerpositionclose');
  const cancel = useMutation('admincustomerordercancel');
  const mutation = kind === 'close' ? close : cancel;
  const [key] = useState(newIdempotencyKey);
  return (
    <ConfirmDialog
      title={t(
        kind === 'close' ? 'admin.customers.dealer.closeTitle' : 'admin.customers.dealer.cancelTitle',
        {
          ticket,
        },
      )}
      message={text}
      confirmLabel={t(kind === 'close' ? 'admin.customers.dealer.close' : 'admin.customers.dealer.cancel')}
      danger
      pending={mutation.pending}
      error={mutation.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        const done =
          kind === 'close'
            ? await close.run({ userId, accountId, positionId: ticket, idempotencyKey: key })
            : await cancel.run({ userId, accountId, orderId: ticket, idempotencyKey: key });
        if (done)
          onDone(
            t(kind === 'close' ? 'admin.customers.dealer.closed' : 'admin.customers.dealer.cancelled', {
              ticket,
            }),
          );
      }}
    />
  );
}

/** Pending orders of every account of the customer; a dealer can cancel one. */
export function OrdersTab({ detail, reload, notify }: TTabProps) {
  const { t } = useI18n();
  const format = useFormat();
  const col = useMemo(() => tradeColumns(t, format), [t, format]);
  const [cancelling, setCancelling] = useState<TOrder | null>(null);
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
      { key: 'time', header: t('admin.customers.trade.placed'), render: (o) => format.shortDateTime(o.time) },
      dealerColumn<TOrder>('order-cancel', t('admin.customers.dealer.cancel'), setCancelling),
    ],
    [t, format, col],
  );
  return (
    <>
      <DataTable
        testId="orders-table"
        stackOnMobile
        rowTestId="order-row"
        rows={detail.orders}
        columns={columns}
        rowKey={(o) => String(o.order_id)}
        filterText={(o) => `${o.symbol} ${o.order_id} ${o.account_id}`}
        filterPlaceholder={t('admin.customers.trade.filter')}
        empty={t('admin.customers.trade.noOrders')}
      />
      {cancelling ? (
        <DealerDialog
          kind="cancel"
          userId={detail.profile.id}
          accountId={Number(cancelling.account_id)}
          ticket={Number(cancelling.order_id)}
          text={t('admin.customers.dealer.cancelText', {
            ticket: cancelling.order_id,
            volume: format.money(cancelling.volume),
            symbol: cancelling.symbol,
          })}
          onClose={() => setCancelling(null)}
          onDone={(message) => {
            setCancelling(null);
            notify(message);
            reload();
          }}
        />
      ) : null}
    </>
  );
}
