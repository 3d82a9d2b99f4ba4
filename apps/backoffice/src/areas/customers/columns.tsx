import type { TTranslate } from '@broker/i18n/translator';
import type { TColumn } from '../../kit/DataTable';
import { SIDE_LABELS, toneOf, type useFormat } from './format';

type TFormat = ReturnType<typeof useFormat>;

/** Columns that positions, pending orders and closed deals show alike. */
export function tradeColumns(t: TTranslate, format: TFormat) {
  return {
    /** The ticket, sortable (open positions and pending orders). */
    ticket: <R extends { order_id: number | string }>(): TColumn<R> => ({
      key: 'ticket',
      header: t('admin.customers.trade.ticket'),
      render: (r) => r.order_id,
      sortValue: (r) => r.order_id,
    }),
    account: <R extends { account_id: number | string }>(): TColumn<R> => ({
      key: 'account',
      header: t('admin.customers.field.account'),
      render: (r) => `#${r.account_id}`,
    }),
    symbol: <R extends { symbol: string }>(): TColumn<R> => ({
      key: 'symbol',
      header: t('admin.customers.trade.symbol'),
      render: (r) => r.symbol,
      sortValue: (r) => r.symbol,
    }),
    side: <R extends { side: keyof typeof SIDE_LABELS }>(): TColumn<R> => ({
      key: 'side',
      header: t('admin.customers.trade.side'),
      render: (r) => (
        <span className={r.side === 'buy' ? 'kit-up' : 'kit-down'}>{t(SIDE_LABELS[r.side])}</span>
      ),
    }),
    volume: <R extends { volume: string }>(): TColumn<R> => ({
      key: 'volume',
      header: t('admin.customers.trade.volume'),
      align: 'end',
      render: (r) => format.money(r.volume),
    }),
    openPrice: <R extends { open_price: string }>(): TColumn<R> => ({
      key: 'open',
      header: t('admin.customers.trade.openPrice'),
      align: 'end',
      render: (r) => format.decimal(r.open_price),
    }),
    /** Swap charged so far (open positions) or in all (closed deals), in the account currency. */
    swap: <R extends { swap: string }>(): TColumn<R> => ({
      key: 'swap',
      header: t('admin.customers.trade.swap'),
      align: 'end',
      render: (r) => <span className={toneOf(r.swap)}>{format.signed(r.swap)}</span>,
    }),
    commission: <R extends { commission: string }>(): TColumn<R> => ({
      key: 'commission',
      header: t('admin.customers.trade.commission'),
      align: 'end',
      render: (r) => <span className={toneOf(r.commission)}>{format.signed(r.commission)}</span>,
    }),
    /** Take profit / stop loss, a dash where unset. */
    stops: <R extends { take_profit: string | null; stop_loss: string | null }>(): TColumn<R> => ({
      key: 'stops',
      header: t('admin.customers.trade.stops'),
      render: (r) =>
        `${r.take_profit ? format.decimal(r.take_profit) : '—'} / ${r.stop_loss ? format.decimal(r.stop_loss) : '—'}`,
    }),
  };
}
