/**
 * The order ticket's rules, checked in the browser before anything is sent: volume on the symbol's
 * grid, pending prices on the right side of the market, take-profit and stop-loss on the right side
 * of their reference. The side rules are the engine's own (@broker/domain/trading/orders), applied
 * to integer points; the server checks them again with the symbol's stops level.
 */
import {
  MAX_TRAILING_POINTS,
  type TPendingType,
  validatePendingPrice,
  validateStops,
} from '@broker/domain/trading/orders';
import { decimalPlaces, fromUnits, toUnits } from './decimal';

export type TSide = 'buy' | 'sell';
export type TOrderKind = 'market' | 'limit' | 'stop' | 'stop_limit';
export const ORDER_KINDS: readonly TOrderKind[] = ['market', 'limit', 'stop', 'stop_limit'];

/** Lots travel with two decimals (hundredths of a lot). */
export const LOT_DECIMALS = 2;

export interface TVolumeSpec {
  minVolume: string;
  volumeStep: string;
  maxVolume: string;
}

export type TVolumeProblem = 'format' | 'min' | 'max' | 'step';

interface TVolumeGrid {
  min: bigint;
  step: bigint;
  /** The largest volume on the grid that does not exceed the maximum. */
  max: bigint;
}

/** The most decimals a typed volume is read with: finer volumes are simply off the grid. */
const MAX_VOLUME_DECIMALS = 12;

/** The symbol's volume grid in units of 10^-scale lots. */
function grid(spec: TVolumeSpec, scale = LOT_DECIMALS): TVolumeGrid | null {
  const min = toUnits(spec.minVolume, scale);
  const step = toUnits(spec.volumeStep, scale);
  const max = toUnits(spec.maxVolume, scale);
  if (min === null || step === null || max === null || step <= 0n || min <= 0n || max < min) return null;
  return { min, step, max: min + ((max - min) / step) * step };
}

/**
 * What is wrong with a volume (a plain decimal string read from the input, null when it is not a
 * number): under the minimum (zero and negatives too), over the maximum, or between two steps of
 * the grid, compared exactly at the precision typed.
 */
export function volumeProblem(value: string | null, spec: TVolumeSpec): TVolumeProblem | null {
  if (value === null) return 'format';
  const scale = Math.max(LOT_DECIMALS, decimalPlaces(value.trim()));
  const g = scale <= MAX_VOLUME_DECIMALS ? grid(spec, scale) : null;
  const volume = toUnits(value, scale);
  if (!g || volume === null) return 'format';
  if (volume < g.min) return 'min';
  if (volume > g.max) return 'max';
  return (volume - g.min) % g.step === 0n ? null : 'step';
}

/** The next volume up or down the symbol's grid from a typed volume (off-grid values snap first). */
export function stepVolume(value: string | null, spec: TVolumeSpec, direction: 1 | -1): string {
  const g = grid(spec);
  if (!g) return value ?? '';
  const current = value === null ? null : toUnits(roundDown(value, LOT_DECIMALS), LOT_DECIMALS);
  if (current === null || current < g.min) return fromUnits(g.min, LOT_DECIMALS);
  const offset = current - g.min;
  const below = g.min + (offset / g.step) * g.step;
  const onGrid = offset % g.step === 0n && toUnits(value ?? '', LOT_DECIMALS) !== null;
  const next = direction > 0 ? below + g.step : onGrid ? current - g.step : below;
  const clamped = next < g.min ? g.min : next > g.max ? g.max : next;
  return fromUnits(clamped, LOT_DECIMALS);
}

/** A plain decimal string cut (not rounded) to `decimals`. */
function roundDown(value: string, decimals: number): string {
  const dot = value.indexOf('.');
  return dot < 0 ? value : value.slice(0, dot + 1 + decimals);
}

/** A typed lot volume (plain decimal string) as the wire's two-decimal string, or null. */
export function lotsText(value: string | null): string | null {
  const units = value === null ? null : toUnits(value, LOT_DECIMALS);
  return units === null || units <= 0n ? null : fromUnits(units, LOT_DECIMALS);
}

