import { KlineColor, type TKlineColor } from '@broker/domain/kline-color';
import {
  type AutoscaleInfo,
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineStyle,
  type SeriesMarker,
  TickMarkType,
  type Time,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import type { TCandle, TTimeframe } from '../../lib/market-stream';
import { chartTime, withAlpha } from '../markets/CandleChart';
import { pricePoints } from './ticket-rules';

export type TLineTone = 'buy' | 'sell' | 'takeProfit' | 'stopLoss' | 'pending' | 'average' | 'ask';

/** A horizontal line on the chart: an entry, a take-profit, a stop-loss, a pending order. */
export interface TChartLine {
  id: string;
  price: string;
  tone: TLineTone;
  title: string;
  /** Dragging it proposes a new price (take-profit, stop-loss, pending price). */
  draggable: boolean;
}

/** A closed trade drawn on its bar: where it was opened or closed. */
export interface TChartMarker {
  time: number;
  side: 'buy' | 'sell';
  kind: 'open' | 'close';
  text: string;
}

interface TColors {
  text: string;
  grid: string;
  border: string;
  crosshair: string;
  rise: string;
  fall: string;
  brand: string;
  warning: string;
  faint: string;
}

const INTRADAY: ReadonlySet<TTimeframe> = new Set(['M1', 'M5', 'M15', 'M30', 'H1', 'H4']);
/** How close (px) the pointer must be to a line to pick it up. */
const GRAB_PX = 6;

function readColors(element: HTMLElement, klineColor: TKlineColor): TColors {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const up = v('--up', '#16b979');
  const down = v('--down', '#f0475c');
  const redUp = klineColor === KlineColor.RED_UP;
  return {
    text: v('--text-muted', '#9aa8cc'),
    grid: v('--border', '#23345f'),
    border: v('--border', '#23345f'),
    crosshair: v('--text-faint', '#6d7ba3'),
    rise: redUp ? down : up,
    fall: redUp ? up : down,
    brand: v('--brand', '#2f6bff'),
    warning: v('--warning', '#f5a524'),
    faint: v('--text-faint', '#6d7ba3'),
  };
}

function lineStyleOf(tone: TLineTone, colors: TColors) {
  switch (tone) {
    case 'buy':
      return { color: colors.rise, lineStyle: LineStyle.Solid, lineWidth: 1 as const };
    case 'sell':
      return { color: colors.fall, lineStyle: LineStyle.Solid, lineWidth: 1 as const };
    case 'takeProfit':
      return { color: colors.rise, lineStyle: LineStyle.Dashed, lineWidth: 1 as const };
    case 'stopLoss':
      return { color: colors.fall, lineStyle: LineStyle.Dashed, lineWidth: 1 as const };
    case 'pending':
      return { color: colors.warning, lineStyle: LineStyle.LargeDashed, lineWidth: 1 as const };
    case 'average':
      return { color: colors.brand, lineStyle: LineStyle.Dotted, lineWidth: 2 as const };
    case 'ask':
      return { color: colors.faint, lineStyle: LineStyle.Dotted, lineWidth: 1 as const };
  }
}

/**
 * The terminal's candlestick chart: history and the live bar, plus the trader's own levels as
 * price lines. Take-profit, stop-loss and pending-price lines can be dragged; letting go asks the
 * page (`onDragEnd`) to confirm and send the change, and the line snaps back if it is refused.
 */
export function TradeChart({
  candles,
  digits,
  timeframe,
  klineColor,
  lines,
  markers,
  onNeedOlder,
  onDragEnd,
}: {
  candles: TCandle[];
  digits: number;
  timeframe: TTimeframe;
  klineColor: TKlineColor;
  lines: readonly TChartLine[];
  markers: readonly TChartMarker[];
  onNeedOlder(): void;
  /** Resolves once the change is settled (sent, refused or cancelled). */
  onDragEnd(line: TChartLine, price: string): Promise<void>;
}) {
  const { intl } = useI18n();
  const wrapRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const markersRef = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const drawnLines = useRef(new Map<string, { handle: IPriceLine; line: TChartLine }>());
  /** The line being dragged, or waiting for its confirmation, keeps the dragged price. */
  const held = useRef<{ id: string; price: string } | null>(null);
  const linesRef = useRef(lines);
  linesRef.current = lines;
  const needOlderRef = useRef(onNeedOlder);
  needOlderRef.current = onNeedOlder;
  const dragEndRef = useRef(onDragEnd);
  dragEndRef.current = onDragEnd;
  const digitsRef = useRef(digits);
  digitsRef.current = digits;
  const candlesRef = useRef(candles);
  candlesRef.current = candles;
  const [colors, setColors] = useState<TColors | null>(null);
  const [hoverLine, setHoverLine] = useState(false);
  const [dragging, setDragging] = useState(false);
  const drawn = useRef<{
    timeframe: TTimeframe | null;
    first: number;
    length: number;
    colors: TColors | null;
  }>({
    timeframe: null,
    first: 0,
    length: 0,
    colors: null,
  });

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
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.2 } },
      timeScale: { rightOffset: 8, barSpacing: 7, minBarSpacing: 1.5 },
    });
    const series = chart.addSeries(CandlestickSeries, {
      borderVisible: false,
      // The trader's own levels stay in view: the price scale reaches them (not the ask line).
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        if (!info?.priceRange) return info;
        let { minValue, maxValue } = info.priceRange;
        for (const line of linesRef.current) {
          if (line.tone === 'ask') continue;
          const price = Number(held.current?.id === line.id ? held.current.price : line.price);
          if (!Number.isFinite(price)) continue;
          minValue = Math.min(minValue, price);
          maxValue = Math.max(maxValue, price);
        }
        return { ...info, priceRange: { minValue, maxValue } };
      },
    });
    const volume = chart.addSeries(HistogramSeries, {
      priceFormat: { type: 'volume' },
      priceScaleId: '',
      lastValueVisible: false,
      priceLineVisible: false,
    });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.86, bottom: 0 } });
    chartRef.current = chart;
    seriesRef.current = series;
    volumeRef.current = volume;
    markersRef.current = createSeriesMarkers(series, []);
    const onRange = (range: { from: number; to: number } | null) => {
      if (range && range.from < 10 && candlesRef.current.length > 0) needOlderRef.current();
    };
    chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);
    const lineMap = drawnLines.current;
    return () => {
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      volumeRef.current = null;
      markersRef.current = null;
      lineMap.clear();
      drawn.current = { timeframe: null, first: 0, length: 0, colors: null };
    };
  }, []);

  // Theme and kline colours, again when <html data-theme> changes.
  useEffect(() => {
    const container = containerRef.current;
    const chart = chartRef.current;
    if (!container || !chart) return;
    const apply = () => {
      const next = readColors(container, klineColor);
      setColors(next);
      chart.applyOptions({
        layout: { textColor: next.text },
        grid: {
          vertLines: { color: withAlpha(next.grid, 0.4) },
          horzLines: { color: withAlpha(next.grid, 0.4) },
        },
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
  }, [klineColor]);

  // Prices and times in the reader's language.
  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return;
    const intraday = INTRADAY.has(timeframe);
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
              : { dateStyle: 'medium' },
          ),
      },
      timeScale: {
        timeVisible: intraday,
        secondsVisible: false,
        tickMarkFormatter: (time: Time, type: TickMarkType) => {
          const seconds = time as number;
          if (type === TickMarkType.Year) return date(seconds, { year: 'numeric' });
          if (type === TickMarkType.Month) return date(seconds, { month: 'short' });
          if (type === TickMarkType.DayOfMonth) return date(seconds, { day: 'numeric', month: 'short' });
          return date(seconds, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
        },
      },
    });
    series.applyOptions({ priceFormat: { type: 'price', precision: digits, minMove: 1 / 10 ** digits } });
  }, [intl, digits, timeframe]);

  // Candles: an in-place update of the last bar, or a full redraw.
  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    const volume = volumeRef.current;
    if (!chart || !series || !volume || !colors) return;
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
      color: withAlpha(Number(c.close) >= Number(c.open) ? colors.rise : colors.fall, 0.28),
    });
    const first = candles[0];
    const last = candles.at(-1);
    const previous = drawn.current;
    if (!first || !last) {
      series.setData([]);
      volume.setData([]);
      drawn.current = { timeframe, first: 0, length: 0, colors };
      return;
    }
    const same =
      previous.colors === colors &&
      previous.timeframe === timeframe &&
      previous.first === first.time &&
      (candles.length === previous.length || candles.length === previous.length + 1);
    if (same) {
      series.update(toBar(last));
      volume.update(toVolume(last));
    } else {
      const timeScale = chart.timeScale();
      const range = timeScale.getVisibleLogicalRange();
      const prepended =
        previous.timeframe === timeframe && previous.length > 0 && first.time < previous.first
          ? candles.findIndex((c) => c.time === previous.first)
          : -1;
      series.setData(candles.map(toBar));
      volume.setData(candles.map(toVolume));
      if (prepended > 0 && range) {
        timeScale.setVisibleLogicalRange({ from: range.from + prepended, to: range.to + prepended });
      } else if (previous.timeframe !== timeframe || previous.length === 0) {
        timeScale.setVisibleLogicalRange({ from: candles.length - 110, to: candles.length + 8 });
      }
    }
    drawn.current = { timeframe, first: first.time, length: candles.length, colors };
  }, [candles, timeframe, colors]);

  // Price lines: add, move and remove as the trader's positions and orders change.
  useEffect(() => {
    const series = seriesRef.current;
    if (!series || !colors) return;
    const map = drawnLines.current;
    const wanted = new Set(lines.map((l) => l.id));
    for (const [id, drawnLine] of map) {
      if (!wanted.has(id)) {
        series.removePriceLine(drawnLine.handle);
        map.delete(id);
      }
    }
    for (const line of lines) {
      const price = held.current?.id === line.id ? held.current.price : line.price;
      const options = {
        price: Number(price),
        title: line.title,
        axisLabelVisible: line.tone !== 'ask',
        lineVisible: true,
        ...lineStyleOf(line.tone, colors),
      };
      const existing = map.get(line.id);
      if (existing) existing.handle.applyOptions(options);
      else map.set(line.id, { handle: series.createPriceLine(options), line });
      const entry = map.get(line.id);
      if (entry) entry.line = line;
    }
  }, [lines, colors]);

  // Closed trades on their bars.
  useEffect(() => {
    const plugin = markersRef.current;
    if (!plugin || !colors) return;
    const times = candles.map((c) => c.time);
    const barOf = (time: number) => {
      let lo = 0;
      let hi = times.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if ((times[mid] as number) <= time) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return found < 0 ? null : (times[found] as number);
    };
    const list: SeriesMarker<Time>[] = [];
    for (const marker of markers) {
      const bar = barOf(marker.time);
      if (bar === null) continue;
      const up = marker.side === 'buy' ? marker.kind === 'open' : marker.kind === 'close';
      list.push({
        time: chartTime(bar, timeframe),
        position: up ? 'belowBar' : 'aboveBar',
        shape: up ? 'arrowUp' : 'arrowDown',
        color: marker.kind === 'open' ? (marker.side === 'buy' ? colors.rise : colors.fall) : colors.faint,
        text: marker.text,
        size: 0.8,
      });
    }
    list.sort((a, b) => (a.time as number) - (b.time as number));
    plugin.setMarkers(list);
  }, [markers, candles, timeframe, colors]);

  // Dragging a line: pick it up near the pointer, follow the pointer, then ask to confirm.
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    let drag: { id: string; pointerId: number; origin: string; price: string } | null = null;
    const localY = (event: PointerEvent) => event.clientY - wrap.getBoundingClientRect().top;
    const lineAt = (y: number) => {
      const series = seriesRef.current;
      if (!series) return null;
      let best: { line: TChartLine; distance: number } | null = null;
      for (const line of linesRef.current) {
        if (!line.draggable) continue;
        const price = held.current?.id === line.id ? held.current.price : line.price;
        const at = series.priceToCoordinate(Number(price));
        if (at === null) continue;
        const distance = Math.abs(at - y);
        if (distance <= GRAB_PX && (!best || distance < best.distance)) best = { line, distance };
      }
      return best?.line ?? null;
    };
    const setInteractive = (on: boolean) =>
      chartRef.current?.applyOptions({ handleScroll: on, handleScale: on });

    const onDown = (event: PointerEvent) => {
      if (held.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
      const line = lineAt(localY(event));
      if (!line) return;
      event.preventDefault();
      event.stopPropagation();
      drag = { id: line.id, pointerId: event.pointerId, origin: line.price, price: line.price };
      held.current = { id: line.id, price: line.price };
      setInteractive(false);
      setDragging(true);
      wrap.setPointerCapture(event.pointerId);
    };
    const onMove = (event: PointerEvent) => {
      if (!drag) {
        if (event.pointerType === 'mouse') setHoverLine(lineAt(localY(event)) !== null);
        return;
      }
      if (event.pointerId !== drag.pointerId) return;
      const raw = seriesRef.current?.coordinateToPrice(localY(event));
      if (raw === null || raw === undefined || !Number.isFinite(raw) || raw <= 0) return;
      // The pointer's price, rounded to the symbol's digits: a display value turned into a decimal string.
      const price = raw.toFixed(digitsRef.current);
      drag.price = price;
      held.current = { id: drag.id, price };
      drawnLines.current.get(drag.id)?.handle.applyOptions({ price: Number(price) });
    };
    const release = (event: PointerEvent, commit: boolean) => {
      if (!drag || event.pointerId !== drag.pointerId) return;
      const finished = drag;
      drag = null;
      setInteractive(true);
      setDragging(false);
      if (wrap.hasPointerCapture(event.pointerId)) wrap.releasePointerCapture(event.pointerId);
      const entry = drawnLines.current.get(finished.id);
      const moved =
        pricePoints(finished.price, digitsRef.current) !== pricePoints(finished.origin, digitsRef.current);
      const snapBack = () => {
        held.current = null;
        const current = linesRef.current.find((l) => l.id === finished.id);
        if (current)
          drawnLines.current.get(finished.id)?.handle.applyOptions({ price: Number(current.price) });
      };
      if (!commit || !moved || !entry) {
        snapBack();
        return;
      }
      void dragEndRef.current(entry.line, finished.price).finally(snapBack);
    };
    const onUp = (event: PointerEvent) => release(event, true);
    const onCancel = (event: PointerEvent) => release(event, false);
    const onLeave = () => setHoverLine(false);
    wrap.addEventListener('pointerdown', onDown, { capture: true });
    wrap.addEventListener('pointermove', onMove);
    wrap.addEventListener('pointerup', onUp);
    wrap.addEventListener('pointercancel', onCancel);
    wrap.addEventListener('pointerleave', onLeave);
    return () => {
      wrap.removeEventListener('pointerdown', onDown, { capture: true });
      wrap.removeEventListener('pointermove', onMove);
      wrap.removeEventListener('pointerup', onUp);
      wrap.removeEventListener('pointercancel', onCancel);
      wrap.removeEventListener('pointerleave', onLeave);
    };
  }, []);

  return (
    <div
      ref={wrapRef}
      className="tr-chart"
      data-line-hover={hoverLine || dragging ? 'true' : 'false'}
      data-dragging={dragging ? 'true' : 'false'}
    >
      <div
        ref={containerRef}
        className="tr-chart-canvas"
        data-testid="trade-chart"
        data-bars={candles.length}
        data-lines={lines.map((l) => `${l.id}=${l.price}`).join(' ')}
      />
    </div>
  );
}
