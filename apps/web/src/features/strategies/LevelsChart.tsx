import { type AutoscaleInfo, type IPriceLine, type ISeriesApi, LineStyle } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { type TCandleChartLook, type TChartColors, useCandleChart, withAlpha } from '../../lib/candle-chart';
import { useI18n } from '../../lib/i18n';
import { useKlineColor } from '../../lib/market-format';
import { type TTimeframe, useCandles } from '../../lib/market-stream';

/**
 * What a line on a bot's chart shows: a grid level or one of the range's edges, a martingale round's
 * first order, an add or its average price, the trigger, the take-profit and stop-loss, and the worst
 * case's margin-call and stop-out prices.
 */
export type TLineKind =
  | 'level'
  | 'edge'
  | 'entry'
  | 'add'
  | 'average'
  | 'trigger'
  | 'takeProfit'
  | 'stopLoss'
  | 'marginCall'
  | 'stopOut';

export interface TLevelLine {
  id: string;
  kind: TLineKind;
  price: string;
  /** The label on the price scale (levels have none: there can be 200). */
  title: string;
}

/** One entry of the legend under the chart: a kind of line, its name and its price or prices. */
export interface TLegendItem {
  kind: TLineKind;
  label: string;
  value: string;
}

const LOOK: TCandleChartLook = {
  priceMargins: { top: 0.08, bottom: 0.12 },
  volumeTop: 0.9,
  rightOffset: 8,
  gridAlpha: 0.35,
  volumeAlpha: 0.25,
  initialView: { back: 140, ahead: 8 },
  monthNames: true,
};

const TIMEFRAMES: readonly TTimeframe[] = ['M15', 'H1', 'H4', 'D1'];

/** Lines the price scale is fitted to; the worst case's prices may lie far away and show when in view. */
const FITTED: ReadonlySet<TLineKind> = new Set([
  'level',
  'edge',
  'entry',
  'add',
  'average',
  'trigger',
  'takeProfit',
  'stopLoss',
]);

function lineColor(kind: TLineKind, colors: TChartColors): string {
  switch (kind) {
    case 'level':
      return withAlpha(colors.brand, 0.5);
    case 'edge':
    case 'entry':
      return colors.brand;
    case 'add':
      return withAlpha(colors.brand, 0.8);
    case 'average':
      return colors.text;
    case 'trigger':
    case 'marginCall':
      return colors.warning;
    case 'takeProfit':
      return colors.rise;
    case 'stopLoss':
    case 'stopOut':
      return colors.fall;
  }
}

function lineStyle(kind: TLineKind): { lineStyle: LineStyle; lineWidth: 1 | 2 } {
  switch (kind) {
    case 'level':
      return { lineStyle: LineStyle.Solid, lineWidth: 1 };
    case 'edge':
    case 'entry':
      return { lineStyle: LineStyle.Solid, lineWidth: 2 };
    case 'add':
    case 'trigger':
    case 'takeProfit':
    case 'stopLoss':
      return { lineStyle: LineStyle.Dashed, lineWidth: 1 };
    case 'average':
      return { lineStyle: LineStyle.Dotted, lineWidth: 1 };
    case 'marginCall':
    case 'stopOut':
      return { lineStyle: LineStyle.Dotted, lineWidth: 2 };
  }
}

/**
 * The symbol's candles (the terminal's chart, lib/candle-chart.ts) with a bot's lines over them,
 * redrawn as `lines` change (the create form's live preview, a running bot's levels). The price scale
 * fits the candles and the bot's own lines; a legend under the chart names each kind of line with its
 * price, for who cannot see the chart, and `summary` describes it to a screen reader.
 */