/** A plain decimal price as integer points of a symbol with `digits` decimals; null if not a positive price. */
export function pricePoints(text: string, digits: number): bigint | null {
  const points = toUnits(text, digits);
  return points === null || points <= 0n ? null : points;
}

export const pointsText = (points: bigint, digits: number) => fromUnits(points, digits);

/** A typed distance (plain decimal string) in whole points; null unless a positive integer. */
export function distancePoints(value: string | null): bigint | null {
  return value !== null && /^\d{1,12}$/.test(value) && BigInt(value) > 0n ? BigInt(value) : null;
}

/** The price an order enters at: the ask for a market buy, the bid for a market sell, else its own. */
export function entryPoints(o: {
  side: TSide;
  kind: TOrderKind;
  bid: bigint | null;
  ask: bigint | null;
  price: bigint | null;
  limitPrice: bigint | null;
}): bigint | null {
  if (o.kind === 'market') return o.side === 'buy' ? o.ask : o.bid;
  return o.kind === 'stop_limit' ? o.limitPrice : o.price;
}

/**
 * What take-profit and stop-loss are checked against: a market order's closing price (bid for a
 * buy, ask for a sell), a pending order's entry price.
 */
export function stopsReference(o: {
  side: TSide;
  kind: TOrderKind;
  bid: bigint | null;
  ask: bigint | null;
  entry: bigint | null;
}): bigint | null {
  if (o.kind === 'market') return o.side === 'buy' ? o.bid : o.ask;
  return o.entry;
}

export type TStop = 'takeProfit' | 'stopLoss';

/** A take-profit or stop-loss `distance` points from `entry`, on the profitable or losing side. */
export function stopFromDistance(side: TSide, stop: TStop, entry: bigint, distance: bigint): bigint {
  const up = (side === 'buy') === (stop === 'takeProfit');
  return up ? entry + distance : entry - distance;
}

/**
 * Whether a take-profit or stop-loss is on the wrong side of its reference, or nearer to it than the
 * symbol's stops level (`distance` points; at least 1), or not a price.
 */
export function stopProblem(
  side: TSide,
  stop: TStop,
  price: bigint,
  reference: bigint,
  distance = 1,
): 'side' | null {
  if (price <= 0n) return 'side';
  const error = validateStops({
    side,
    reference: Number(reference),
    takeProfit: stop === 'takeProfit' ? Number(price) : null,
    stopLoss: stop === 'stopLoss' ? Number(price) : null,
    distance: Math.max(1, distance),
  });
  return error ? 'side' : null;
}

const PENDING: Record<`${TSide}:${Exclude<TOrderKind, 'market'>}`, TPendingType> = {
  'buy:limit': 'buy_limit',
  'sell:limit': 'sell_limit',
  'buy:stop': 'buy_stop',
  'sell:stop': 'sell_stop',
  'buy:stop_limit': 'buy_stop_limit',
  'sell:stop_limit': 'sell_stop_limit',
};

export const pendingType = (side: TSide, kind: Exclude<TOrderKind, 'market'>): TPendingType =>
  PENDING[`${side}:${kind}`];

/**
 * A pending price that would fill at once (a buy limit above the ask, a buy stop below it, ...) is
 * 'side'; a stop-limit whose limit is beyond its stop is 'limit'.
 */
export function pendingProblem(o: {
  side: TSide;
  kind: Exclude<TOrderKind, 'market'>;
  price: bigint;
  limitPrice: bigint | null;
  bid: bigint;
  ask: bigint;
}): 'side' | 'limit' | null {
  const type = pendingType(o.side, o.kind);
  if (o.kind === 'stop_limit' && o.limitPrice !== null) {
    if (o.side === 'buy' ? o.limitPrice > o.price : o.limitPrice < o.price) return 'limit';
  }
  const error = validatePendingPrice({
    type,
    price: Number(o.price),
    limitPrice: o.kind === 'stop_limit' ? (o.limitPrice === null ? null : Number(o.limitPrice)) : null,
    bid: Number(o.bid),
    ask: Number(o.ask),
    distance: 1,
  });
  return error ? 'side' : null;
}

