/**
 * Trigger books: per symbol, four sorted books of prices that fire when the bid or the ask rises to or
 * falls to them (see `Book` in orders.ts); per account, the stop-out trigger, checked only for the
 * accounts a tick actually moved.
 */
import { mulDiv } from './money';
import { Book, type TBook } from './orders';

/** Entries per chunk before it splits in two; a chunk never holds more than 2 x CHUNK. */
const CHUNK = 128;

/**
 * A sorted multiset of (key, id) pairs, ordered by key then id, stored as a list of sorted chunks
 * (parallel number arrays, no per-entry objects). Insert and remove are O(log n + CHUNK); popping
 * every entry with key <= limit is O(k + log n) for k popped: whole chunks go at once.
 * Ids must be unique within a book.
 */
export class TriggerBook {
  private keyChunks: number[][] = [];
  private idChunks: number[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The smallest key, or +Infinity when empty. */
  minKey(): number {
    const first = this.keyChunks[0];
    return first === undefined ? Number.POSITIVE_INFINITY : first[0]!;
  }

  /** Index of the first chunk whose last entry is >= (key, id); the last chunk when none is. */
  private chunkFor(key: number, id: number): number {
    const chunks = this.keyChunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const keys = chunks[mid]!;
      const last = keys.length - 1;
      const lastKey = keys[last]!;
      if (lastKey < key || (lastKey === key && this.idChunks[mid]![last]! < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index in a chunk whose entry is >= (key, id). */
  private static lowerBound(keys: number[], ids: number[], key: number, id: number): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (k < key || (k === key && ids[mid]! < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: number, id: number): void {
    this.count++;
    if (this.keyChunks.length === 0) {
      this.keyChunks.push([key]);
      this.idChunks.push([id]);
      return;
    }
    const c = this.chunkFor(key, id);
    const keys = this.keyChunks[c]!;
    const ids = this.idChunks[c]!;
    const at = TriggerBook.lowerBound(keys, ids, key, id);
    keys.splice(at, 0, key);
    ids.splice(at, 0, id);
    if (keys.length > 2 * CHUNK) {
      this.keyChunks.splice(c + 1, 0, keys.splice(CHUNK));
      this.idChunks.splice(c + 1, 0, ids.splice(CHUNK));
    }
  }

  /** Removes one entry; false when it is not there. */
  remove(key: number, id: number): boolean {
    if (this.keyChunks.length === 0) return false;
    const c = this.chunkFor(key, id);
    const keys = this.keyChunks[c]!;
    const ids = this.idChunks[c]!;
    const at = TriggerBook.lowerBound(keys, ids, key, id);
    if (at >= keys.length || keys[at] !== key || ids[at] !== id) return false;
    this.count--;
    if (keys.length === 1) {
      this.keyChunks.splice(c, 1);
      this.idChunks.splice(c, 1);
    } else {
      keys.splice(at, 1);
      ids.splice(at, 1);
    }
    return true;
  }

  /** Removes every entry with key <= limit, appending their ids to `out` in order; returns how many. */
  popUpTo(limit: number, out: number[]): number {
    const keyChunks = this.keyChunks;
    let dropped = 0;
    let popped = 0;
    while (dropped < keyChunks.length) {
      const keys = keyChunks[dropped]!;
      const ids = this.idChunks[dropped]!;
      if (keys[0]! > limit) break;
      if (keys[keys.length - 1]! <= limit) {
        for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
        popped += ids.length;
        dropped++;
        continue;
      }
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid]! <= limit) lo = mid + 1;
        else hi = mid;
      }
      for (let i = 0; i < lo; i++) out.push(ids[i]!);
      popped += lo;
      keys.splice(0, lo);
      ids.splice(0, lo);
      break;
    }
    if (dropped > 0) {
      keyChunks.splice(0, dropped);
      this.idChunks.splice(0, dropped);
    }
    this.count -= popped;
    return popped;
  }

  /** Every (key, id) in order; for tests and snapshots, not the hot path. */
  entries(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let c = 0; c < this.keyChunks.length; c++) {
      const keys = this.keyChunks[c]!;
      const ids = this.idChunks[c]!;
      for (let i = 0; i < keys.length; i++) out.push([keys[i]!, ids[i]!]);
    }
    return out;
  }
}

function isRising(book: TBook): boolean {
  return book === Book.BID_RISING || book === Book.ASK_RISING;
}

/**
 * The four books of one symbol. Rising books are keyed by price (fire on key <= quote); falling
 * books by -price (fire on -price <= -quote, i.e. price >= quote), so both pop a sorted prefix.
 */
export class SymbolTriggers {
  readonly books: readonly [TriggerBook, TriggerBook, TriggerBook, TriggerBook] = [
    new TriggerBook(),
    new TriggerBook(),
    new TriggerBook(),
    new TriggerBook(),
  ];

