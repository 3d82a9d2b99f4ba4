import {
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  LineStyle,
  type Time,
  type WhitespaceData,
} from 'lightweight-charts';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { chartTime, type TChartColors } from '../../lib/candle-chart';
import type { TCandle, TTimeframe } from '../../lib/market-stream';
import {
  INDICATOR_LINES,
  INDICATOR_SPECS,
  IndicatorRun,
  type TIndicator,
  type TIndicatorValues,
} from './indicators';

type TSeries = ISeriesApi<'Line'> | ISeriesApi<'Histogram'>;

interface TDrawnIndicator {
  indicator: TIndicator;
  run: IndicatorRun;
  pane: number;
  series: Map<string, TSeries>;
  colors: Record<string, string>;
}

/** What the legend shows of one indicator: its lines' colours and last values. */
export interface TIndicatorLegend {
  indicator: TIndicator;
  pane: number;
  lines: { name: string; color: string; value: number | null }[];
}

/** The theme colours of an indicator's lines (the theme's text tokens, AA on every theme). */
function lineColors(indicator: TIndicator, index: number, colors: TChartColors): Record<string, string> {
  const cycle = [colors.brand, colors.warning, colors.text];
  const first = cycle[index % cycle.length] as string;
  switch (indicator.kind) {
    case 'bollinger':
      return { upper: colors.text, middle: colors.warning, lower: colors.text };
    case 'macd':
      return { histogram: colors.faint, macd: colors.brand, signal: colors.warning };
    case 'stochastic':
      return { k: colors.brand, d: colors.warning, j: colors.text };
    default:
      return { value: first };
  }
}

/**
 * Draws the trader's indicators on the terminal's chart: overlays on the candles' pane, the others
 * each in a pane of their own below it. Each indicator is computed incrementally (IndicatorRun): a
 * tick updates the last point of its series, a new bar appends one, anything else sets all data.
 * Answers the legend (last values), updated with the data.
 */
export function useIndicatorSeries({
  chartRef,
  candles,
  timeframe,
  indicators,
  colors,
}: {
  chartRef: RefObject<IChartApi | null>;
  candles: readonly TCandle[];
  timeframe: TTimeframe;
  indicators: readonly TIndicator[];
  colors: TChartColors | null;
}): { legend: TIndicatorLegend[]; panes: number } {
  const drawn = useRef<TDrawnIndicator[]>([]);
  const candlesRef = useRef(candles);
  candlesRef.current = candles;
  const [legend, setLegend] = useState<TIndicatorLegend[]>([]);
  const [panes, setPanes] = useState(1);

  const legendOf = () =>
    drawn.current.map(({ indicator, run, pane, colors: lc }) => {
      const last = run.values[run.values.length - 1] ?? {};
      return {
        indicator,
        pane,
        lines: INDICATOR_LINES[indicator.kind].map((name) => ({
          name,
          color: lc[name] ?? '',
          value: last[name] ?? null,
        })),
      };
    });

  const point = (candle: TCandle, values: TIndicatorValues, name: string, item: TDrawnIndicator) => {
    const time = chartTime(candle.time, timeframe) as Time;
    const value = values[name];
    if (value === null || value === undefined || !Number.isFinite(value)) return { time } as WhitespaceData;
    if (item.indicator.kind === 'volume' || (item.indicator.kind === 'macd' && name === 'histogram')) {
      const up = item.indicator.kind === 'volume' ? Number(candle.close) >= Number(candle.open) : value >= 0;
      return { time, value, color: up ? colors?.rise : colors?.fall };
    }
    return { time, value };
  };

  const setAll = (item: TDrawnIndicator, list: readonly TCandle[]) => {
    for (const [name, series] of item.series)
      series.setData(list.map((c, i) => point(c, item.run.values[i] ?? {}, name, item)) as never);
  };

  // The series: again when the indicators, the theme or the timeframe change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: point and setAll read the same inputs
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !colors) return;
    let pane = 0;
    const made: TDrawnIndicator[] = [];
    for (const [index, indicator] of indicators.entries()) {
      const overlay = INDICATOR_SPECS[indicator.kind].overlay;
      const at = overlay ? 0 : ++pane;
      const lc = lineColors(indicator, index, colors);
      const series = new Map<string, TSeries>();
      for (const name of INDICATOR_LINES[indicator.kind]) {
        const common = {
          priceLineVisible: false,
          lastValueVisible: !overlay || indicator.kind !== 'bollinger' || name === 'middle',
          crosshairMarkerVisible: false,
        };
        const histogram = indicator.kind === 'volume' || (indicator.kind === 'macd' && name === 'histogram');
        series.set(
          name,
          histogram
            ? chart.addSeries(
                HistogramSeries,
                {
                  ...common,
                  color: lc[name],
                  priceFormat: indicator.kind === 'volume' ? { type: 'volume' } : undefined,
                },
                at,
              )
            : chart.addSeries(
                LineSeries,
                {
                  ...common,
                  color: lc[name],
                  lineWidth: indicator.kind === 'bollinger' && name !== 'middle' ? 1 : 2,
                  lineStyle:
                    indicator.kind === 'bollinger' && name !== 'middle' ? LineStyle.Dashed : LineStyle.Solid,
                },
                at,
              ),
        );
      }
      if (indicator.kind === 'rsi' || indicator.kind === 'stochastic') {
        const line = series.get(indicator.kind === 'rsi' ? 'value' : 'k');
        for (const price of [30, 70]) {
          line?.createPriceLine({
            price: indicator.kind === 'rsi' ? price : price - 10,
            color: colors.faint,
            lineStyle: LineStyle.Dotted,
            lineWidth: 1,
            axisLabelVisible: false,
            title: '',
          });
        }
      }
      const item = {
        indicator,
        run: new IndicatorRun(indicator.kind, indicator.params),
        pane: at,
        series,
        colors: lc,
      };
      item.run.sync(candlesRef.current);
      setAll(item, candlesRef.current);
      made.push(item);
    }
    // The candles keep most of the height; each indicator pane gets a share of it.
    const list = chart.panes();
    list[0]?.setStretchFactor(Math.max(2, pane * 1.2));
    for (const p of list.slice(1)) p.setStretchFactor(1);
    drawn.current = made;
    setPanes(list.length);
    setLegend(legendOf());
    return () => {
      drawn.current = [];
      // The chart is going away (the page is left): its series go with it.
      if (chartRef.current !== chart) return;
      for (const item of made) for (const series of item.series.values()) chart.removeSeries(series);
      // Panes left empty go with their series; remove any the chart kept.
      for (let i = chart.panes().length - 1; i > 0; i--)
        if (chart.panes()[i]?.getSeries().length === 0) chart.removePane(i);
    };
  }, [indicators, colors, timeframe, chartRef]);

  // The data: the last point on a tick, one more on a new bar, all of it otherwise.
  // biome-ignore lint/correctness/useExhaustiveDependencies: point and setAll read the same inputs
  useEffect(() => {
    if (drawn.current.length === 0) return;
    for (const item of drawn.current) {
      const change = item.run.sync(candles);
      if (change === 'full') {
        setAll(item, candles);
        continue;
      }
      const from = change === 'appended' ? candles.length - 2 : candles.length - 1;
      for (let i = Math.max(0, from); i < candles.length; i++)
        for (const [name, series] of item.series)
          series.update(point(candles[i] as TCandle, item.run.values[i] ?? {}, name, item) as never);
    }
    setLegend(legendOf());
  }, [candles]);

  return { legend, panes };
}
