import {
  CHART_DRAWING_KINDS,
  CHART_DRAWING_LIMITS,
  type TChartDrawing,
  type TChartDrawingKind,
} from '@broker/contracts/chart-drawings-paths';

export type { TChartDrawing, TChartDrawingKind };
export { CHART_DRAWING_KINDS, CHART_DRAWING_LIMITS };

/** A point of a drawing: a moment (ms since the epoch) and a price, never pixels. */
export interface TAnchor {
  time: number;
  price: number;
}

/** Kinds placed with one click; the others take two (start and end). */
export const ONE_POINT_KINDS: ReadonlySet<TChartDrawingKind> = new Set(['hline', 'text']);

/** The Fibonacci retracement's levels, as shares of the move from the end back to the start. */
export const FIB_LEVELS = [0, 0.236, 0.382, 0.5, 0.618, 0.786, 1] as const;

/** Level 0 sits on the end point, 100 % on the start point (the whole move retraced). */
export function fibLevels(start: TAnchor, end: TAnchor): { level: number; price: number }[] {
  return FIB_LEVELS.map((level) => ({ level, price: end.price + (start.price - end.price) * level }));
}

/** The bar spacing (ms) of a list of bar times: the last gap, or a minute when there is none. */
function stepOf(times: readonly number[]): number {
  const n = times.length;
  if (n >= 2) return Math.max(1, (times[n - 1] as number) - (times[n - 2] as number));
  return 60_000;
}

/**
 * A moment as a (fractional) bar index on the chart's time scale: between two bars it is
 * interpolated, before the first and after the last it goes on at the bar spacing. So a drawing
 * anchored to a time lands on the same moment whatever the timeframe, scroll or zoom.
 */
export function timeToLogical(times: readonly number[], time: number): number | null {
  const n = times.length;
  if (n === 0) return null;
  const first = times[0] as number;
  const last = times[n - 1] as number;
  if (time <= first) return (time - first) / (n >= 2 ? (times[1] as number) - first : stepOf(times));
  if (time >= last) return n - 1 + (time - last) / stepOf(times);
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) <= time) lo = mid;
    else hi = mid;
  }
  const a = times[lo] as number;
  const b = times[hi] as number;
  return lo + (b === a ? 0 : (time - a) / (b - a));
}

/** The inverse of timeToLogical: the moment (ms) at a fractional bar index. */
export function logicalToTime(times: readonly number[], logical: number): number | null {
  const n = times.length;
  if (n === 0 || !Number.isFinite(logical)) return null;
  const first = times[0] as number;
  if (logical <= 0) return first + logical * (n >= 2 ? (times[1] as number) - first : stepOf(times));
  if (logical >= n - 1) return (times[n - 1] as number) + (logical - (n - 1)) * stepOf(times);
  const lo = Math.floor(logical);
  const a = times[lo] as number;
  const b = times[lo + 1] as number;
  return Math.round(a + (b - a) * (logical - lo));
}

/** A ray goes on from its end through the box's edge (width × height): the far point to draw to. */
export function rayEnd(
  from: { x: number; y: number },
  through: { x: number; y: number },
  width: number,
  height: number,
): { x: number; y: number } {
  const dx = through.x - from.x;
  const dy = through.y - from.y;
  if (dx === 0 && dy === 0) return through;
  const reach = 2 * (width + height);
  const length = Math.hypot(dx, dy);
  return { x: from.x + (dx / length) * reach, y: from.y + (dy / length) * reach };
}

/**
 * Drawings read back from storage, keeping only well-formed ones (known kind, the kind's number of
 * finite points, short text), at most the server's limit: the same bounds the server's schema holds.
 */
export function parseDrawings(value: unknown): TChartDrawing[] {
  if (!Array.isArray(value)) return [];
  const out: TChartDrawing[] = [];
  for (const item of value) {
    const { id, kind, points, text } = (item ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(id)) continue;
    if (!CHART_DRAWING_KINDS.includes(kind as TChartDrawingKind) || !Array.isArray(points)) continue;
    const typed = points.map((p) => ({ time: Number(p?.time), price: Number(p?.price) }));
    const wanted = ONE_POINT_KINDS.has(kind as TChartDrawingKind) ? 1 : 2;
    if (typed.length !== wanted || typed.some((p) => !Number.isFinite(p.time) || !Number.isFinite(p.price)))
      continue;
    const drawing: TChartDrawing = { id, kind: kind as TChartDrawingKind, points: typed };
    if (kind === 'text')
      drawing.text = typeof text === 'string' ? text.slice(0, CHART_DRAWING_LIMITS.text) : '';
    out.push(drawing);
    if (out.length === CHART_DRAWING_LIMITS.perSymbol) break;
  }
  return out;
}

const storageKey = (symbol: string) => `trade.drawings.${symbol}`;

let counter = 0;
/** A new drawing's id: unique in this browser, short enough for the schema. */
export function newDrawingId(): string {
  counter += 1;
  return `d${Date.now().toString(36)}${counter.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** The drawings this browser keeps for a symbol (visitors who are not signed in). */
export function readLocalDrawings(symbol: string): TChartDrawing[] {
  try {
    const raw = window.localStorage.getItem(storageKey(symbol));
    return raw ? parseDrawings(JSON.parse(raw)) : [];
  } catch {
    return [];
  }
}

export function saveLocalDrawings(symbol: string, drawings: readonly TChartDrawing[]): void {
  try {
    window.localStorage.setItem(storageKey(symbol), JSON.stringify(drawings));
  } catch {
    // Storage full or refused: the drawings stay for this visit.
  }
}
