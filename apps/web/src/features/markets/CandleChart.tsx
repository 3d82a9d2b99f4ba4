import { KlineColor, type TKlineColor } from '@broker/domain/kline-color';
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import type { TCandle, TTimeframe } from '../../lib/market-stream';

interface TDrawn {
  first: number;
  last: number;
  length: number;
  timeframe: TTimeframe | null;
  colors: TThemeColors | null;
}
const NOTHING_DRAWN: TDrawn = { first: 0, last: 0, length: 0, timeframe: null, colors: null };

const INTRADAY: ReadonlySet<TTimeframe> = new Set(['M1', 'M5', 'M15', 'M30', 'H1', 'H4']);

/**
 * Chart time of a candle. lightweight-charts draws UTCTimestamp seconds as UTC, so intraday bars are
 * shifted by the reader's zone offset to show local clock times; D1 and longer keep their date.
 */
export function chartTime(timeMs: number, timeframe: TTimeframe): UTCTimestamp {
  const offset = INTRADAY.has(timeframe) ? -new Date(timeMs).getTimezoneOffset() * 60_000 : 0;
  return Math.floor((timeMs + offset) / 1000) as UTCTimestamp;
}

interface TThemeColors {
  background: string;
  text: string;
  faint: string;
  border: string;
  grid: string;
  rise: string;
  fall: string;
  crosshair: string;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

/** Chart colours from the theme's CSS variables; rise and fall follow the kline colour. */
function themeColors(element: HTMLElement, klineColor: TKlineColor): TThemeColors {
  const style = getComputedStyle(element);
  const up = cssVar(style, '--up', '#16b979');
  const down = cssVar(style, '--down', '#f0475c');
  return {
    background: cssVar(style, '--bg-elevated', '#111d3d'),
    text: cssVar(style, '--text-muted', '#9aa8cc'),
    faint: cssVar(style, '--text-faint', '#6d7ba3'),
    border: cssVar(style, '--border', '#23345f'),
    grid: cssVar(style, '--border', '#23345f'),
    rise: klineColor === KlineColor.RED_UP ? down : up,
    fall: klineColor === KlineColor.RED_UP ? up : down,
    crosshair: cssVar(style, '--text-faint', '#6d7ba3'),
  };
}

/** "#16b979" at 40 % -> "rgba(22, 185, 121, 0.4)"; other colour syntaxes are returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return color;
  const n = Number.parseInt(hex, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/**
 * Candlestick chart with a volume histogram. History arrives as `candles`: a changed last bar is
 * updated in place, anything else (new symbol, older bars in front) replaces the data while keeping
 * the visible range. Scrolling to the left edge asks for older bars.
 */
export function CandleChart({
  candles,
  digits,
  timeframe,
  klineColor,
  onNeedOlder,
  loadingOlder,
}: {
  candles: TCandle[];
  digits: number;
  timeframe: TTimeframe;
  klineColor: TKlineColor;
  onNeedOlder(): void;
  loadingOlder: boolean;
}) {
  const { t, intl } = useI18n();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const candleSeriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeSeriesRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const drawn = useRef<TDrawn>(NOTHING_DRAWN);
  const byTime = useRef(new Map<number, number>());
  const candlesRef = useRef(candles);
  candlesRef.current = candles;
  const needOlderRef = useRef(onNeedOlder);
  needOlderRef.current = onNeedOlder;
  const [colors, setColors] = useState<TThemeColors | null>(null);
  const [hoveredTime, setHoveredTime] = useState<number | null>(null);

  // The chart itself, once per mount.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        fontFamily: getComputedStyle(container).fontFamily,
        fontSize: 11,
        attributionLogo: true,
      },
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.24 } },
      timeScale: { rightOffset: 6, barSpacing: 7, minBarSpacing: 1.5 },
      handleScale: { axisPressedMouseMove: { time: true, price: true } },
    });
    const candleSeries = chart.addSeries(CandlestickSeries, { borderVisible: false });
    const volumeSeries = chart.addSeries(HistogramSeries, {
      priceFormat: { type: 'volume' },
      priceScaleId: '',
      lastValueVisible: false,
      priceLineVisible: false,
    });
    volumeSeries.priceScale().applyOptions({ scaleMargins: { top: 0.84, bottom: 0 } });
    chartRef.current = chart;
    candleSeriesRef.current = candleSeries;
    volumeSeriesRef.current = volumeSeries;

    const onRange = (range: { from: number; to: number } | null) => {
      if (range && range.from < 10 && candlesRef.current.length > 0) needOlderRef.current();
    };
    chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);
    const onCrosshair = (param: MouseEventParams<Time>) => {
      setHoveredTime(param.time === undefined ? null : (param.time as number));
    };
    chart.subscribeCrosshairMove(onCrosshair);
    return () => {
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
      chart.unsubscribeCrosshairMove(onCrosshair);
      chart.remove();
      chartRef.current = null;
      candleSeriesRef.current = null;
      volumeSeriesRef.current = null;
      drawn.current = NOTHING_DRAWN;
    };
  }, []);

  // Colours: the theme's variables and the kline colour; again when <html data-theme> changes.
  useEffect(() => {
    const container = containerRef.current;
    const chart = chartRef.current;
    if (!container || !chart) return;
    const apply = () => {
      const colors = themeColors(container, klineColor);
      setColors(colors);
      chart.applyOptions({
        layout: { textColor: colors.text },
        grid: {
          vertLines: { color: withAlpha(colors.grid, 0.45) },
          horzLines: { color: withAlpha(colors.grid, 0.45) },
        },
        rightPriceScale: { borderColor: colors.border },
        timeScale: { borderColor: colors.border },
        crosshair: {
          vertLine: { color: colors.crosshair, labelBackgroundColor: colors.border },
          horzLine: { color: colors.crosshair, labelBackgroundColor: colors.border },
        },
      });
      candleSeriesRef.current?.applyOptions({
        upColor: colors.rise,
        downColor: colors.fall,
        wickUpColor: colors.rise,
        wickDownColor: colors.fall,
      });
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, [klineColor]);

  // Number and time formats of the reader's language.
  useEffect(() => {
    const chart = chartRef.current;
    const series = candleSeriesRef.current;
    if (!chart || !series) return;
    const intraday = INTRADAY.has(timeframe);
    // Chart times are already local clock times (intraday) or dates: format them as UTC.
    const date = (seconds: number, options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat(intl, { timeZone: 'UTC', ...options }).format(seconds * 1000);
    chart.applyOptions({
      localization: {
        locale: intl,
        priceFormatter: (price: number) => formatDecimal(intl, price.toFixed(digits), digits),
        timeFormatter: (time: Time) =>
          date(
            time as number,
            intraday
              ? { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }
              : timeframe === 'MN'
                ? { year: 'numeric', month: 'long' }
                : { dateStyle: 'medium' },
          ),
      },
      timeScale: {
        timeVisible: intraday,
        secondsVisible: false,
        tickMarkFormatter: (time: Time, type: TickMarkType) => {
          const seconds = time as number;
          switch (type) {
            case TickMarkType.Year:
              return date(seconds, { year: 'numeric' });
            case TickMarkType.Month:
              return date(seconds, { month: 'short' });
            case TickMarkType.DayOfMonth:
              return date(seconds, { day: 'numeric', month: 'short' });
            default:
              return date(seconds, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
          }
        },
      },
    });
    series.applyOptions({
      priceFormat: { type: 'price', precision: digits, minMove: 1 / 10 ** digits },
    });
  }, [intl, digits, timeframe]);

  // Data: full redraw or an in-place update of the last bar.
  useEffect(() => {
    const chart = chartRef.current;
    const candleSeries = candleSeriesRef.current;
    const volumeSeries = volumeSeriesRef.current;
    if (!chart || !candleSeries || !volumeSeries || !colors) return;
    const toBar = (c: TCandle) => ({
      time: chartTime(c.time, timeframe),
      open: Number(c.open),
      high: Number(c.high),
      low: Number(c.low),
      close: Number(c.close),
    });
    const toVolume = (c: TCandle) => ({
      time: chartTime(c.time, timeframe),
      value: c.volume,
      color: withAlpha(Number(c.close) >= Number(c.open) ? colors.rise : colors.fall, 0.3),
    });
    const first = candles[0];
    const last = candles.at(-1);
    const previous = drawn.current;
    if (!first || !last) {
      candleSeries.setData([]);
      volumeSeries.setData([]);
      byTime.current = new Map();
      drawn.current = { ...NOTHING_DRAWN, timeframe, colors };
      return;
    }
    // Volume bars take their candle's colour: new colours redraw everything.
    const sameStart =
      previous.colors === colors && previous.timeframe === timeframe && previous.first === first.time;
    const grewAtEnd =
      sameStart && (candles.length === previous.length || candles.length === previous.length + 1);
    if (grewAtEnd && last.time >= previous.last) {
      candleSeries.update(toBar(last));
      volumeSeries.update(toVolume(last));
      if (candles.length !== previous.length)
        byTime.current.set(chartTime(last.time, timeframe), candles.length - 1);
    } else {
      const timeScale = chart.timeScale();
      const range = timeScale.getVisibleLogicalRange();
      const prepended =
        previous.timeframe === timeframe && previous.length > 0 && first.time < previous.first
          ? candles.findIndex((c) => c.time === previous.first)
          : -1;
      candleSeries.setData(candles.map(toBar));
      volumeSeries.setData(candles.map(toVolume));
      byTime.current = new Map(candles.map((c, i) => [chartTime(c.time, timeframe), i]));
      // Older bars in front: keep looking at the same bars.
      if (prepended > 0 && range) {
        timeScale.setVisibleLogicalRange({ from: range.from + prepended, to: range.to + prepended });
      } else if (previous.timeframe !== timeframe || previous.length === 0) {
        timeScale.setVisibleLogicalRange({ from: candles.length - 120, to: candles.length + 5 });
      }
    }
    drawn.current = { first: first.time, last: last.time, length: candles.length, timeframe, colors };
  }, [candles, timeframe, colors]);

  const hoveredIndex = hoveredTime === null ? undefined : byTime.current.get(hoveredTime);
  const legend = (hoveredIndex === undefined ? undefined : candles[hoveredIndex]) ?? candles.at(-1) ?? null;
  const fmt = (value: string) => formatDecimal(intl, value, digits);
  const trend = legend ? (Number(legend.close) >= Number(legend.open) ? 'rise' : 'fall') : '';

  return (
    <div className="mk-chart-wrap">
      {legend && (
        <div className="mk-legend num" data-testid="chart-legend">
          <span>
            <b>{t('markets.chart.open')}</b> <span className={trend}>{fmt(legend.open)}</span>
          </span>
          <span>
            <b>{t('markets.chart.high')}</b> <span className={trend}>{fmt(legend.high)}</span>
          </span>
          <span>
            <b>{t('markets.chart.low')}</b> <span className={trend}>{fmt(legend.low)}</span>
          </span>
          <span>
            <b>{t('markets.chart.close')}</b> <span className={trend}>{fmt(legend.close)}</span>
          </span>
          <span>
            <b>{t('markets.chart.volume')}</b> {new Intl.NumberFormat(intl).format(legend.volume)}
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
