/**
 * The order model: sides, pending order types, close reasons, per-account restrictions, validation
 * against the instrument, and which trigger book each order, take-profit and stop-loss lives in.
 */
import { isOpenAt } from '../market/sessions';
import type { TTradingErrorCode } from './errors';
import type { TInstrumentTerms } from './instrument-terms';

export type TSide = 'buy' | 'sell';

export type TPendingType =
  | 'buy_limit'
  | 'sell_limit'
  | 'buy_stop'
  | 'sell_stop'
  /** Becomes a buy limit at `limitPrice` once the ask reaches `price`. */
  | 'buy_stop_limit'
  /** Becomes a sell limit at `limitPrice` once the bid reaches `price`. */
  | 'sell_stop_limit';

export const PENDING_TYPES: readonly TPendingType[] = [
  'buy_limit',
  'sell_limit',
  'buy_stop',
  'sell_stop',
  'buy_stop_limit',
  'sell_stop_limit',
];

/** Spec 4 close reasons. */
export const CloseReason = {
  MANUAL: 1,
  AUTOMATIC: 2,
  TAKE_PROFIT_OR_STOP_LOSS: 3,
  COPY_TRADE: 4,
  STRATEGY_STOPPED_AUTOMATICALLY: 5,
  STRATEGY_STOPPED_ACTIVELY: 6,
  ACCOUNT_CANCELLATION: 7,
} as const;
export type TCloseReason = (typeof CloseReason)[keyof typeof CloseReason];

/**
 * Reasons a close command may carry. 3 (take-profit/stop-loss) is the engine's own; 2 (automatic)
 * is the engine's stop-out and also the broker's dealer closing a position from the back office:
 * closed by the platform, not by the trader.
 */
export const CLIENT_CLOSE_REASONS: readonly TCloseReason[] = [1, 2, 4, 5, 6, 7];

/** Spec 6: per-account access restrictions. */
export interface TRestrictions {
  noOpen: boolean;
  noClose: boolean;
  noTakeProfit: boolean;
  noStopLoss: boolean;
  noWithdrawal: boolean;
}

export const NO_RESTRICTIONS: TRestrictions = Object.freeze({
  noOpen: false,
  noClose: false,
  noTakeProfit: false,
  noStopLoss: false,
  noWithdrawal: false,
});

export function sideOfPending(type: TPendingType): TSide {
  return type.startsWith('buy') ? 'buy' : 'sell';
}

export function isStopLimit(type: TPendingType): boolean {
  return type === 'buy_stop_limit' || type === 'sell_stop_limit';
}

/** Volume in hundredths of a lot within [min, max] and a whole number of steps above the minimum. */
export function validateVolume(terms: TInstrumentTerms, volume: number): TTradingErrorCode | null {
  if (!Number.isSafeInteger(volume) || volume < terms.minVolume || volume > terms.maxVolume)
    return 'INVALID_VOLUME';
  return (volume - terms.minVolume) % terms.volumeStep === 0 ? null : 'INVALID_VOLUME';
}

/** Whether the symbol accepts a new position or pending order on this side at this time. */
export function validateOpening(
  terms: TInstrumentTerms,
  side: TSide,
  timeMs: number,
): TTradingErrorCode | null {
  if (!terms.enabled) return 'SYMBOL_DISABLED';
  if (terms.closeOnly) return 'SYMBOL_CLOSE_ONLY';
  if (side === 'sell' && !terms.shortAllowed) return 'SHORT_NOT_ALLOWED';
  return isOpenAt(terms.sessions, timeMs) ? null : 'MARKET_CLOSED';
}

/** Closing and modifying need the symbol enabled and its session open; close-only symbols allow them. */
export function validateClosing(terms: TInstrumentTerms, timeMs: number): TTradingErrorCode | null {
  if (!terms.enabled) return 'SYMBOL_DISABLED';
  return isOpenAt(terms.sessions, timeMs) ? null : 'MARKET_CLOSED';
}

/** Smallest allowed distance in points between a price and the market or the entry: at least 1. */
export function minDistance(terms: TInstrumentTerms): number {
  return Math.max(1, terms.stopsLevelPoints);
}

/**
 * Take-profit and stop-loss on the correct side of a reference price by at least `distance` points.
 * For a position the reference is its closing price (bid for a buy, ask for a sell); for a pending
 * order, its entry price (the limit price of a stop-limit). A buy takes profit above and stops below;
 * a sell the other way round. Null means none.
 */
