import type { IChartApi, ISeriesApi, Logical } from 'lightweight-charts';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import type { TCandle } from '../../lib/market-stream';
import {
  CHART_DRAWING_LIMITS,
  fibLevels,
  logicalToTime,
  newDrawingId,
  ONE_POINT_KINDS,
  rayEnd,
  type TAnchor,
  type TChartDrawing,
  type TChartDrawingKind,
  timeToLogical,
} from './drawings';

/** The drawings' state, owned by the chart panel and shared by the toolbar and the layer. */
export interface TDrawingState {
  drawings: readonly TChartDrawing[];
  tool: TChartDrawingKind | null;
  selected: string | null;
  setTool(tool: TChartDrawingKind | null): void;
  setSelected(id: string | null): void;
  /** Replaces the list; `save` false while dragging (saved once on release). */
  change(drawings: TChartDrawing[], save?: boolean): void;
}

/** How close (px) the pointer must be to an end point to grab it. */
const HANDLE_PX = 8;

type TPixel = { x: number; y: number };

/**
 * The trader's drawings over the candles, in an SVG the size of the price pane. Every point is kept
 * as a time and a price and turned into pixels at each frame the chart moves, so drawings follow
 * scrolling, zooming, the price scale and a change of timeframe.
 */
export function DrawingLayer({
  chartRef,
  seriesRef,
  candles,
  state,
}: {
  chartRef: RefObject<IChartApi | null>;
  seriesRef: RefObject<ISeriesApi<'Candlestick'> | null>;
  candles: readonly TCandle[];
  state: TDrawingState;
}) {
  const { t, formatNumber } = useI18n();
  const svgRef = useRef<SVGSVGElement>(null);
  const times = useRef<number[]>([]);
  times.current = candles.map((c) => c.time);
  const stateRef = useRef(state);
  stateRef.current = state;
  const [box, setBox] = useState({ width: 0, height: 0, key: '' });
  /** A drawing being placed: its first point, and the pointer as the second. */
  const [draft, setDraft] = useState<{ kind: TChartDrawingKind; points: TAnchor[] } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);

  // Redraw whenever the chart's view changes: scroll, zoom, price scale, size.
  useEffect(() => {
    let frame = 0;
    let last = '';
    const tick = () => {
      frame = requestAnimationFrame(tick);
      const chart = chartRef.current;
      const series = seriesRef.current;
      if (!chart || !series) return;
      const pane = chart.paneSize(0);
      const width = chart.timeScale().width();
      // Without drawings and without a tool in hand only the size matters: the price scale moves
      // with nearly every tick, and a render per move cost the terminal a long task per tick.
      const { drawings, tool } = stateRef.current;
      let key = `${pane.height}:${width}`;
      if (drawings.length > 0 || tool !== null) {
        const range = chart.timeScale().getVisibleLogicalRange();
        const probe = series.priceToCoordinate(1);
        const probe2 = series.priceToCoordinate(2);
        key += `:${range?.from}:${range?.to}:${probe}:${probe2}:${times.current.length}:${times.current.at(-1)}`;
      }
      if (key === last) return;
      last = key;
      setBox({ width, height: pane.height, key });
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [chartRef, seriesRef]);

  const toPixel = (anchor: TAnchor): TPixel | null => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return null;
    const logical = timeToLogical(times.current, anchor.time);
    if (logical === null) return null;
    const x = chart.timeScale().logicalToCoordinate(logical as Logical);
    const y = series.priceToCoordinate(anchor.price);
    return x === null || y === null ? null : { x, y };
  };
  const toAnchor = (pixel: TPixel): TAnchor | null => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return null;
    const logical = chart.timeScale().coordinateToLogical(pixel.x);
    const time = logical === null ? null : logicalToTime(times.current, logical);
    const price = series.coordinateToPrice(pixel.y);
    if (time === null || price === null || !Number.isFinite(price)) return null;
    return { time, price };
  };
  const toPixelRef = useRef(toPixel);
  toPixelRef.current = toPixel;
  const toAnchorRef = useRef(toAnchor);
  toAnchorRef.current = toAnchor;

  // Delete or Backspace removes the selected drawing; Escape drops the tool or the selection.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const current = stateRef.current;
      if ((event.key === 'Delete' || event.key === 'Backspace') && current.selected) {
        event.preventDefault();
        current.change(current.drawings.filter((d) => d.id !== current.selected));
        current.setSelected(null);
      } else if (event.key === 'Escape' && (current.tool || current.selected)) {
        setDraft(null);
        current.setTool(null);
        current.setSelected(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Placing, selecting and dragging with the pointer.
  const drag = useRef<{
    id: string;
    pointerId: number;
    /** The end point being moved, or null for the whole drawing. */
    point: number | null;
    start: TPixel;
    origin: TPixel[];
    moved: boolean;
  } | null>(null);

  const local = (event: { clientX: number; clientY: number }): TPixel => {
    const rect = svgRef.current?.getBoundingClientRect();
    return { x: event.clientX - (rect?.left ?? 0), y: event.clientY - (rect?.top ?? 0) };
  };

  const onPlace = (event: React.PointerEvent<SVGRectElement>) => {
    const current = stateRef.current;
    if (!current.tool) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    const anchor = toAnchor(local(event));
    if (!anchor) return;
    const kind = current.tool;
    if (current.drawings.length >= CHART_DRAWING_LIMITS.perSymbol) return;
    const finish = (points: TAnchor[]) => {
      const drawing: TChartDrawing = { id: newDrawingId(), kind, points };
      if (kind === 'text') drawing.text = '';
      current.change([...current.drawings, drawing]);
      current.setTool(null);
      current.setSelected(drawing.id);
      setDraft(null);
      if (kind === 'text') setEditing(drawing.id);
    };
    if (ONE_POINT_KINDS.has(kind)) finish([anchor]);
    else if (!draft || draft.kind !== kind) setDraft({ kind, points: [anchor, anchor] });
    else finish([draft.points[0] as TAnchor, anchor]);
  };
  const onPlaceMove = (event: React.PointerEvent<SVGRectElement>) => {
    if (!draft) return;
    const anchor = toAnchor(local(event));
    if (anchor) setDraft({ ...draft, points: [draft.points[0] as TAnchor, anchor] });
  };

  const onShapeDown = (
    event: React.PointerEvent<SVGElement>,
    drawing: TChartDrawing,
    point: number | null,
  ) => {
    if (stateRef.current.tool) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    stateRef.current.setSelected(drawing.id);
    const origin = drawing.points.map((p) => toPixel(p));
    if (origin.some((p) => p === null)) return;
    drag.current = {
      id: drawing.id,
      pointerId: event.pointerId,
      point,
      start: local(event),
      origin: origin as TPixel[],
      moved: false,
    };
    chartRef.current?.applyOptions({ handleScroll: false, handleScale: false });
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
  };
  const onShapeMove = (event: React.PointerEvent<SVGElement>) => {
    const held = drag.current;
    if (!held || event.pointerId !== held.pointerId) return;
    const at = local(event);
    const dx = at.x - held.start.x;
    const dy = at.y - held.start.y;
    const current = stateRef.current;
    const drawing = current.drawings.find((d) => d.id === held.id);
    if (!drawing) return;
    const points = drawing.points.map((p, index) => {
      if (held.point !== null && held.point !== index) return p;
      const from = held.origin[index] as TPixel;
      return toAnchorRef.current({ x: from.x + dx, y: from.y + dy }) ?? p;
    });
    held.moved = true;
    current.change(
      current.drawings.map((d) => (d.id === held.id ? { ...d, points } : d)),
      false,
    );
  };
  const onShapeUp = (event: React.PointerEvent<SVGElement>) => {
    const held = drag.current;
    if (!held || event.pointerId !== held.pointerId) return;
    drag.current = null;
    chartRef.current?.applyOptions({ handleScroll: true, handleScale: true });
    const current = stateRef.current;
    if (held.moved) current.change([...current.drawings], true);
    const drawing = current.drawings.find((d) => d.id === held.id);
    if (!held.moved && drawing?.kind === 'text' && event.detail >= 2) setEditing(drawing.id);
  };

  const { width, height } = box;
  const digits = (price: number) => {
    const magnitude = Math.abs(price);
    return magnitude >= 1000 ? 2 : magnitude >= 10 ? 3 : 5;
  };
  const shapeProps = (drawing: TChartDrawing, point: number | null = null) => ({
    onPointerDown: (event: React.PointerEvent<SVGElement>) => onShapeDown(event, drawing, point),
    onPointerMove: onShapeMove,
    onPointerUp: onShapeUp,
    onPointerCancel: onShapeUp,
  });

  const render = (
    drawing: TChartDrawing | { id: string; kind: TChartDrawingKind; points: TAnchor[]; text?: string },
    isDraft: boolean,
  ) => {
    const pixels = drawing.points.map((p) => toPixel(p));
    if (pixels.some((p) => p === null)) return null;
    const [a, b] = pixels as TPixel[];
    if (!a) return null;
    const selected = !isDraft && state.selected === drawing.id;
    const props = isDraft ? {} : shapeProps(drawing as TChartDrawing);
    const className = `tr-draw-shape${selected ? ' is-selected' : ''}`;
    let body: React.ReactNode = null;
    switch (drawing.kind) {
      case 'hline':
        body = (
          <>
            <line className="tr-draw-hit" x1={0} x2={width} y1={a.y} y2={a.y} {...props} />
            <line className="tr-draw-stroke" x1={0} x2={width} y1={a.y} y2={a.y} />
            <text className="tr-draw-label" x={width - 4} y={a.y - 4} textAnchor="end">
              {formatNumber(drawing.points[0]?.price ?? 0, {
                maximumFractionDigits: digits(drawing.points[0]?.price ?? 0),
              })}
            </text>
          </>
        );
        break;
      case 'trend':
      case 'ray': {
        if (!b) return null;
        const end = drawing.kind === 'ray' ? rayEnd(a, b, width, height) : b;
        body = (
          <>
            <line className="tr-draw-hit" x1={a.x} y1={a.y} x2={end.x} y2={end.y} {...props} />
            <line className="tr-draw-stroke" x1={a.x} y1={a.y} x2={end.x} y2={end.y} />
          </>
        );
        break;
      }
      case 'rect': {
        if (!b) return null;
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        body = (
          <rect
            className="tr-draw-stroke tr-draw-fill"
            x={x}
            y={y}
            width={Math.abs(b.x - a.x)}
            height={Math.abs(b.y - a.y)}
            {...props}
          />
        );
        break;
      }
      case 'fib': {
        if (!b) return null;
        const start = drawing.points[0] as TAnchor;
        const end = drawing.points[1] as TAnchor;
        const left = Math.min(a.x, b.x);
        const right = Math.max(a.x, b.x, left + 40);
        body = (
          <>
            <line className="tr-draw-hit" x1={a.x} y1={a.y} x2={b.x} y2={b.y} {...props} />
            <line className="tr-draw-stroke tr-draw-dashed" x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
            {fibLevels(start, end).map(({ level, price }) => {
              const y = seriesRef.current?.priceToCoordinate(price);
              if (y === null || y === undefined) return null;
              return (
                <g key={level} data-level={level}>
                  <line className="tr-draw-hit" x1={left} x2={right} y1={y} y2={y} {...props} />
                  <line className="tr-draw-stroke tr-draw-level" x1={left} x2={right} y1={y} y2={y} />
                  <text className="tr-draw-label" x={left + 2} y={y - 3}>
                    {`${formatNumber(level, { style: 'percent', maximumFractionDigits: 1 })} (${formatNumber(price, { maximumFractionDigits: digits(price) })})`}
                  </text>
                </g>
              );
            })}
          </>
        );
        break;
      }
      case 'text':
        body = (
          <text className="tr-draw-text" x={a.x} y={a.y} {...props}>
            {drawing.text || t('trade.draw.kind.text')}
          </text>
        );
        break;
    }
    return (
      <g
        key={drawing.id}
        className={className}
        data-testid={isDraft ? 'drawing-draft' : 'drawing'}
        data-kind={drawing.kind}
        data-id={drawing.id}
        data-selected={selected ? 'true' : 'false'}
        data-points={drawing.points.map((p) => `${p.time}@${p.price}`).join(' ')}
      >
        {body}
        {selected &&
          pixels.map((p, index) =>
            p ? (
              <circle
                key={index}
                className="tr-draw-handle"
                data-testid="drawing-handle"
                cx={drawing.kind === 'hline' ? Math.min(width - 60, Math.max(20, width / 2)) : p.x}
                cy={p.y}
                r={HANDLE_PX / 2 + 1}
                {...shapeProps(drawing as TChartDrawing, index)}
              />
            ) : null,
          )}
      </g>
    );
  };

  const editingDrawing = editing ? state.drawings.find((d) => d.id === editing) : undefined;
  const editingAt = editingDrawing ? toPixel(editingDrawing.points[0] as TAnchor) : null;

  return (
    <>
      <svg
        ref={svgRef}
        className={`tr-draw-layer${state.tool ? ' is-placing' : ''}`}
        data-testid="drawing-layer"
        data-count={state.drawings.length}
        width={width}
        height={height}
        aria-hidden="true"
      >
        {state.drawings.map((d) => render(d, false))}
        {draft && render({ id: 'draft', ...draft }, true)}
        {/* Above the drawings while a tool is in use: a click places, even on another drawing. */}
        {state.tool && (
          <rect
            className="tr-draw-catcher"
            data-testid="drawing-catcher"
            x={0}
            y={0}
            width={width}
            height={height}
            onPointerDown={onPlace}
            onPointerMove={onPlaceMove}
          />
        )}
      </svg>
      {editingDrawing && editingAt && (
        <input
          className="tr-draw-input"
          data-testid="drawing-text-input"
          aria-label={t('trade.draw.textLabel')}
          maxLength={CHART_DRAWING_LIMITS.text}
          style={{ left: editingAt.x, top: Math.max(0, editingAt.y - 28) }}
          defaultValue={editingDrawing.text ?? ''}
          // biome-ignore lint/a11y/noAutofocus: the trader has just placed the text and types it next
          autoFocus
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === 'Escape') event.currentTarget.blur();
          }}
          onBlur={(event) => {
            const text = event.currentTarget.value.slice(0, CHART_DRAWING_LIMITS.text);
            const current = stateRef.current;
            current.change(current.drawings.map((d) => (d.id === editingDrawing.id ? { ...d, text } : d)));
            setEditing(null);
          }}
        />
      )}
    </>
  );
}

