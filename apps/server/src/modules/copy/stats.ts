import type { TLeaderStats } from '@broker/contracts/copy-routes';
import type { TDealRow, TLedgerRow } from '../trading';

/**
 * A leader's statistics, computed from its account's ledger and closed deals, never self-reported
 * (docs/copy-trading.md, "Leader statistics"). Returns are time-weighted: each day's trading result
 * (realised profit, commission, swap) over the day's opening balance plus the money paid in that
 * day, chained; deposits, withdrawals, transfers and fees move the balance but not the return. Days
 * are GMT+8 days, the spec's week boundary. Statistics are display figures (ratios), not money:
 * they are computed in floating point and rounded to two decimals.
 */

const DAY_MS = 86_400_000;
const GMT8_MS = 8 * 3_600_000;
/** Ledger kinds that are the account's trading result; every other kind is money moved in or out. */
const TRADING_KINDS = new Set(['realized_pnl', 'commission', 'swap', 'negative_balance_protection']);

export const dayOf = (ms: number) => Math.floor((ms + GMT8_MS) / DAY_MS);
export const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const percent = (ratio: number) => (Math.round(ratio * 10_000) / 100).toFixed(2);

/** One day of the return index: its value at the day's end (100 at the start). */
export interface TIndexPoint {
  day: number;
  value: number;
  /** The day's return (a ratio). */
  r: number;
}

/** The return index of a ledger (oldest first), with today's floating profit on the last point. */
export function returnIndex(ledger: readonly TLedgerRow[], floating = 0, now = Date.now()): TIndexPoint[] {
  const points: TIndexPoint[] = [];
  let value = 100;
  let i = 0;
  let balance = 0;
  while (i < ledger.length) {
    const day = dayOf(ledger[i]!.time);
    const open = balance;
    let paidIn = 0;
    let result = 0;
    for (; i < ledger.length && dayOf(ledger[i]!.time) === day; i++) {
      const row = ledger[i]!;
      if (TRADING_KINDS.has(row.kind)) result += row.amount;
      else if (row.amount > 0) paidIn += row.amount;
      balance = row.balanceAfter;
    }
    if (i >= ledger.length && day === dayOf(now)) result += floating;
    const base = open + paidIn;
    const r = base > 0 ? Math.max(-1, result / base) : 0;
    value *= 1 + r;
    points.push({ day, value, r });
  }
  if (floating !== 0 && (points.length === 0 || points[points.length - 1]!.day !== dayOf(now))) {
    const base = balance;
    const r = base > 0 ? Math.max(-1, floating / base) : 0;
    value *= 1 + r;
    points.push({ day: dayOf(now), value, r });
  }
  return points;
}

/** The return between the index's value at `fromDay` (the day before's end) and its last value; null without data. */
export function returnSince(points: readonly TIndexPoint[], fromDay: number | null): number | null {
  if (points.length === 0) return null;
  const last = points[points.length - 1]!.value;
  if (fromDay === null || fromDay <= points[0]!.day) return last / 100 - 1;
  let before = 100;
  for (const p of points) {
    if (p.day >= fromDay) break;
    before = p.value;
  }
  return before > 0 ? last / before - 1 : null;
}

export function maxDrawdown(points: readonly TIndexPoint[]): number {
  let peak = 100;
  let worst = 0;
  for (const p of points) {
    peak = Math.max(peak, p.value);
    if (peak > 0) worst = Math.max(worst, (peak - p.value) / peak);
  }
  return worst;
}

/**
 * Risk 1 to 10 from the standard deviation of the daily returns of the last 90 days (in percent:
 * up to 0.25 → 1, 0.5 → 2, 1 → 3, 1.5 → 4, 2 → 5, 3 → 6, 4 → 7, 6 → 8, 9 → 9, above → 10), one
 * more for an account leverage of 1:500 or higher (at most 10).
 */
export function riskScore(dailyReturns: readonly number[], leverage: number): number {
  const steps = [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 9];
  let sd = 0;
  if (dailyReturns.length > 1) {
    const mean = dailyReturns.reduce((a, b) => a + b, 0) / dailyReturns.length;
    const variance = dailyReturns.reduce((a, b) => a + (b - mean) ** 2, 0) / (dailyReturns.length - 1);
    sd = Math.sqrt(variance) * 100;
  }
  let score = 1;
  for (const step of steps) if (sd > step) score++;
  if (leverage >= 500) score++;
  return Math.min(10, score);
}

/** Deals grouped by position: the closes of one position (partials) as one trade. */
export function tradesOf(deals: readonly TDealRow[]) {
  const byPosition = new Map<number, TDealRow[]>();
  for (const d of deals) {
    const list = byPosition.get(d.positionId) ?? [];
    list.push(d);
    byPosition.set(d.positionId, list);
  }
  return [...byPosition.values()].map((closes) => {
    const first = closes[0]!;
    const volume = closes.reduce((a, d) => a + d.volume, 0);
    const net = closes.reduce((a, d) => a + d.net, 0);
    const closeTime = Math.max(...closes.map((d) => d.closeTime));
    // the volume-weighted close price, in the symbol's integer price units
    const closePrice = Math.round(
      closes.reduce((a, d) => a + d.closePrice * d.volume, 0) / Math.max(1, volume),
    );
    return { ...first, volume, net, closeTime, closePrice, closes };
  });
}

export function computeStats(input: {
  ledger: readonly TLedgerRow[];
  deals: readonly TDealRow[];
  floating: number;
  leverage: number;
  now?: number;
}): { stats: TLeaderStats; points: TIndexPoint[] } {
  const now = input.now ?? Date.now();
  const points = returnIndex(input.ledger, input.floating, now);
  const today = dayOf(now);
  const fmt = (r: number | null) => (r === null ? null : percent(r));
  const trades = tradesOf(input.deals);
  const wins = trades.filter((t) => t.net > 0).length;
  const gains = trades.reduce((a, t) => a + Math.max(0, t.net), 0);
  const losses = trades.reduce((a, t) => a + Math.max(0, -t.net), 0);
  const held = trades.reduce((a, t) => a + Math.max(0, t.closeTime - t.openTime), 0);
  const tradingDays = new Set(input.deals.map((d) => dayOf(d.closeTime))).size;
  const recent = points.filter((p) => p.day > today - 90).map((p) => p.r);
  return {
    points,
    stats: {
      return7d: fmt(returnSince(points, today - 6)),
      return30d: fmt(returnSince(points, today - 29)),
      return90d: fmt(returnSince(points, today - 89)),
      returnAll: fmt(returnSince(points, null)),
      maxDrawdown: percent(maxDrawdown(points)),
      winRate: trades.length === 0 ? null : percent(wins / trades.length),
      profitFactor: losses === 0 ? null : (Math.round((gains / losses) * 100) / 100).toFixed(2),
      avgHoldMinutes: trades.length === 0 ? 0 : Math.round(held / trades.length / 60_000),
      tradingDays,
      totalTrades: trades.length,
      riskScore: riskScore(recent, input.leverage),
    },
  };
}