export function validateStops(options: {
  side: TSide;
  reference: number;
  takeProfit: number | null;
  stopLoss: number | null;
  distance: number;
}): TTradingErrorCode | null {
  const { side, reference, takeProfit, stopLoss, distance } = options;
  for (const price of [takeProfit, stopLoss]) {
    if (price !== null && (!Number.isSafeInteger(price) || price <= 0)) return 'INVALID_STOPS';
  }
  if (side === 'buy') {
    if (takeProfit !== null && takeProfit - reference < distance) return 'INVALID_STOPS';
    if (stopLoss !== null && reference - stopLoss < distance) return 'INVALID_STOPS';
  } else {
    if (takeProfit !== null && reference - takeProfit < distance) return 'INVALID_STOPS';
    if (stopLoss !== null && stopLoss - reference < distance) return 'INVALID_STOPS';
  }
  return null;
}

/**
 * A pending price must not be marketable at once: buy limit below the ask, sell limit above the bid,
 * buy stop above the ask, sell stop below the bid, each by at least `distance`. A buy stop-limit's
 * limit is at or below its stop, a sell stop-limit's at or above.
 */
export function validatePendingPrice(options: {
  type: TPendingType;
  price: number;
  limitPrice: number | null;
  bid: number;
  ask: number;
  distance: number;
}): TTradingErrorCode | null {
  const { type, price, limitPrice, bid, ask, distance } = options;
  if (!Number.isSafeInteger(price) || price <= 0) return 'INVALID_PRICE';
  if (isStopLimit(type)) {
    if (limitPrice === null || !Number.isSafeInteger(limitPrice) || limitPrice <= 0) return 'INVALID_PRICE';
    if (type === 'buy_stop_limit' && limitPrice > price) return 'INVALID_PRICE';
    if (type === 'sell_stop_limit' && limitPrice < price) return 'INVALID_PRICE';
  } else if (limitPrice !== null) return 'INVALID_PRICE';
  switch (type) {
    case 'buy_limit':
      return ask - price >= distance ? null : 'INVALID_PRICE';
    case 'sell_limit':
      return price - bid >= distance ? null : 'INVALID_PRICE';
    case 'buy_stop':
    case 'buy_stop_limit':
      return price - ask >= distance ? null : 'INVALID_PRICE';
    case 'sell_stop':
    case 'sell_stop_limit':
      return bid - price >= distance ? null : 'INVALID_PRICE';
  }
}

export type TRestrictedAction = 'open' | 'close' | 'take_profit' | 'stop_loss' | 'withdraw';

export function checkRestriction(
  restrictions: TRestrictions,
  action: TRestrictedAction,
): TTradingErrorCode | null {
  const forbidden =
    (action === 'open' && restrictions.noOpen) ||
    (action === 'close' && restrictions.noClose) ||
    (action === 'take_profit' && restrictions.noTakeProfit) ||
    (action === 'stop_loss' && restrictions.noStopLoss) ||
    (action === 'withdraw' && restrictions.noWithdrawal);
  return forbidden ? 'ACCOUNT_RESTRICTED' : null;
}

/**
 * The four trigger books of a symbol. A trigger fires when the quote side it watches crosses its
 * price: BID_RISING when bid >= price, BID_FALLING when bid <= price, ASK_RISING when ask >= price,
 * ASK_FALLING when ask <= price.
 */
export const Book = {
  BID_RISING: 0,
  BID_FALLING: 1,
  ASK_RISING: 2,
  ASK_FALLING: 3,
} as const;
export type TBook = (typeof Book)[keyof typeof Book];

/** What a trigger does when it fires; stored in the low three bits of its id (ticket x 8 + kind). */
export const TriggerKind = {
  TAKE_PROFIT: 0,
  STOP_LOSS: 1,
  /** A limit or stop order fills (also the limit leg of an activated stop-limit). */
  ENTRY: 2,
  /** A stop-limit's stop is reached and it becomes a limit order. */
  ACTIVATION: 3,
  /** A trailing stop's price moved far enough in the position's favour: its stop-loss follows. */
  TRAIL: 4,
} as const;
export type TTriggerKind = (typeof TriggerKind)[keyof typeof TriggerKind];

/** Trigger ids are `ticket x TRIGGER_KINDS + kind`, so no per-trigger objects are needed. */
export const TRIGGER_KINDS = 8;

/** Buy positions close at the bid, sell positions at the ask. */
export function takeProfitBook(side: TSide): TBook {
  return side === 'buy' ? Book.BID_RISING : Book.ASK_FALLING;
}

