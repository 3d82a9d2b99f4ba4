import Big from 'big.js';

/**
 * A-book / B-book routing, pure: given a broker's rules and what is known of an account at order
 * time, which book takes the position. A-book positions are hedged with the liquidity provider;
 * B-book positions stay with the broker (it is the client's counterparty). No rule matching: B.
 */

export type TBook = 'A' | 'B';

export interface TBookRule {
  id: string;
  /** Lower first; ties by id so the order never depends on how rows were read. */
  priority: number;
  kind: 'group' | 'customer' | 'profitability';
  groupId: string | null;
  userId: string | null;
  /** Profitability: realized profit over the window (USD, decimal string) at least this much. */
  minRealizedProfitUsd: string | null;
  /** Profitability: share of the window's deals closed in profit, basis points, at least this. */
  minWinRateBp: number | null;
  /** Profitability: at least this many closed deals in the window (a win rate of 1 deal says little). */
  minTrades: number;
  windowDays: number;
  book: TBook;
  enabled: boolean;
}

/** A customer's closed deals over one window. */
export interface TTradeRecord {
  realizedProfitUsd: string;
  deals: number;
  wins: number;
}

export interface TBookFacts {
  userId: string;
  /** The account's group (the broker's default group when the account has none). */
  groupId: string | null;
  /** The customer's record by window length in days; a missing window counts as no deals. */
  records: ReadonlyMap<number, TTradeRecord>;
}

export interface TBookDecision {
  book: TBook;
  /** The rule that decided, or null for the default. */
  ruleId: string | null;
}

export const DEFAULT_BOOK: TBook = 'B';

const NO_RECORD: TTradeRecord = { realizedProfitUsd: '0', deals: 0, wins: 0 };

/** The enabled rules in the order they are tried. */
export function orderedRules(rules: readonly TBookRule[]): TBookRule[] {
  return rules
    .filter((r) => r.enabled)
    .sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The windows (days) whose records the enabled profitability rules read; empty: no record needed. */
export function windowsNeeded(rules: readonly TBookRule[]): number[] {
  return [
    ...new Set(rules.filter((r) => r.enabled && r.kind === 'profitability').map((r) => r.windowDays)),
  ].sort((a, b) => a - b);
}

/**
 * A profitability rule matches a customer with at least `minTrades` deals in the window whose
 * realized profit reaches the minimum and whose win rate reaches the minimum (each only when set;
 * a rule with neither never matches).
 */
export function matchesProfitability(rule: TBookRule, record: TTradeRecord): boolean {
  if (rule.minRealizedProfitUsd === null && rule.minWinRateBp === null) return false;
  if (record.deals < rule.minTrades) return false;
  if (rule.minRealizedProfitUsd !== null && new Big(record.realizedProfitUsd).lt(rule.minRealizedProfitUsd))
    return false;
  if (rule.minWinRateBp !== null) {
    if (record.deals === 0) return false;
    // wins / deals >= bp / 10000, in integers
    if (record.wins * 10_000 < rule.minWinRateBp * record.deals) return false;
  }
  return true;
}

export function ruleMatches(rule: TBookRule, facts: TBookFacts): boolean {
  switch (rule.kind) {
    case 'group':
      return rule.groupId !== null && rule.groupId === facts.groupId;
    case 'customer':
      return rule.userId !== null && rule.userId === facts.userId;
    case 'profitability':
      return matchesProfitability(rule, facts.records.get(rule.windowDays) ?? NO_RECORD);
  }
}

/** The book of a new position: the first enabled rule (by priority) that matches, else B. */
export function resolveBook(rules: readonly TBookRule[], facts: TBookFacts): TBookDecision {
  for (const rule of orderedRules(rules)) {
    if (ruleMatches(rule, facts)) return { book: rule.book, ruleId: rule.id };
  }
  return { book: DEFAULT_BOOK, ruleId: null };
}
