import { KlineColor, type TKlineColor } from '@broker/domain/kline-color';
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useI18n } from './i18n';
import { dateFormat } from './intl-cache';
import { formatDecimal } from './market-format';
import type { TCandle, TTimeframe } from './market-stream';

/** The timeframes a chart offers, shortest first. */
export const TIMEFRAMES: readonly TTimeframe[] = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN'];

const INTRADAY: ReadonlySet<TTimeframe> = new Set(['M1', 'M5', 'M15', 'M30', 'H1', 'H4']);

/**
 * Chart time of a candle. lightweight-charts draws UTCTimestamp seconds as UTC, so intraday bars are
 * shifted by the reader's zone offset to show local clock times; D1 and longer keep their date.
 */
export function chartTime(timeMs: number, timeframe: TTimeframe): UTCTimestamp {
  const offset = INTRADAY.has(timeframe) ? -new Date(timeMs).getTimezoneOffset() * 60_000 : 0;
  return Math.floor((timeMs + offset) / 1000) as UTCTimestamp;
}

/** "#16b979" at 40 % -> "rgba(22, 185, 121, 0.4)"; other colour syntaxes are returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return color;
  const n = Number.parseInt(hex, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

export interface TChartColors {
  text: string;
  faint: string;
  border: string;
  grid: string;
  crosshair: string;
  rise: string;
  fall: string;
  brand: string;
  warning: string;
}

/** Chart colours from the theme's CSS variables; rise and fall follow the kline colour. */
function chartColors(element: HTMLElement, klineColor: TKlineColor): TChartColors {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const up = v('--up', '#16b979');
  const down = v('--down', '#f0475c');
  const redUp = klineColor === KlineColor.RED_UP;
  return {
    text: v('--text-muted', '#9aa8cc'),
    faint: v('--text-faint', '#6d7ba3'),
    border: v('--border', '#23345f'),
    grid: v('--border', '#23345f'),
    crosshair: v('--text-faint', '#6d7ba3'),
    rise: redUp ? down : up,
    fall: redUp ? up : down,
    brand: v('--brand', '#2f6bff'),
    warning: v('--warning', '#f5a524'),
  };
}

/** The font size of the chart's scales (px). */
const SCALE_FONT_SIZE = 11;

/**
 * Whether a time label centred `x` px from the chart's left edge would be cut by it: the chart draws
 * each label centred on its bar and cuts what falls left of the edge ("Nov 26" read "v 26"). Such a
 * label is left out (the next one shows where the axis is); 2 px spare the glyphs' own bearing.
 */
export function cutAtLeftEdge(x: number | null, labelWidth: number): boolean {
  return x !== null && x < labelWidth / 2 + 2;
}

let measureContext: CanvasRenderingContext2D | null | undefined;
/** The width of `text` in a canvas font, or null where there is no canvas (the server render). */
function textWidth(text: string, font: string): number | null {
  measureContext ??=
    typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!measureContext) return null;
  measureContext.font = font;
  return measureContext.measureText(text).width;
}

/**
 * The price axis's width once the bars are drawn, from the last close as the axis writes it (the
 * chart library's own sum: border, tick, inner and outer padding, label offset; 2 px spare). Its
 * first draw comes before its bars (the chart is configured in the next commit) and sized the axis
 * for no labels: the draw with the bars then resized every canvas of the chart again. Bars of
 * another symbol or timeframe set it again, so the axis fits their prices, not the first ones.
 */
function priceAxisWidth(
  candles: readonly TCandle[],
  { intl, digits }: { intl: string; digits: number },
  fontFamily: string,
): number {
  const last = candles.at(-1);
  if (!last) return 0;
  const text = textWidth(formatDecimal(intl, last.close, digits), `${SCALE_FONT_SIZE}px ${fontFamily}`);
  if (text === null) return 0;
  const width = Math.ceil(1 + 5 + 2 * ((SCALE_FONT_SIZE / 12) * 5) + 5 + text + 2);
  return width + (width % 2);
}