  get size(): number {
    return this.books[0].size + this.books[1].size + this.books[2].size + this.books[3].size;
  }

  add(book: TBook, price: number, id: number): void {
    this.books[book].insert(isRising(book) ? price : -price, id);
  }

  remove(book: TBook, price: number, id: number): boolean {
    return this.books[book].remove(isRising(book) ? price : -price, id);
  }

  /** Whether anything fires at this quote; O(1), so quiet ticks cost four comparisons. */
  anyCrossed(bid: number, ask: number): boolean {
    const [bidRising, bidFalling, askRising, askFalling] = this.books;
    return (
      bidRising.minKey() <= bid ||
      bidFalling.minKey() <= -bid ||
      askRising.minKey() <= ask ||
      askFalling.minKey() <= -ask
    );
  }

  /** Pops every trigger the quote crosses, appending ids to `out` book by book; returns how many. */
  popCrossed(bid: number, ask: number, out: number[]): number {
    const [bidRising, bidFalling, askRising, askFalling] = this.books;
    return (
      bidRising.popUpTo(bid, out) +
      bidFalling.popUpTo(-bid, out) +
      askRising.popUpTo(ask, out) +
      askFalling.popUpTo(-ask, out)
    );
  }
}

/**
 * The stop-out trigger of every account, kept as per-slot typed arrays: running floating profit
 * (summed from position deltas), margin held, the equity base the margin level is measured with
 * (balance, plus follow and strategy equity for our own accounts), levels and flags.
 *
 * Each slot also holds two floors for its floating profit, exact because equity is an integer:
 * equity x 10^4 < level x margin  <=>  floating < ceil(level x margin / 10^4) - riskBase.
 * They change only when margin or the base does (a command), so a tick compares a running sum with a
 * floor and marks the account only when it crosses one; `scan` then confirms the few marked accounts
 * that need action (stop-out, a margin-call flag to flip, a negative balance to protect, or a copy
 * account's stop-loss or take-profit reached).
 *
 * What a tick compares is one band per slot, `[watchLow, watchHigh)`: the floating profit inside it
 * needs nothing. Out of call it is [max(call floor, stop floor), +inf); in call [stop floor, call floor)
 * (leaving the call is news too); a copy account narrows it to its copy thresholds. Two comparisons per
 * moved position, whatever the account holds.
 */
export class AccountRiskBook {
  size = 0;
  floating = new Float64Array(64);
  margin = new Float64Array(64);
  riskBase = new Float64Array(64);
  marginCallBp = new Int32Array(64);
  stopOutBp = new Int32Array(64);
  /** 1 while the margin-call flag is raised. */
  inCall = new Uint8Array(64);
  /** 1 while negative-balance protection applies and the balance is below zero. */
  negativeProtected = new Uint8Array(64);
  openPositions = new Int32Array(64);
  /** Floating profit below which the account is in margin call / stopped out (-Infinity: no margin). */
  callFloor = new Float64Array(64).fill(Number.NEGATIVE_INFINITY);
  stopFloor = new Float64Array(64).fill(Number.NEGATIVE_INFINITY);
  /**
   * A copy account's thresholds on its equity (riskBase + floating): its copy stop-loss is reached
   * below `copyStopEquity`, its copy take-profit at or above `copyTakeEquity` (infinite: none).
   */
  copyStopEquity = new Float64Array(64).fill(Number.NEGATIVE_INFINITY);
  copyTakeEquity = new Float64Array(64).fill(Number.POSITIVE_INFINITY);
  /** The floating profit inside [watchLow, watchHigh) needs no look (see the class comment). */
  watchLow = new Float64Array(64).fill(Number.NEGATIVE_INFINITY);
  watchHigh = new Float64Array(64).fill(Number.POSITIVE_INFINITY);
  private stamps = new Int32Array(64);
  private stamp = 1;
  private markedSlots = new Int32Array(64);
  markedCount = 0;