const TOOL_ICONS: Record<TChartDrawingKind, React.ReactNode> = {
  hline: <path d="M2 10h16" />,
  trend: <path d="M3 16 17 4" />,
  ray: (
    <>
      <path d="M3 16 17 4" />
      <circle cx="3" cy="16" r="1.6" />
    </>
  ),
  rect: <rect x="3" y="5" width="14" height="10" />,
  fib: <path d="M2 4h16M2 8h16M2 11h16M2 16h16" />,
  text: <path d="M4 4h12M10 4v12" />,
};

/** The drawing tools beside the chart: one button per kind, then delete and clear all. */
export function DrawingToolbar({ state }: { state: TDrawingState }) {
  const { t } = useI18n();
  const full = state.drawings.length >= CHART_DRAWING_LIMITS.perSymbol;
  return (
    <div
      className="tr-draw-bar"
      role="toolbar"
      aria-label={t('trade.draw.toolbar')}
      data-testid="drawing-toolbar"
    >
      {(['hline', 'trend', 'ray', 'rect', 'fib', 'text'] as const).map((kind) => (
        <button
          key={kind}
          type="button"
          className="tr-draw-tool"
          aria-pressed={state.tool === kind}
          aria-label={t(`trade.draw.kind.${kind}`)}
          title={t(`trade.draw.kind.${kind}`)}
          data-tool={kind}
          disabled={full}
          onClick={() => {
            state.setTool(state.tool === kind ? null : kind);
            state.setSelected(null);
          }}
        >
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            {TOOL_ICONS[kind]}
          </svg>
        </button>
      ))}
      <span className="tr-draw-sep" aria-hidden="true" />
      <button
        type="button"
        className="tr-draw-tool"
        aria-label={t('trade.draw.delete')}
        title={t('trade.draw.delete')}
        data-testid="drawing-delete"
        disabled={!state.selected}
        onClick={() => {
          state.change(state.drawings.filter((d) => d.id !== state.selected));
          state.setSelected(null);
        }}
      >
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <path d="M5 6h10M8 6V4h4v2M6 6l1 10h6l1-10" />
        </svg>
      </button>
      <button
        type="button"
        className="tr-draw-tool"
        aria-label={t('trade.draw.clear')}
        title={t('trade.draw.clear')}
        data-testid="drawing-clear"
        disabled={state.drawings.length === 0}
        onClick={() => {
          state.change([]);
          state.setSelected(null);
          state.setTool(null);
        }}
      >
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <path d="M4 4l12 12M16 4 4 16" />
        </svg>
      </button>
    </div>
  );
}