/** The width of a time label as the chart draws it (bold, the widest it may be). */
function labelWidth(label: string, fontFamily: string): number {
  return textWidth(label, `bold ${SCALE_FONT_SIZE}px ${fontFamily}`) ?? label.length * SCALE_FONT_SIZE;
}

/** How one screen's chart looks: what differs between the symbol page and the terminal. */
export interface TCandleChartLook {
  /** Room above and below the candles, as shares of the height (the volume bars sit below). */
  priceMargins: { top: number; bottom: number };
  /** Where the volume bars start, as a share of the height from the top. */
  volumeTop: number;
  /** Empty bars kept right of the newest one. */
  rightOffset: number;
  gridAlpha: number;
  volumeAlpha: number;
  /** The bars in view when a timeframe is first drawn: this many back from the end, this many ahead. */
  initialView: { back: number; ahead: number };
  /** Monthly bars read "March 2026" rather than a day's date. */
  monthNames: boolean;
}

/** What a candle chart shows, from its screen. */
export interface TCandleChartData {
  candles: TCandle[];
  digits: number;
  timeframe: TTimeframe;
  klineColor: TKlineColor;
  onNeedOlder(): void;
  /** Hides the chart's own volume bars (the terminal's volume indicator draws them in a pane). */
  hideVolume?: boolean | undefined;
  /**
   * The first bars are on their way: the chart is made when they arrive (or the load ends without
   * them), so its first full draw has them, instead of a draw of empty axes and a second one.
   */
  loading?: boolean | undefined;
}

/** How the last redraw changed the bars: emptied, the last one updated, one appended, or all replaced. */
export type TCandleChange = 'cleared' | 'last' | 'appended' | 'replaced';

interface TDrawn {
  first: number;
  last: number;
  length: number;
  timeframe: TTimeframe | null;
  colors: TChartColors | null;
}
const NOTHING_DRAWN: TDrawn = { first: 0, last: 0, length: 0, timeframe: null, colors: null };

/**
 * A candlestick chart with a volume histogram in `containerRef`, in the theme's and the kline
 * colour's colours (again when <html data-theme> changes) and the reader's number and time formats.
 * History arrives as `candles`: a changed or added last bar is updated in place, anything else (new
 * symbol, older bars in front) replaces the data while keeping the visible range. Scrolling to the
 * left edge asks for older bars. `setup` adds a screen's own parts once the chart exists and returns
 * their cleanup; `onDrawn` hears how each redraw changed the bars. Returns the colours drawn with.
 */
