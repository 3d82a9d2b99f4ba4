import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { HistoryTable, Stacked, SymbolCell, useColumnLabels, WHEN } from './HistoryTable';
import type { TFinishedOrder } from './history-api';

const ORDER_TYPES = new Set([
  'buy_limit',
  'sell_limit',
  'buy_stop',
  'sell_stop',
  'buy_stop_limit',
  'sell_stop_limit',
]);
const CANCEL_REASONS = new Set(['client', 'insufficient_margin', 'restricted', 'account_closed']);

/**
 * Pending orders that are done: filled (at which price, into which position) or cancelled (by the
 * trader, for want of margin, by a restriction, or with the account).
 */
export function OrdersTable({ orders }: { orders: TFinishedOrder[] }) {
  const { t, intl, formatDate } = useI18n();
  const label = useColumnLabels();
  const price = (value: string | null) => (value === null ? '—' : formatDecimal(intl, value));
  return (
    <HistoryTable
      kind="orders"
      lead={label.type}
      figures={[label.volume, label.price, label.stops, label.placed, label.done]}
      last={label.status}
    >
      {orders.map((order) => {
        const side = order.type.startsWith('sell') ? 'sell' : 'buy';
        return (
          <tr key={order.order_id} data-testid="order" data-status={order.status}>
            <SymbolCell symbol={order.symbol} ticket={order.order_id} />
            <td data-label={label.type}>
              <span className={`hi-side ${side}`}>
                {ORDER_TYPES.has(order.type)
                  ? t(`history.orderType.${order.type}`)
                  : order.type === 'buy' || order.type === 'sell'
                    ? t('history.orderType.market', { side: t(`history.side.${order.type}`) })
                    : order.type}
              </span>
            </td>
            <td data-label={label.volume} className="hi-end num">
              {formatDecimal(intl, order.volume)}
            </td>
            <td data-label={label.price} className="hi-end">
              <Stacked
                under={
                  order.limit_price !== null &&
                  t('history.limitPrice', { price: formatDecimal(intl, order.limit_price) })
                }
              >
                <span className="num">{price(order.price)}</span>
              </Stacked>
            </td>
            <td data-label={label.stops} className="hi-end">
              <span className="hi-stack num">
                <span>{t('history.takeProfit', { price: price(order.take_profit) })}</span>
                <span>{t('history.stopLoss', { price: price(order.stop_loss) })}</span>
              </span>
            </td>
            <td data-label={label.placed} className="hi-end hi-time-cell">
              {formatDate(new Date(order.placed_time), WHEN)}
            </td>
            <td data-label={label.done} className="hi-end hi-time-cell">
              {formatDate(new Date(order.done_time), WHEN)}
            </td>
            <td data-label={label.status} data-testid="order-status">
              {order.status === 'filled' ? (
                <Stacked
                  under={
                    order.fill_price !== null &&
                    t('history.filledAt', { price: formatDecimal(intl, order.fill_price) })
                  }
                >
                  <span className="hi-status filled">{t('history.status.filled')}</span>
                </Stacked>
              ) : (
                <Stacked
                  under={
                    order.cancel_reason &&
                    (CANCEL_REASONS.has(order.cancel_reason)
                      ? t(`history.cancelReason.${order.cancel_reason}`)
                      : order.cancel_reason)
                  }
                >
                  <span className="hi-status cancelled">{t('history.status.cancelled')}</span>
                </Stacked>
              )}
            </td>
          </tr>
        );
      })}
    </HistoryTable>
  );
}
