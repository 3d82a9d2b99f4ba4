import type { MouseEventParams, Time } from 'lightweight-charts';
import { useRef, useState } from 'react';
import {
  chartTime,
  type TCandleChartData,
  type TCandleChartLook,
  useCandleChart,
} from '../../lib/candle-chart';
import { useI18n } from '../../lib/i18n';
import { numberFormat } from '../../lib/intl-cache';
import { formatDecimal } from '../../lib/market-format';

const LOOK: TCandleChartLook = {
  priceMargins: { top: 0.08, bottom: 0.24 },
  volumeTop: 0.84,
  rightOffset: 6,
  gridAlpha: 0.45,
  volumeAlpha: 0.3,
  initialView: { back: 120, ahead: 5 },
  monthNames: true,
};

/**
 * Candlestick chart with a volume histogram and a legend of the bar under the pointer (else the
 * newest). Scrolling to the left edge asks for older bars.
 */
export function CandleChart({ loadingOlder, ...data }: TCandleChartData & { loadingOlder: boolean }) {
  const { candles, digits } = data;
  const { t, intl } = useI18n();
  const containerRef = useRef<HTMLDivElement>(null);
  /** Chart time -> index in `candles`, for the legend of the hovered bar. */
  const byTime = useRef(new Map<number, number>());
  const [hoveredTime, setHoveredTime] = useState<number | null>(null);
  useCandleChart({
    containerRef,
    data,
    look: LOOK,
    setup: (chart) => {
      const onCrosshair = (param: MouseEventParams<Time>) => {
        setHoveredTime(param.time === undefined ? null : (param.time as number));
      };
      chart.subscribeCrosshairMove(onCrosshair);
      return () => chart.unsubscribeCrosshairMove(onCrosshair);
    },
    onDrawn: (change, drawn, timeframe) => {
      const last = drawn.at(-1);
      if (change === 'appended' && last)
        byTime.current.set(chartTime(last.time, timeframe), drawn.length - 1);
      else if (change !== 'last')
        byTime.current = new Map(drawn.map((c, i) => [chartTime(c.time, timeframe), i]));
    },
  });

  const hoveredIndex = hoveredTime === null ? undefined : byTime.current.get(hoveredTime);
  const legend = (hoveredIndex === undefined ? undefined : candles[hoveredIndex]) ?? candles.at(-1) ?? null;
  const fmt = (value: string) => formatDecimal(intl, value, digits);
  const trend = legend ? (Number(legend.close) >= Number(legend.open) ? 'rise' : 'fall') : '';
  const prices: [string, string][] = legend
    ? [
        [t('markets.chart.open'), legend.open],
        [t('markets.chart.high'), legend.high],
        [t('markets.chart.low'), legend.low],
        [t('markets.chart.close'), legend.close],
      ]
    : [];

  return (
    <div className="mk-chart-wrap">
      {legend && (
        <div className="mk-legend num" data-testid="chart-legend">
          {prices.map(([label, value], i) => (
            <span key={i}>
              <b>{label}</b> <span className={trend}>{fmt(value)}</span>
            </span>
          ))}
          <span>
            <b>{t('markets.chart.volume')}</b> {numberFormat(intl).format(legend.volume)}
          </span>
        </div>
      )}
      {loadingOlder && <span className="mk-chart-older spinner" aria-hidden="true" />}
      <div
        ref={containerRef}
        className="mk-chart"
        data-testid="price-chart"
        data-bars={candles.length}
        data-last-close={candles.at(-1)?.close ?? ''}
        data-last-time={candles.at(-1)?.time ?? ''}
      />
    </div>
  );
}