export function LevelsChart({
  symbol,
  lines,
  legend,
  summary,
  testId = 'levels-chart',
}: {
  symbol: string;
  lines: readonly TLevelLine[];
  legend: readonly TLegendItem[];
  summary: string;
  testId?: string;
}) {
  const { t, lang } = useI18n();
  const [timeframe, setTimeframe] = useState<TTimeframe>('H1');
  const candles = useCandles(symbol, timeframe, lang);
  const klineColor = useKlineColor();
  const containerRef = useRef<HTMLDivElement>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const drawn = useRef(new Map<string, IPriceLine>());
  const linesRef = useRef(lines);
  linesRef.current = lines;
  const colors = useCandleChart({
    containerRef,
    data: {
      candles: candles.candles,
      digits: candles.digits ?? 2,
      timeframe,
      klineColor,
      onNeedOlder: candles.loadOlder,
    },
    look: LOOK,
    setup: (_chart, series) => {
      seriesRef.current = series;
      series.applyOptions({
        autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
          const info = original();
          const prices = linesRef.current.filter((l) => FITTED.has(l.kind)).map((l) => Number(l.price));
          if (!info?.priceRange || prices.length === 0) return info;
          return {
            ...info,
            priceRange: {
              minValue: Math.min(info.priceRange.minValue, ...prices),
              maxValue: Math.max(info.priceRange.maxValue, ...prices),
            },
          };
        },
      });
      const map = drawn.current;
      return () => {
        seriesRef.current = null;
        map.clear();
      };
    },
  });

  // The bot's lines: added, moved and removed as they change.
  useEffect(() => {
    const series = seriesRef.current;
    if (!series || !colors) return;
    const map = drawn.current;
    const wanted = new Set(lines.map((line) => line.id));
    for (const [id, handle] of map) {
      if (!wanted.has(id)) {
        series.removePriceLine(handle);
        map.delete(id);
      }
    }
    for (const line of lines) {
      const options = {
        price: Number(line.price),
        title: line.title,
        color: lineColor(line.kind, colors),
        axisLabelVisible: line.kind !== 'level',
        axisLabelColor: lineColor(line.kind, colors),
        ...lineStyle(line.kind),
      };
      const existing = map.get(line.id);
      if (existing) existing.applyOptions(options);
      else map.set(line.id, series.createPriceLine(options));
    }
    // The scale fits the new lines.
    series.priceScale().applyOptions({ autoScale: true });
  }, [lines, colors]);

  return (
    <div className="sb-chart" data-testid={testId} data-lines={lines.length}>
      <div className="sb-chart-bar">
        <span className="sb-chart-symbol">{symbol}</span>
        <div className="sb-timeframes" role="group" aria-label={t('markets.chart.timeframe')}>
          {TIMEFRAMES.map((tf) => (
            <button
              key={tf}
              type="button"
              className="sb-tf"
              aria-pressed={tf === timeframe}
              onClick={() => setTimeframe(tf)}
            >
              {tf}
            </button>
          ))}
        </div>
      </div>
      <div className="sb-chart-body">
        <p className="sr-only">{summary}</p>
        <div ref={containerRef} className="sb-chart-canvas" data-bars={candles.candles.length} />
        {candles.status === 'loading' && (
          <div className="sb-chart-overlay" aria-live="polite">
            <span className="spinner" />
            <span>{t('markets.chart.loading')}</span>
          </div>
        )}
        {candles.status === 'error' && (
          <div className="sb-chart-overlay">
            <span>{t('markets.chart.error')}</span>
            <button type="button" className="btn btn-secondary btn-sm" onClick={candles.reload}>
              {t('common.retry')}
            </button>
          </div>
        )}
      </div>
      {legend.length > 0 && (
        <ul className="sb-legend" data-testid={`${testId}-legend`}>
          {legend.map((item) => (
            <li key={`${item.kind}-${item.label}`} data-kind={item.kind}>
              <span
                className="sb-swatch"
                data-style={lineStyle(item.kind).lineStyle === LineStyle.Solid ? 'solid' : 'dashed'}
                style={colors ? { borderColor: lineColor(item.kind, colors) } : undefined}
                aria-hidden="true"
              />
              <span className="sb-legend-label">{item.label}</span>
              <span className="num sb-legend-value">{item.value}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
