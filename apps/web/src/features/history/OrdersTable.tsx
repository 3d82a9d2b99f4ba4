import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { WHEN } from './DealsTable';
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
  const price = (value: string | null) => (value === null ? '—' : formatDecimal(intl, value));
  const label = {
    type: t('history.col.type'),
    volume: t('history.col.volume'),
    price: t('history.col.price'),
    stops: t('history.col.stops'),
    placed: t('history.col.placed'),
    done: t('history.col.done'),
    status: t('history.col.status'),
  };
  return (
    <div className="hi-table-wrap">
      <table className="hi-table hi-orders" data-testid="orders">
        <thead>
          <tr>
            <th scope="col">{t('history.col.symbol')}</th>
            <th scope="col">{label.type}</th>
            <th scope="col" className="hi-end">
              {label.volume}
            </th>
            <th scope="col" className="hi-end">
              {label.price}
            </th>
            <th scope="col" className="hi-end">
              {label.stops}
            </th>
            <th scope="col" className="hi-end">
              {label.placed}
            </th>
            <th scope="col" className="hi-end">
              {label.done}
            </th>
            <th scope="col">{label.status}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const side = order.type.startsWith('sell') ? 'sell' : 'buy';
            return (
              <tr key={order.order_id} data-testid="order" data-status={order.status}>
                <th scope="row" className="hi-symbol-cell">
                  <span className="hi-symbol">{order.symbol}</span>
                  <span className="hi-ticket num">#{order.order_id}</span>
                </th>
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
                  <span className="hi-stack">
                    <span className="num">{price(order.price)}</span>
                    {order.limit_price !== null && (
                      <span className="hi-time">
                        {t('history.limitPrice', { price: formatDecimal(intl, order.limit_price) })}
                      </span>
                    )}
                  </span>
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
                    <span className="hi-stack">
                      <span className="hi-status filled">{t('history.status.filled')}</span>
                      {order.fill_price !== null && (
                        <span className="hi-time">
                          {t('history.filledAt', { price: formatDecimal(intl, order.fill_price) })}
                        </span>
                      )}
                    </span>
                  ) : (
                    <span className="hi-stack">
                      <span className="hi-status cancelled">{t('history.status.cancelled')}</span>
                      {order.cancel_reason && (
                        <span className="hi-time">
                          {CANCEL_REASONS.has(order.cancel_reason)
                            ? t(`history.cancelReason.${order.cancel_reason}`)
                            : order.cancel_reason}
                        </span>
                      )}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