  private static grown<A extends Float64Array | Int32Array | Uint8Array>(array: A, capacity: number): A {
    const next = new (array.constructor as new (n: number) => A)(capacity);
    next.set(array);
    return next;
  }

  /** A new slot, zeroed; returns its index. */
  addSlot(): number {
    if (this.size === this.floating.length) {
      const capacity = this.size * 2;
      this.floating = AccountRiskBook.grown(this.floating, capacity);
      this.margin = AccountRiskBook.grown(this.margin, capacity);
      this.riskBase = AccountRiskBook.grown(this.riskBase, capacity);
      this.marginCallBp = AccountRiskBook.grown(this.marginCallBp, capacity);
      this.stopOutBp = AccountRiskBook.grown(this.stopOutBp, capacity);
      this.inCall = AccountRiskBook.grown(this.inCall, capacity);
      this.negativeProtected = AccountRiskBook.grown(this.negativeProtected, capacity);
      this.openPositions = AccountRiskBook.grown(this.openPositions, capacity);
      this.callFloor = AccountRiskBook.grown(this.callFloor, capacity);
      this.callFloor.fill(Number.NEGATIVE_INFINITY, this.size);
      this.stopFloor = AccountRiskBook.grown(this.stopFloor, capacity);
      this.stopFloor.fill(Number.NEGATIVE_INFINITY, this.size);
      this.copyStopEquity = AccountRiskBook.grown(this.copyStopEquity, capacity);
      this.copyStopEquity.fill(Number.NEGATIVE_INFINITY, this.size);
      this.copyTakeEquity = AccountRiskBook.grown(this.copyTakeEquity, capacity);
      this.copyTakeEquity.fill(Number.POSITIVE_INFINITY, this.size);
      this.watchLow = AccountRiskBook.grown(this.watchLow, capacity);
      this.watchLow.fill(Number.NEGATIVE_INFINITY, this.size);
      this.watchHigh = AccountRiskBook.grown(this.watchHigh, capacity);
      this.watchHigh.fill(Number.POSITIVE_INFINITY, this.size);
      this.stamps = AccountRiskBook.grown(this.stamps, capacity);
      this.markedSlots = AccountRiskBook.grown(this.markedSlots, capacity);
    }
    return this.size++;
  }

  /** Starts a new round (a tick or a command): nothing is marked. */
  begin(): void {
    this.stamp++;
    this.markedCount = 0;
  }

  /** Marks a slot for the margin check of this round, once. */
  mark(slot: number): void {
    if (this.stamps[slot] !== this.stamp) {
      this.stamps[slot] = this.stamp;
      this.markedSlots[this.markedCount++] = slot;
    }
  }

  /**
   * Recomputes a slot's floors; call after its margin, base or levels change. Marks it, since its
   * state may have changed.
   */
  refresh(slot: number): void {
    const margin = this.margin[slot]!;
    if (margin <= 0) {
      this.callFloor[slot] = Number.NEGATIVE_INFINITY;
      this.stopFloor[slot] = Number.NEGATIVE_INFINITY;
    } else {
      const base = this.riskBase[slot]!;
      this.callFloor[slot] = mulDiv(this.marginCallBp[slot]!, margin, 10_000, 'ceil') - base;
      this.stopFloor[slot] = mulDiv(this.stopOutBp[slot]!, margin, 10_000, 'ceil') - base;
    }
    this.rewatch(slot);
    this.mark(slot);
  }

