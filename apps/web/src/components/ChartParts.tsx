import { TIMEFRAMES } from '../lib/candle-chart';
import { useI18n } from '../lib/i18n';
import type { TCandlesView, TTimeframe } from '../lib/market-stream';

/** The class prefix of the screen's stylesheet: the symbol page's (`mk`) or the terminal's (`tr`). */
type TScope = 'mk' | 'tr';

/** The row of timeframe buttons over a chart; the chosen one is pressed. */
export function TimeframeButtons({
  scope,
  timeframe,
  onTimeframe,
}: {
  scope: TScope;
  timeframe: TTimeframe;
  onTimeframe(timeframe: TTimeframe): void;
}) {
  const { t } = useI18n();
  return (
    <div className={`${scope}-timeframes`} role="group" aria-label={t('markets.chart.timeframe')}>
      {TIMEFRAMES.map((tf) => (
        <button
          key={tf}
          type="button"
          className={`${scope}-tf${tf === timeframe ? ' active' : ''}`}
          aria-pressed={tf === timeframe}
          data-tf={tf}
          onClick={() => onTimeframe(tf)}
        >
          {tf}
        </button>
      ))}
    </div>
  );
}

/** Over the chart while its history loads, or failed to load (with a retry). */
export function ChartOverlay({
  scope,
  candles,
}: {
  scope: TScope;
  candles: Pick<TCandlesView, 'status' | 'reload'>;
}) {
  const { t } = useI18n();
  if (candles.status === 'loading')
    return (
      <div className={`${scope}-chart-overlay`} aria-live="polite">
        <span className="spinner" />
        <span>{t('markets.chart.loading')}</span>
      </div>
    );
  if (candles.status === 'error')
    return (
      <div className={`${scope}-chart-overlay`}>
        <span>{t('markets.chart.error')}</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={candles.reload}>
          {t('common.retry')}
        </button>
      </div>
    );
  return null;
}
