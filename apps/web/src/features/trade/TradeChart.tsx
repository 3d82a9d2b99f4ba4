import {
  type AutoscaleInfo,
  createSeriesMarkers,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineStyle,
  type SeriesMarker,
  type Time,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import {
  chartTime,
  type TCandleChartData,
  type TCandleChartLook,
  type TChartColors,
  useCandleChart,
} from '../../lib/candle-chart';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { useStreamHealth } from '../../lib/market-stream';
import { DrawingLayer, type TDrawingState } from './DrawingLayer';
import { INDICATOR_SPECS, type TIndicator } from './indicators';
import { pricePoints } from './ticket-rules';
import { useIndicatorSeries } from './useIndicatorSeries';

export type TLineTone = 'buy' | 'sell' | 'takeProfit' | 'stopLoss' | 'pending' | 'average' | 'ask' | 'alert';

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

/** The indicators' names in the legend: the abbreviations traders know in every language. */
const INDICATOR_ABBREVIATIONS: Record<TIndicator['kind'], string> = {
  sma: 'SMA',
  ema: 'EMA',
  bollinger: 'BB',
  rsi: 'RSI',
  macd: 'MACD',
  stochastic: 'KDJ',
  atr: 'ATR',
  volume: '',
};

/** Prices and price distances in the symbol's digits, oscillators in two, volume whole. */
const legendDigits = (indicator: TIndicator, digits: number) =>
  indicator.kind === 'volume'
    ? 0
    : INDICATOR_SPECS[indicator.kind].overlay || indicator.kind === 'atr' || indicator.kind === 'macd'
      ? digits
      : 2;

/** How close (px) the pointer must be to a line to pick it up. */
const GRAB_PX = 6;

const LOOK: TCandleChartLook = {
  priceMargins: { top: 0.08, bottom: 0.2 },
  volumeTop: 0.86,
  rightOffset: 8,
  gridAlpha: 0.4,
  volumeAlpha: 0.28,
  initialView: { back: 110, ahead: 8 },
  monthNames: false,
};

/** A level no further than this many candle ranges beyond the candles still widens the price scale. */
const LINE_REACH = 1;

/**
 * The price scale's range with the trader's levels: a level near the candles (within one candle
 * range beyond them) widens the range so it stays in view; one far away (a stop-loss at 74 on a
 * symbol at 74,000) would flatten the candles, so it is left out and reported as `outside`, to be
 * shown at the chart's edge instead. Prices cannot be negative, so neither can the range.
 */
export function fitLevels(
  range: { minValue: number; maxValue: number },
  levels: readonly { id: string; price: number; keep?: boolean }[],
): { minValue: number; maxValue: number; outside: { id: string; edge: 'top' | 'bottom' }[] } {
  const span = Math.max(range.maxValue - range.minValue, Math.abs(range.maxValue) * 0.002);
  const low = range.minValue - span * LINE_REACH;
  const high = range.maxValue + span * LINE_REACH;
  let { minValue, maxValue } = range;
  const outside: { id: string; edge: 'top' | 'bottom' }[] = [];
  for (const level of levels) {
    if (!Number.isFinite(level.price)) continue;
    if (!level.keep && (level.price < low || level.price > high)) {
      outside.push({ id: level.id, edge: level.price > high ? 'top' : 'bottom' });
      continue;
    }
    minValue = Math.min(minValue, level.price);
    maxValue = Math.max(maxValue, level.price);
  }
  return { minValue: Math.max(0, minValue), maxValue, outside };
}

function lineStyleOf(tone: TLineTone, colors: TChartColors) {
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
    case 'alert':
      return { color: colors.brand, lineStyle: LineStyle.Dashed, lineWidth: 1 as const };
  }
}

/**
 * The terminal's candlestick chart: history and the live bar, plus the trader's own levels as
 * price lines. Take-profit, stop-loss and pending-price lines can be dragged; letting go asks the
 * page (`onDragEnd`) to confirm and send the change, and the line snaps back if it is refused.
 */