export function stopLossBook(side: TSide): TBook {
  return side === 'buy' ? Book.BID_FALLING : Book.ASK_RISING;
}

/** A trailing stop waits for the closing price to move in the position's favour: bid up, ask down. */
export function trailBook(side: TSide): TBook {
  return side === 'buy' ? Book.BID_RISING : Book.ASK_FALLING;
}

/**
 * The largest trailing distance accepted, in points (10^6: 10.00000 on EURUSD, 10,000.00 on BTCUSDT):
 * beyond it a "trailing" stop-loss would never come near the price.
 */
export const MAX_TRAILING_POINTS = 1_000_000;

/**
 * A trailing distance in points: none (null or 0), or a whole number of points from the symbol's
 * stops level (at least 1) to `MAX_TRAILING_POINTS`, so every stop-loss it sets is a valid one.
 */
export function validateTrailing(terms: TInstrumentTerms, points: number | null): TTradingErrorCode | null {
  if (points === null || points === 0) return null;
  if (!Number.isSafeInteger(points) || points < minDistance(terms) || points > MAX_TRAILING_POINTS)
    return 'INVALID_TRAILING_STOP';
  return null;
}

/**
 * The closing price at which a trailing stop moves the stop-loss next (MT5's rule: only once the
 * profit exceeds the distance, and only forward). A buy's stop-loss becomes bid - distance once that
 * is above both the open price and the current stop-loss, so the trigger waits in the bid-rising book
 * at max(open, stop-loss) + distance + 1; a sell's becomes ask + distance once that is below both,
 * at min(open, stop-loss) - distance - 1 in the ask-falling book.
 */
export function trailTriggerPrice(
  side: TSide,
  openPrice: number,
  stopLoss: number | null,
  distance: number,
): number {
  if (side === 'buy') return Math.max(openPrice, stopLoss ?? openPrice) + distance + 1;
  return Math.min(openPrice, stopLoss ?? openPrice) - distance - 1;
}

/** The stop-loss a trailing stop sets at this quote: bid - distance for a buy, ask + distance for a sell. */
export function trailedStopLoss(side: TSide, bid: number, ask: number, distance: number): number {
  return side === 'buy' ? bid - distance : ask + distance;
}

/**
 * Where a pending order waits. Buys fill at the ask, sells at the bid: buy limit when ask <= price,
 * sell limit when bid >= price, buy stop when ask >= price, sell stop when bid <= price. A stop-limit
 * first waits for its stop like a stop order (ACTIVATION), then for its limit like a limit order.
 */
export function pendingTrigger(
  type: TPendingType,
  price: number,
  limitPrice: number | null,
  activated: boolean,
): { book: TBook; price: number; kind: TTriggerKind } {
  switch (type) {
    case 'buy_limit':
      return { book: Book.ASK_FALLING, price, kind: TriggerKind.ENTRY };
    case 'sell_limit':
      return { book: Book.BID_RISING, price, kind: TriggerKind.ENTRY };
    case 'buy_stop':
      return { book: Book.ASK_RISING, price, kind: TriggerKind.ENTRY };
    case 'sell_stop':
      return { book: Book.BID_FALLING, price, kind: TriggerKind.ENTRY };
    case 'buy_stop_limit':
      return activated
        ? { book: Book.ASK_FALLING, price: limitPrice ?? price, kind: TriggerKind.ENTRY }
        : { book: Book.ASK_RISING, price, kind: TriggerKind.ACTIVATION };
    case 'sell_stop_limit':
      return activated
        ? { book: Book.BID_RISING, price: limitPrice ?? price, kind: TriggerKind.ENTRY }
        : { book: Book.BID_FALLING, price, kind: TriggerKind.ACTIVATION };
  }
}

/** Whether a trigger in `book` at `price` is crossed by the quote. */
export function isCrossed(book: TBook, price: number, bid: number, ask: number): boolean {
  switch (book) {
    case Book.BID_RISING:
      return bid >= price;
    case Book.BID_FALLING:
      return bid <= price;
    case Book.ASK_RISING:
      return ask >= price;
    case Book.ASK_FALLING:
      return ask <= price;
  }
}

/** The entry price a pending order's take-profit and stop-loss are measured from. */
export function entryPrice(type: TPendingType, price: number, limitPrice: number | null): number {
  return isStopLimit(type) ? (limitPrice ?? price) : price;
}