export function useCandleChart({
  containerRef,
  data: { candles, digits, timeframe, klineColor, onNeedOlder, hideVolume = false, loading = false },
  look,
  setup,
  onDrawn,
}: {
  containerRef: RefObject<HTMLDivElement | null>;
  data: TCandleChartData;
  look: TCandleChartLook;
  setup?(chart: IChartApi, series: ISeriesApi<'Candlestick'>): () => void;
  onDrawn?(change: TCandleChange, candles: TCandle[], timeframe: TTimeframe): void;
}): TChartColors | null {
  const { intl } = useI18n();
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const drawn = useRef<TDrawn>(NOTHING_DRAWN);
  const candlesRef = useRef(candles);
  candlesRef.current = candles;
  const needOlderRef = useRef(onNeedOlder);
  needOlderRef.current = onNeedOlder;
  const setupRef = useRef(setup);
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;
  const lookRef = useRef(look);
  lookRef.current = look;
  const formatRef = useRef({ intl, digits });
  formatRef.current = { intl, digits };
  const [colors, setColors] = useState<TChartColors | null>(null);
  // Whether the chart exists: the effects below that configure it run again once it does.
  const [made, setMade] = useState(false);
  // Whether to make it: once the first bars are here (or their load has ended), and for good.
  const [wanted, setWanted] = useState(!loading || candles.length > 0);
  if (!wanted && (!loading || candles.length > 0)) setWanted(true);

  // The chart itself, once per mount, in a task of its own after the commit that mounted its
  // container. Made in the commit's effects, the chart (about 20 ms on a fast machine), its colours
  // and its first data were one task with everything else the page's hydration starts, 100-130 ms
  // on the terminal, four times that on a slow phone (issue 21, item 14): the browser can now paint
  // and handle a tap between them.
  useEffect(() => {
    const container = containerRef.current;
    if (!container || !wanted) return;
    function makeChart(container: HTMLDivElement): () => void {
      const { priceMargins, volumeTop, rightOffset } = lookRef.current;
      const fontFamily = getComputedStyle(container).fontFamily;
      const chart = createChart(container, {
        autoSize: true,
        layout: {
          background: { type: ColorType.Solid, color: 'transparent' },
          fontFamily,
          fontSize: SCALE_FONT_SIZE,
          attributionLogo: true,
        },
        crosshair: { mode: CrosshairMode.Normal },
        rightPriceScale: {
          scaleMargins: priceMargins,
          minimumWidth: priceAxisWidth(candlesRef.current, formatRef.current, fontFamily),
        },
        timeScale: { rightOffset, barSpacing: 7, minBarSpacing: 1.5 },
        handleScale: { axisPressedMouseMove: { time: true, price: true } },
      });
      const series = chart.addSeries(CandlestickSeries, { borderVisible: false });
      const volume = chart.addSeries(HistogramSeries, {
        priceFormat: { type: 'volume' },
        priceScaleId: '',
        lastValueVisible: false,
        priceLineVisible: false,
      });
      volume.priceScale().applyOptions({ scaleMargins: { top: volumeTop, bottom: 0 } });
      chartRef.current = chart;
      seriesRef.current = series;
      volumeRef.current = volume;

      const onRange = (range: { from: number; to: number } | null) => {
        if (range && range.from < 10 && candlesRef.current.length > 0) needOlderRef.current();
        // The time labels are formatted once per bar and kept: after a scroll, format them again, so
        // that the one at the left edge is left out only while it would be cut (cutAtLeftEdge).
        chart.applyOptions({ localization: {} });
      };
      chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);
      const cleanup = setupRef.current?.(chart, series);
      return () => {
        cleanup?.();
        chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
        chart.remove();
        chartRef.current = null;
        seriesRef.current = null;
        volumeRef.current = null;
        drawn.current = NOTHING_DRAWN;
      };
    }
    let remove: (() => void) | null = null;
    const timer = window.setTimeout(() => {
      remove = makeChart(container);
      setMade(true);
    }, 0);
    return () => {
      window.clearTimeout(timer);
      remove?.();
    };
  }, [containerRef, wanted]);

  // The own volume bars, unless a volume pane shows them (never twice).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `made` runs it once the chart exists
  useEffect(() => {
    volumeRef.current?.applyOptions({ visible: !hideVolume });
  }, [hideVolume, made]);

  // Colours: the theme's variables and the kline colour; again when <html data-theme> changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `made` runs it once the chart exists
  useEffect(() => {
    const container = containerRef.current;
    const chart = chartRef.current;
    if (!container || !chart) return;
    const apply = () => {
      const next = chartColors(container, klineColor);
      const grid = withAlpha(next.grid, lookRef.current.gridAlpha);
      setColors(next);
      chart.applyOptions({
        layout: { textColor: next.text },
        grid: { vertLines: { color: grid }, horzLines: { color: grid } },
        rightPriceScale: { borderColor: next.border },
        timeScale: { borderColor: next.border },
        crosshair: {
          vertLine: { color: next.crosshair, labelBackgroundColor: next.border },
          horzLine: { color: next.crosshair, labelBackgroundColor: next.border },
        },
      });
      seriesRef.current?.applyOptions({
        upColor: next.rise,
        downColor: next.fall,
        wickUpColor: next.rise,
        wickDownColor: next.fall,
      });
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, [containerRef, klineColor, made]);

  // Number and time formats of the reader's language.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `made` runs it once the chart exists
  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return;
    const intraday = INTRADAY.has(timeframe);
    // Chart times are already local clock times (intraday) or dates: format them as UTC.
    const date = (seconds: number, options: Intl.DateTimeFormatOptions) =>
      dateFormat(intl, { timeZone: 'UTC', ...options }).format(seconds * 1000);
    const monthly = timeframe === 'MN' && lookRef.current.monthNames;
    chart.applyOptions({
      localization: {
        locale: intl,
        priceFormatter: (price: number) => formatDecimal(intl, price.toFixed(digits), digits),
        timeFormatter: (time: Time) =>
          date(
            time as number,
            intraday
              ? { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }
              : monthly
                ? { year: 'numeric', month: 'long' }
                : { dateStyle: 'medium' },
          ),
      },
      timeScale: {
        timeVisible: intraday,
        secondsVisible: false,
        tickMarkFormatter: (time: Time, type: TickMarkType) => {
          const seconds = time as number;
          const label =
            type === TickMarkType.Year
              ? date(seconds, { year: 'numeric' })
              : type === TickMarkType.Month
                ? date(seconds, { month: 'short' })
                : type === TickMarkType.DayOfMonth
                  ? date(seconds, { day: 'numeric', month: 'short' })
                  : date(seconds, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
          const x = chart.timeScale().timeToCoordinate(time);
          return cutAtLeftEdge(x, labelWidth(label, chart.options().layout.fontFamily)) ? '' : label;
        },
      },
    });
    series.applyOptions({
      priceFormat: { type: 'price', precision: digits, minMove: 1 / 10 ** digits },
    });
  }, [intl, digits, timeframe, made]);

  // Data: an in-place update of the last bar, or a full redraw.
  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    const volume = volumeRef.current;
    if (!chart || !series || !volume || !colors) return;
    const { volumeAlpha, initialView } = lookRef.current;
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
      color: withAlpha(Number(c.close) >= Number(c.open) ? colors.rise : colors.fall, volumeAlpha),
    });
    const first = candles[0];
    const last = candles.at(-1);
    const previous = drawn.current;
    if (!first || !last) {
      series.setData([]);
      volume.setData([]);
      drawn.current = { ...NOTHING_DRAWN, timeframe, colors };
      onDrawnRef.current?.('cleared', candles, timeframe);
      return;
    }
    // Volume bars take their candle's colour: new colours redraw everything.
    const sameStart =
      previous.colors === colors && previous.timeframe === timeframe && previous.first === first.time;
    const grewAtEnd =
      sameStart && (candles.length === previous.length || candles.length === previous.length + 1);
    let change: TCandleChange;
    if (grewAtEnd && last.time >= previous.last) {
      series.update(toBar(last));
      volume.update(toVolume(last));
      change = candles.length === previous.length ? 'last' : 'appended';
    } else {
      const timeScale = chart.timeScale();
      const range = timeScale.getVisibleLogicalRange();
      const prepended =
        previous.timeframe === timeframe && previous.length > 0 && first.time < previous.first
          ? candles.findIndex((c) => c.time === previous.first)
          : -1;
      // Bars of another symbol or timeframe: the price axis takes their width before they are drawn.
      if (prepended < 0)
        chart.priceScale('right').applyOptions({
          minimumWidth: priceAxisWidth(candles, formatRef.current, chart.options().layout.fontFamily),
        });
      series.setData(candles.map(toBar));
      volume.setData(candles.map(toVolume));
      change = 'replaced';
      // Older bars in front: keep looking at the same bars.
      if (prepended > 0 && range) {
        timeScale.setVisibleLogicalRange({ from: range.from + prepended, to: range.to + prepended });
      } else if (previous.timeframe !== timeframe || previous.length === 0) {
        timeScale.setVisibleLogicalRange({
          from: candles.length - initialView.back,
          to: candles.length + initialView.ahead,
        });
      }
    }
    drawn.current = { first: first.time, last: last.time, length: candles.length, timeframe, colors };
    onDrawnRef.current?.(change, candles, timeframe);
  }, [candles, timeframe, colors]);

  return colors;
}
