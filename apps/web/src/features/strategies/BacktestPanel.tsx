import { useState } from 'react';
import { CurveChart } from '../../components/CurveChart';
import { Figure, Signed } from '../../components/Figure';
import { dateText } from '../../lib/date-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { moneyText } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useCall } from '../../lib/use-call';
import { AskPanel, Segments } from './parts';
import {
  BACKTEST_DAYS,
  cachedBacktest,
  type TBacktest,
  type TBacktestDays,
  useDebouncedAsk,
} from './strategy-api';
import type { TStrategyRequest } from './strategy-form';

/** How long the inputs rest before the backtest runs again (it replays weeks of candles). */
const BACKTEST_DEBOUNCE_MS = 700;

/** The equity curve's points as the curve chart takes them. */
export const curvePoints = (backtest: TBacktest) =>
  backtest.curve.map((point) => ({ day: point.day, value: point.equity }));

/**
 * A backtest's result: the return and profit first, then trades, drawdown, fees, the grid profit and,
 * when they came, the margin-call and stop-out prices; `compact` for a template card.
 */
export function BacktestFigures({
  backtest,
  currency,
  compact = false,
}: {
  backtest: TBacktest;
  currency: string;
  compact?: boolean;
}) {
  const { t, intl } = useI18n();
  const count = (value: number) => new Intl.NumberFormat(intl).format(value);
  const stopped = backtest.state === 'stopped_closed' || backtest.state === 'stopped_open';
  return (
    <div className="sb-backtest-figures" data-testid="backtest-figures">
      <div className="sb-return">
        <Signed value={backtest.returnPercent} testId="backtest-return">
          {percentText(intl, backtest.returnPercent, { sign: true })}
        </Signed>
        <span className="sb-return-label">{t('strategy.backtest.returnIn', { days: backtest.days })}</span>
      </div>
      <dl className={compact ? 'ui-figures sb-figures-3' : 'ui-figures sb-figures-2'}>
        {!compact && (
          <Figure label={t('strategy.backtest.profit')}>
            <Signed value={backtest.profit} testId="backtest-profit">
              {moneyText(intl, backtest.profit, currency, true)}
            </Signed>
          </Figure>
        )}
        <Figure label={t('strategy.backtest.drawdown')} testId="backtest-drawdown">
          {percentText(intl, backtest.maxDrawdownPercent)}
        </Figure>
        <Figure label={t('strategy.backtest.trades')} testId="backtest-trades">
          {count(backtest.closedTrades)}
        </Figure>
        {compact && (
          <Figure label={t('strategy.backtest.profit')}>
            <Signed value={backtest.profit}>{moneyText(intl, backtest.profit, currency, true)}</Signed>
          </Figure>
        )}
        {!compact && (
          <>
            <Figure label={t('strategy.field.realized')}>
              <Signed value={backtest.realizedProfit}>
                {moneyText(intl, backtest.realizedProfit, currency, true)}
              </Signed>
            </Figure>
            <Figure label={t('strategy.backtest.fees')} testId="backtest-fees">
              {moneyText(intl, backtest.fees, currency)}
            </Figure>
            {backtest.marginCallPrice || backtest.stopOutPrice ? (
              <>
                <Figure label={t('strategy.worst.marginCall')} testId="backtest-margin-call">
                  {backtest.marginCallPrice
                    ? formatDecimal(intl, backtest.marginCallPrice)
                    : t('strategy.backtest.notHit')}
                </Figure>
                <Figure label={t('strategy.worst.stopOut')} testId="backtest-stop-out">
                  {backtest.stopOutPrice
                    ? formatDecimal(intl, backtest.stopOutPrice)
                    : t('strategy.backtest.notHit')}
                </Figure>
              </>
            ) : (
              <Figure label={t('strategy.backtest.marginEvents')} testId="backtest-margin-call">
                {t('strategy.backtest.notHit')}
              </Figure>
            )}
          </>
        )}
      </dl>
      {stopped && backtest.stopReason && (
        <p className="sb-note" data-tone="warning" data-testid="backtest-stopped">
          {t('strategy.backtest.stopped', {
            reason: t(`strategy.stopReason.${backtest.stopReason}`),
          })}
        </p>
      )}
    </div>
  );
}

/**
 * The create form's backtest (issue 19, 5a): the inputs replayed by the live engine code over the
 * symbol's stored candles of the last 7, 30 or 90 days, asked 700 ms after they rest (only the newest
 * answer kept, answers kept ten minutes), with the equity curve of its daily points.
 */
export function BacktestPanel({
  step,
  accountId,
  request,
  currency,
}: {
  step: number;
  accountId: number | null;
  request: TStrategyRequest | null;
  currency: string;
}) {
  const { t, intl } = useI18n();
  const call = useCall();
  const [days, setDays] = useState<TBacktestDays>(30);
  const input = accountId !== null && request ? { account_id: accountId, ...request, days } : null;
  const state = useDebouncedAsk(
    input ? JSON.stringify(input) : null,
    (signal) => {
      const current = input as NonNullable<typeof input>;
      return cachedBacktest(current, (asked) => call('strategybacktest', asked, signal));
    },
    BACKTEST_DEBOUNCE_MS,
  );
  return (
    <AskPanel
      id="sb-backtest-title"
      step={step}
      title={t('strategy.backtest.title')}
      aside={
        <Segments<TBacktestDays>
          label={t('strategy.backtest.period')}
          value={days}
          options={BACKTEST_DAYS.map((value) => ({
            value,
            label: t('strategy.backtest.days', { days: value }),
          }))}
          onChange={setDays}
          testId="backtest-days"
        />
      }
      state={state}
      idle={t('strategy.backtest.idle')}
      className="sb-area-backtest"
      testId="strategy-backtest"
    >
      {(data) => (
        <>
          <BacktestFigures backtest={data} currency={currency} />
          <CurveChart
            points={curvePoints(data)}
            label={t('strategy.backtest.curve')}
            height={120}
            testId="backtest-curve"
          />
          <p className="ui-hint" data-testid="backtest-basis">
            {t('strategy.backtest.basis', {
              bars: new Intl.NumberFormat(intl).format(data.bars),
              timeframe: data.timeframe,
              from: dateText(intl, data.from),
            })}
          </p>
        </>
      )}
    </AskPanel>
  );
}
