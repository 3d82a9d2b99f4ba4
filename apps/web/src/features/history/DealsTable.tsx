import { holdTime } from '@broker/domain/market/time-labels';
import { useI18n } from '../../lib/i18n';
import { changeClass, formatDecimal } from '../../lib/market-format';
import { HistoryTable, Stacked, SymbolCell, useColumnLabels, WHEN } from './HistoryTable';
import type { TDeal } from './history-api';
import { sumMoney } from './history-filters';

const CLOSE_REASONS = new Set([1, 2, 3, 4, 5, 6, 7]);

/** Price and time of one side of a trade, stacked. */
function PriceAt({ price, time }: { price: string; time: number }) {
  const { intl, formatDate } = useI18n();
  return (
    <Stacked under={formatDate(new Date(time), WHEN)}>
      <span className="num">{formatDecimal(intl, price)}</span>
    </Stacked>
  );
}

/** Swap, commission and profit cells of a deal or of the page's total. */
function MoneyCells({
  swap,
  commission,
  profit,
  testId,
}: Pick<TDeal, 'swap' | 'commission' | 'profit'> & { testId: string }) {
  const { intl } = useI18n();
  const label = useColumnLabels();
  const money = (value: string) => formatDecimal(intl, value, 2);
  return (
    <>
      <td data-label={label.swap} className="hi-end num">
        {money(swap)}
      </td>
      <td data-label={label.commission} className="hi-end num">
        {money(commission)}
      </td>
      <td
        data-label={label.profit}
        className={`hi-end num hi-profit ${changeClass(profit)}`}
        data-testid={testId}
      >
        {formatDecimal(intl, profit, 2, { sign: true })}
      </td>
    </>
  );
}

/**
 * Closed positions, one row per close: symbol, side, volume, open and close, hold time (spec 5:
 * seconds below a minute, minutes below an hour, else hours), swap, commission, profit and the
 * spec 4 close reason; the last row adds up this page exactly (integer cents).
 */
export function DealsTable({ deals, currency }: { deals: TDeal[]; currency: string }) {
  const { t, intl } = useI18n();
  const label = useColumnLabels();
  const hold = (seconds: number) => {
    const { value, unit } = holdTime(seconds);
    return new Intl.NumberFormat(intl, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
  };
  const totals = {
    swap: sumMoney(deals.map((d) => d.swap)),
    commission: sumMoney(deals.map((d) => d.commission)),
    profit: sumMoney(deals.map((d) => d.profit)),
  };
  return (
    <HistoryTable
      kind="deals"
      lead={label.side}
      figures={[
        label.volume,
        label.open,
        label.close,
        label.hold,
        label.swap,
        label.commission,
        t('history.col.profitIn', { currency }),
      ]}
      last={label.reason}
      foot={
        <tr data-testid="deals-total">
          <th scope="row" colSpan={6} className="hi-total-label">
            {t('history.total', { count: deals.length })}
          </th>
          <MoneyCells {...totals} testId="deals-total-profit" />
          <td className="hi-total-pad" />
        </tr>
      }
    >
      {deals.map((deal) => (
        <tr key={deal.id} data-testid="deal" data-position={deal.position_id} data-reason={deal.close_reason}>
          <SymbolCell symbol={deal.symbol} ticket={deal.position_id} />
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
          <MoneyCells
            swap={deal.swap}
            commission={deal.commission}
            profit={deal.profit}
            testId="deal-profit"
          />
          <td data-label={label.reason} className="hi-wrap" data-testid="deal-reason">
            <span className="hi-wrap-text">
              {CLOSE_REASONS.has(deal.close_reason)
                ? t(`history.reason.${deal.close_reason}`)
                : t('history.reason.other', { reason: deal.close_reason })}
            </span>
          </td>
        </tr>
      ))}
    </HistoryTable>
  );
}
