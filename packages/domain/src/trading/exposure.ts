/**
 * The hot-path store of open positions: positions of one symbol held in one account currency share a
 * quote and a currency conversion, so they live together in a bucket as parallel typed arrays
 * (struct of arrays). Revaluing a bucket on a tick is then one sequential pass over contiguous memory
 * with no allocation, pushing each position's profit delta into its account's running sum and
 * marking the account only if that sum crossed one of its margin floors.
 */
import { isSafeMagnitude, profitMinor, type TConversion, type TRate } from './money';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

import type { AccountRiskBook } from './trigger-book';

const INITIAL_CAPACITY = 16;

export class PositionBucket<T> {
  count = 0;
  /** Open price in points. */
  open = new Float64Array(INITIAL_CAPACITY);
  /** Volume in hundredths of a lot. */
  volume = new Float64Array(INITIAL_CAPACITY);
  /** +1 buy (closes at the bid), -1 sell (closes at the ask); a float so the tick loop needs no conversion. */
  sign = new Float64Array(INITIAL_CAPACITY);
  /** Floating profit at the last quotes, account-currency minor units. */
  profit = new Float64Array(INITIAL_CAPACITY);
  /** The owning account's slot in the risk book. */
  slot = new Int32Array(INITIAL_CAPACITY);
  /** The position objects, same index, for everything off the hot path. */
  readonly items: T[] = [];

  private grow(): void {
    const capacity = this.open.length * 2;
    const open = new Float64Array(capacity);
    open.set(this.open);
    this.open = open;
    const volume = new Float64Array(capacity);
    volume.set(this.volume);
    this.volume = volume;
    const sign = new Float64Array(capacity);
    sign.set(this.sign);
    this.sign = sign;
    const profit = new Float64Array(capacity);
    profit.set(this.profit);
    this.profit = profit;
    const slot = new Int32Array(capacity);
    slot.set(this.slot);
    this.slot = slot;
  }

  /** Appends a position; returns its index. */
  add(item: T, open: number, volume: number, sign: 1 | -1, slot: number, profit: number): number {
    if (this.count === this.open.length) this.grow();
    const i = this.count++;
    this.open[i] = open;
    this.volume[i] = volume;
    this.sign[i] = sign;
    this.profit[i] = profit;
    this.slot[i] = slot;
    this.items[i] = item;
    return i;
  }

  /**
   * Removes the entry at `index` by moving the last one into its place; returns the moved item (whose
   * index is now `index`) or undefined when the removed entry was the last.
   */
  removeAt(index: number): T | undefined {
    const last = --this.count;
    const moved = last === index ? undefined : this.items[last];
    if (moved !== undefined) {
      this.open[index] = this.open[last]!;
      this.volume[index] = this.volume[last]!;
      this.sign[index] = this.sign[last]!;
      this.profit[index] = this.profit[last]!;
      this.slot[index] = this.slot[last]!;
      this.items[index] = moved;
    }
    this.items.length = last;
    return moved;
  }

  /**
   * Revalues every position at (bid, ask): diff x volume x point x rate, rounded half away from zero
   * once, with the low rate for gains and the high rate for losses.
   *
   * Exactness: the numerator n = |diff x volume x point x rate| is an integer at most 2^53 - d (checked;
   * otherwise the general BigInt-safe path runs). q = floor(n x (1/d)) is then at most one off
   * floor(n / d), since the relative error of the reciprocal product is below 2^-52 and n / d < 2^52 for
   * d >= 2 (d = 1 has an exact reciprocal); r = n - q x d is exact because q x d <= n + d <= 2^53; one
   * correction step makes 0 <= r < d. Rounding the magnitude half up and restoring the sign is rounding
   * half away from zero.
   */
  revalue(bid: number, ask: number, point: TRate, rates: TConversion, risk: AccountRiskBook): void {
    const n = this.count;
    if (n === 0) return;
    const lowMul = point.num * rates.low.num;
    const lowDen = point.den * rates.low.den;
    const highMul = point.num * rates.high.num;
    const highDen = point.den * rates.high.den;
    const factorsSafe =
      isSafeMagnitude(lowMul) &&
      isSafeMagnitude(lowDen) &&
      isSafeMagnitude(highMul) &&
      isSafeMagnitude(highDen);
    // beyond this the kernel below is not exact: take the general path
    const limit = factorsSafe ? MAX_SAFE - Math.max(lowDen, highDen) : -1;
    const lowInverse = 1 / lowDen;
    const highInverse = 1 / highDen;
    // closing price without a branch on the side: mid + sign x half is the bid for +1, the ask for -1
    // (exact: both terms have at most one binary fraction digit)
    const mid = (bid + ask) / 2;
    const half = (bid - ask) / 2;
    const open = this.open;
    const volume = this.volume;
    const sign = this.sign;
    const profit = this.profit;
    const slot = this.slot;
    const floating = risk.floating;
    for (let i = 0; i < n; i++) {
      const side = sign[i]!;
      const diff = side * (mid + side * half - open[i]!);
      const raw = diff * volume[i]!;
      const gain = raw >= 0;
      const den = gain ? lowDen : highDen;
      const numerator = Math.abs(raw * (gain ? lowMul : highMul));
      let value: number;
      if (numerator <= limit) {
        let q = Math.floor(numerator * (gain ? lowInverse : highInverse));
        let r = numerator - q * den;
        if (r < 0) {
          q--;
          r += den;
        } else if (r >= den) {
          q++;
          r -= den;
        }
        q += +(r + r >= den); // half away from zero, on the magnitude
        value = gain ? q : 0 - q; // 0 - q: never -0
      } else value = profitMinor(diff, volume[i]!, point, rates);
      const delta = value - profit[i]!;
      if (delta !== 0) {
        profit[i] = value;
        const s = slot[i]!;
        floating[s] = floating[s]! + delta;
        risk.watch(s);
      }
    }
  }
}