/** The volume-weighted average open price of some positions, rounded half up to `digits`. */
export function averageOpenPrice(
  positions: readonly { open_price: string; volume: string }[],
  digits: number,
): string | null {
  let weighted = 0n;
  let volume = 0n;
  for (const p of positions) {
    const price = toUnits(p.open_price, digits);
    const lots = toUnits(p.volume, LOT_DECIMALS);
    if (price === null || lots === null) return null;
    weighted += price * lots;
    volume += lots;
  }
  if (volume === 0n) return null;
  return fromUnits((weighted * 2n + volume) / (volume * 2n), digits);
}

/** Volume left of a position after closing part of it, as lots; null when not a valid split. */
export function remainingVolume(total: string, closing: string | null): string | null {
  const a = toUnits(total, LOT_DECIMALS);
  const b = closing === null ? null : toUnits(closing, LOT_DECIMALS);
  if (a === null || b === null || b <= 0n || b > a) return null;
  return fromUnits(a - b, LOT_DECIMALS);
}

/**
 * The profit of the part of a position being closed: its profit times closing / total volume,
 * computed exactly in integer units and rounded half away from zero at the profit's own decimals.
 */
export function partProfit(profit: string, total: string, closing: string): string | null {
  const scale = Math.max(2, decimalPlaces(profit.trim()));
  const money = toUnits(profit, scale);
  const all = toUnits(total, LOT_DECIMALS);
  const part = toUnits(closing, LOT_DECIMALS);
  if (money === null || all === null || part === null || all <= 0n || part <= 0n || part > all) return null;
  const product = money * part;
  const quotient = product / all;
  const remainder = product % all;
  const away = 2n * (remainder < 0n ? -remainder : remainder) >= all;
  return fromUnits(away ? quotient + (product < 0n ? -1n : 1n) : quotient, scale);
}

/** How long a submit button stays locked after its result is shown, so a double click sends once. */
export const SUBMIT_GUARD_MS = 500;

/**
 * One submission per intent: a submit starts only when none is running and the guard after the
 * last result has passed; clicks in between are ignored.
 */
export class SubmitGate {
  private sending = false;
  private until = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly guardMs = SUBMIT_GUARD_MS,
  ) {}

  /** True when this click may submit (the gate is then closed until `finish`). */
  tryStart(): boolean {
    if (this.sending || this.now() < this.until) return false;
    this.sending = true;
    return true;
  }

  /** The result is shown: the gate stays closed for the guard. */
  finish() {
    this.sending = false;
    this.until = this.now() + this.guardMs;
  }
}

/**
 * A trailing stop distance as typed (the reader's number already read into a plain decimal, or null
 * when the text is not a number): null for none (empty or 0), the whole points when they are from
 * the symbol's stops level (at least 1) to `MAX_TRAILING_POINTS`, else undefined. The engine's rule
 * (`validateTrailing`), checked before sending.
 */
export function trailingDistance(
  value: string | null,
  typed: boolean,
  stopsLevel = 0,
): bigint | null | undefined {
  if (!typed) return null;
  if (value === null || !/^\d{1,12}$/.test(value)) return undefined;
  const points = BigInt(value);
  if (points === 0n) return null;
  const least = BigInt(Math.max(1, stopsLevel));
  return points >= least && points <= BigInt(MAX_TRAILING_POINTS) ? points : undefined;
}

/**
 * The stop-loss a trailing stop would set at this quote: the distance below the bid for a buy,
 * above the ask for a sell. The engine sets it only once that is beyond the open price (the profit
 * exceeds the distance) and beyond the current stop-loss.
 */
export function trailedStopPrice(side: TSide, bid: bigint, ask: bigint, points: bigint): bigint {
  return side === 'buy' ? bid - points : ask + points;
}
