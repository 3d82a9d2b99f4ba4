import { holdTime } from '@broker/domain/market/time-labels';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import type { TDeal } from './history-api';
import { sumMoney } from './history-filters';

const CLOSE_REASONS = new Set([1, 2, 3, 4, 5, 6, 7]);
export const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'medium' };

/** Price and time of one side of a trade, stacked. */
export function PriceAt({ price, time }: { price: string; time: number }) {
  const { intl, formatDate } = useI18n();
  return (
    <span className="hi-stack">
      <span className="num">{formatDecimal(intl, price)}</span>
      <span className="hi-time">{formatDate(new Date(time), WHEN)}</span>
    </span>
  );
}

/**
 * Closed positions, one row per close: symbol, side, volume, open and close, hold time (spec 5:
 * seconds below a minute, minutes below an hour, else hours), swap, commission, profit and the
 * spec 4 close reason; the last row adds up this page exactly (integer cents).
 */
export function DealsTable({ deals, currency }: { deals: TDeal[]; currency: string }) {
  const { t, intl } = useI18n();
  const money = (value: string) => formatDecimal(intl, value, 2);
  const hold = (seconds: number) => {
    const { value, unit } = holdTime(seconds);
    return new Intl.NumberFormat(intl, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
  };
  const totals = {
    swap: sumMoney(deals.map((d) => d.swap)),
    commission: sumMoney(deals.map((d) => d.commission)),
    profit: sumMoney(deals.map((d) => d.profit)),
  };
  const label = {
    side: t('history.col.side'),
    volume: t('history.col.volume'),
    open: t('history.col.open'),
    close: t('history.col.close'),
    hold: t('history.col.hold'),
    swap: t('history.col.swap'),
    commission: t('history.col.commission'),
    profit: t('history.col.profit'),
    reason: t('history.col.reason'),
  };
  return (
    <div className="hi-table-wrap">
      <table className="hi-table hi-deals" data-testid="deals">
        <thead>
          <tr>
            <th scope="col">{t('history.col.symbol')}</th>
            <th scope="col">{label.side}</th>
            <th scope="col" className="hi-end">
              {label.volume}
            </th>
            <th scope="col" className="hi-end">
              {label.open}
            </th>
            <th scope="col" className="hi-end">
              {label.close}
            </th>
            <th scope="col" className="hi-end">
              {label.hold}
            </th>
            <th scope="col" className="hi-end">
              {label.swap}
            </th>
            <th scope="col" className="hi-end">
              {label.commission}
            </th>
            <th scope="col" className="hi-end">
              {t('history.col.profitIn', { currency })}
            </th>
            <th scope="col">{label.reason}</th>
          </tr>
        </thead>
        <tbody>
          {deals.map((deal) => (
            <tr
              key={deal.id}
              data-testid="deal"
              data-position={deal.position_id}
              data-reason={deal.close_reason}
            >
              <th scope="row" className="hi-symbol-cell">
                <span className="hi-symbol">{deal.symbol}</span>
                <span className="hi-ticket num">#{deal.position_id}</span>
              </th>
              <td data-label={label.side}>
                <span className={`hi-side ${deal.side}`}>{t(`history.side.${deal.side}`)}</span>
              </td>
              <td data-label={label.volume} className="hi-end num">
                {formatDecimal(intl, deal.volume)}
              </td>
              <td data-label={label.open} className="hi-end">
                <PriceAt price={deal.open_price} time={deal.open_time} />
              </td>
              <td data-label={label.close} className="hi-end">
                <PriceAt price={deal.close_price} time={deal.close_time} />
              </td>
              <td data-label={label.hold} className="hi-end num" data-testid="deal-hold">
                {hold(deal.hold_seconds)}
              </td>
              <td data-label={label.swap} className="hi-end num">
                {money(deal.swap)}
              </td>
              <td data-label={label.commission} className="hi-end num">
                {money(deal.commission)}
              </td>
              <td
                data-label={label.profit}
                className={`hi-end num hi-profit ${changeClass(deal.profit)}`}
                data-testid="deal-profit"
              >
                {formatDecimal(intl, deal.profit, 2, { sign: true })}
              </td>
              <td data-label={label.reason} data-testid="deal-reason">
                {CLOSE_REASONS.has(deal.close_reason)
                  ? t(`history.reason.${deal.close_reason}`)
                  : t('history.reason.other', { reason: deal.close_reason })}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="deals-total">
            <th scope="row" colSpan={6} className="hi-total-label">
              {t('history.total', { count: deals.length })}
            </th>
            <td data-label={label.swap} className="hi-end num">
              {money(totals.swap)}
            </td>
            <td data-label={label.commission} className="hi-end num">
              {money(totals.commission)}
            </td>
            <td
              data-label={label.profit}
              className={`hi-end num hi-profit ${changeClass(totals.profit)}`}
              data-testid="deals-total-profit"
            >
              {formatDecimal(intl, totals.profit, 2, { sign: true })}
            </td>
            <td className="hi-total-pad" />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