export function TradeChart({
  lines,
  markers,
  onDragEnd,
  onPriceMenu,
  indicators = [],
  drawings,
  ...data
}: TCandleChartData & {
  /** The trader's drawings and the drawing tool in use. */
  drawings?: TDrawingState;
  /** The trader's indicators: overlays on the candles, the others in panes below. */
  indicators?: readonly TIndicator[];
  lines: readonly TChartLine[];
  markers: readonly TChartMarker[];
  /** Resolves once the change is settled (sent, refused or cancelled). */
  onDragEnd(line: TChartLine, price: string): Promise<void>;
  /** A right click on the chart: the price under the pointer, in the symbol's digits (add an alert there). */
  onPriceMenu?(price: string): void;
}) {
  const { candles, digits, timeframe } = data;
  const wrapRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const markersRef = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const drawnLines = useRef(new Map<string, { handle: IPriceLine; line: TChartLine }>());
  /** The line being dragged, or waiting for its confirmation, keeps the dragged price. */
  const held = useRef<{ id: string; price: string } | null>(null);
  const linesRef = useRef(lines);
  linesRef.current = lines;
  const dragEndRef = useRef(onDragEnd);
  dragEndRef.current = onDragEnd;
  const digitsRef = useRef(digits);
  digitsRef.current = digits;
  const priceMenuRef = useRef(onPriceMenu);
  priceMenuRef.current = onPriceMenu;
  const [hoverLine, setHoverLine] = useState(false);
  const [outside, setOutside] = useState<{ id: string; edge: 'top' | 'bottom' }[]>([]);
  const outsideKey = useRef('');
  const { t, intl } = useI18n();
  const { down } = useStreamHealth();
  const [dragging, setDragging] = useState(false);
  const volumePane = indicators.some((indicator) => indicator.kind === 'volume');
  const colors = useCandleChart({
    containerRef,
    data: { ...data, hideVolume: volumePane },
    look: LOOK,
    setup: (chart, series) => {
      chartRef.current = chart;
      seriesRef.current = series;
      series.applyOptions({
        // The trader's levels near the candles stay in view; far ones go to the chart's edge.
        autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
          const info = original();
          if (!info?.priceRange) return info;
          const levels = linesRef.current
            .filter((line) => line.tone !== 'ask')
            .map((line) => {
              const dragged = held.current?.id === line.id;
              return {
                id: line.id,
                price: Number(dragged ? held.current?.price : line.price),
                keep: dragged,
              };
            });
          const { outside, ...priceRange } = fitLevels(info.priceRange, levels);
          const key = outside.map((o) => `${o.id}:${o.edge}`).join(',');
          if (key !== outsideKey.current) {
            outsideKey.current = key;
            // The chart is drawing: tell React afterwards.
            queueMicrotask(() => setOutside(outside));
          }
          return { ...info, priceRange };
        },
      });
      markersRef.current = createSeriesMarkers(series, []);
      const lineMap = drawnLines.current;
      return () => {
        chartRef.current = null;
        seriesRef.current = null;
        markersRef.current = null;
        lineMap.clear();
      };
    },
  });

  const indicatorView = useIndicatorSeries({ chartRef, candles, timeframe, indicators, colors });

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
    const onContextMenu = (event: MouseEvent) => {
      const raw = seriesRef.current?.coordinateToPrice(event.clientY - wrap.getBoundingClientRect().top);
      if (!priceMenuRef.current || raw === null || raw === undefined || !Number.isFinite(raw) || raw <= 0)
        return;
      event.preventDefault();
      priceMenuRef.current(raw.toFixed(digitsRef.current));
    };
    wrap.addEventListener('contextmenu', onContextMenu);
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
      wrap.removeEventListener('contextmenu', onContextMenu);
    };
  }, []);

  const edgeLabels = outside.flatMap(({ id, edge }) => {
    const line = lines.find((l) => l.id === id);
    return line ? [{ line, edge }] : [];
  });

  return (
    <div
      ref={wrapRef}
      className={`tr-chart${down ? ' is-stale' : ''}`}
      data-line-hover={hoverLine || dragging ? 'true' : 'false'}
      data-dragging={dragging ? 'true' : 'false'}
      data-stale={down ? 'true' : undefined}
    >
      {down && (
        <span className="tr-chart-stale" data-testid="chart-stale">
          {t('trade.chart.stream.stale')}
        </span>
      )}
      {indicatorView.legend.length > 0 && (
        <ul className="tr-ind-legend" data-testid="indicator-legend">
          {indicatorView.legend.map((item, index) => (
            <li
              key={`${index}-${item.indicator.kind}`}
              data-kind={item.indicator.kind}
              data-pane={item.pane}
              data-value={item.lines[0]?.value ?? ''}
            >
              <span className="tr-ind-legend-name">
                {item.indicator.kind === 'volume'
                  ? t('trade.indicators.kind.volume')
                  : `${INDICATOR_ABBREVIATIONS[item.indicator.kind]} ${item.indicator.params
                      .map((p) => formatDecimal(intl, String(p)))
                      .join(', ')}`}
              </span>
              {item.lines.map((line) => (
                <span key={line.name} className="tr-ind-legend-value num">
                  <span className="tr-ind-swatch" style={{ background: line.color }} aria-hidden="true" />
                  {line.value === null
                    ? '—'
                    : formatDecimal(
                        intl,
                        line.value.toFixed(legendDigits(item.indicator, digits)),
                        legendDigits(item.indicator, digits),
                      )}
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
      {(['top', 'bottom'] as const).map((edge) => {
        const labels = edgeLabels.filter((l) => l.edge === edge);
        if (labels.length === 0) return null;
        return (
          <ul key={edge} className={`tr-chart-edge tr-chart-edge-${edge}`} data-testid={`chart-edge-${edge}`}>
            {labels.map(({ line }) => (
              <li key={line.id} className={`tr-chart-edge-label tr-tone-${line.tone}`} data-line={line.id}>
                <span aria-hidden="true">{edge === 'top' ? '↑' : '↓'}</span> {line.title}{' '}
                <span className="num">{formatDecimal(intl, line.price, digits)}</span>
              </li>
            ))}
          </ul>
        );
      })}
      <div
        ref={containerRef}
        className="tr-chart-canvas"
        data-testid="trade-chart"
        data-bars={candles.length}
        data-panes={indicatorView.panes}
        data-own-volume={volumePane ? 'hidden' : 'shown'}
        data-lines={lines.map((l) => `${l.id}=${l.price}`).join(' ')}
      />
      {drawings && (
        <DrawingLayer chartRef={chartRef} seriesRef={seriesRef} candles={candles} state={drawings} />
      )}
    </div>
  );
}