  /** Raises or lowers the margin-call flag; the band a tick compares with follows it. */
  setInCall(slot: number, inCall: boolean): void {
    this.inCall[slot] = inCall ? 1 : 0;
    this.rewatch(slot);
  }

  /** Sets a copy account's equity thresholds (infinite for none) and marks it for a look. */
  setCopyThresholds(slot: number, stopEquity: number, takeEquity: number): void {
    this.copyStopEquity[slot] = stopEquity;
    this.copyTakeEquity[slot] = takeEquity;
    this.rewatch(slot);
    this.mark(slot);
  }

  private rewatch(slot: number): void {
    this.watchLow[slot] = this.bandLow(slot);
    this.watchHigh[slot] = this.bandHigh(slot);
  }

  /** The band of floating profit that needs nothing, from the floors, the flag and the thresholds. */
  bandLow(slot: number): number {
    const call = this.callFloor[slot]!;
    const stop = this.stopFloor[slot]!;
    const low = this.inCall[slot] === 1 || stop > call ? stop : call;
    // an infinite threshold stays infinite after the subtraction
    const copyLow = this.copyStopEquity[slot]! - this.riskBase[slot]!;
    return Math.max(copyLow, low);
  }

  bandHigh(slot: number): number {
    const high = this.inCall[slot] === 1 ? this.callFloor[slot]! : Number.POSITIVE_INFINITY;
    const copyHigh = this.copyTakeEquity[slot]! - this.riskBase[slot]!;
    return Math.min(copyHigh, high);
  }

  /** After a floating-profit change: marks the slot only if it left its band. */
  watch(slot: number): void {
    const floating = this.floating[slot]!;
    if (floating < this.watchLow[slot]! || floating >= this.watchHigh[slot]!) this.mark(slot);
  }

  /** Whether a copy account's equity reached its copy stop-loss or take-profit. */
  copyThresholdReached(slot: number): boolean {
    const equity = this.riskBase[slot]! + this.floating[slot]!;
    return equity < this.copyStopEquity[slot]! || equity >= this.copyTakeEquity[slot]!;
  }

  /** Margin state of a slot, compared exactly through its floors. */
  state(slot: number): TMarginState {
    const floating = this.floating[slot]!;
    if (floating < this.stopFloor[slot]!) return MarginState.STOP_OUT;
    return floating < this.callFloor[slot]! ? MarginState.MARGIN_CALL : MarginState.OK;
  }

  /** Appends to `out` the marked slots that need action; returns how many. */
  scan(out: number[]): number {
    let found = 0;
    for (let i = 0; i < this.markedCount; i++) {
      const slot = this.markedSlots[i]!;
      const state = this.state(slot);
      if (
        state === MarginState.STOP_OUT ||
        (state !== MarginState.OK ? 1 : 0) !== this.inCall[slot] ||
        (this.negativeProtected[slot] === 1 && this.openPositions[slot] === 0) ||
        this.copyThresholdReached(slot)
      ) {
        out.push(slot);
        found++;
      }
    }
    return found;
  }
}

export const MarginState = {
  OK: 0,
  MARGIN_CALL: 1,
  STOP_OUT: 2,
} as const;
export type TMarginState = (typeof MarginState)[keyof typeof MarginState];

/**
 * Where an account stands against its levels, compared exactly (no rounded margin level): stop-out
 * when equity / margin < stopOutBp / 10,000, margin call when below marginCallBp. No margin, no call.
 */
export function marginState(
  equity: number,
  margin: number,
  marginCallBp: number,
  stopOutBp: number,
): TMarginState {
  if (margin <= 0) return MarginState.OK;
  // floor(e x 10^4 / m) < L  <=>  e x 10^4 / m < L for an integer L
  const levelFloor = mulDiv(equity, 10_000, margin, 'floor');
  if (levelFloor < stopOutBp) return MarginState.STOP_OUT;
  if (levelFloor < marginCallBp) return MarginState.MARGIN_CALL;
  return MarginState.OK;
}
