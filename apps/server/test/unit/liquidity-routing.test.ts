import { describe, expect, it } from 'vitest';
import {
  matchesProfitability,
  resolveBook,
  type TBookFacts,
  type TBookRule,
  type TTradeRecord,
  windowsNeeded,
} from '../../src/modules/liquidity/routing';

/** A rule with overrides (factory: only what a scenario cares about is written). */
const rule = (overrides: Partial<TBookRule> & Pick<TBookRule, 'id' | 'kind' | 'book'>): TBookRule => ({
  priority: 100,
  groupId: null,
  userId: null,
  minRealizedProfitUsd: null,
  minWinRateBp: null,
  minTrades: 0,
  windowDays: 30,
  enabled: true,
  ...overrides,
});

const facts = (overrides: Partial<TBookFacts> = {}): TBookFacts => ({
  userId: 'u-1',
  groupId: 'g-std',
  records: new Map(),
  ...overrides,
});

const record = (realizedProfitUsd: string, deals: number, wins: number): TTradeRecord => ({
  realizedProfitUsd,
  deals,
  wins,
});

describe('A-book / B-book routing', () => {
  it('sends an account to the B-book when no rule matches (or there are none)', () => {
    expect(resolveBook([], facts())).toEqual({ book: 'B', ruleId: null });
    expect(resolveBook([rule({ id: 'r1', kind: 'group', groupId: 'g-vip', book: 'A' })], facts())).toEqual({
      book: 'B',
      ruleId: null,
    });
  });

  it('matches by group and by customer', () => {
    const rules = [
      rule({ id: 'vip', kind: 'group', groupId: 'g-vip', book: 'A' }),
      rule({ id: 'whale', kind: 'customer', userId: 'u-9', book: 'A' }),
    ];
    expect(resolveBook(rules, facts({ groupId: 'g-vip' }))).toEqual({ book: 'A', ruleId: 'vip' });
    expect(resolveBook(rules, facts({ userId: 'u-9' }))).toEqual({ book: 'A', ruleId: 'whale' });
    expect(resolveBook(rules, facts({ userId: 'u-2' })).book).toBe('B');
  });

  it('takes the first matching rule by priority, whatever the order of the list', () => {
    const keepInHouse = rule({ id: 'z-keep', kind: 'customer', userId: 'u-1', book: 'B', priority: 5 });
    const hedgeGroup = rule({ id: 'a-hedge', kind: 'group', groupId: 'g-std', book: 'A', priority: 10 });
    expect(resolveBook([hedgeGroup, keepInHouse], facts())).toEqual({ book: 'B', ruleId: 'z-keep' });
    expect(resolveBook([keepInHouse, hedgeGroup], facts())).toEqual({ book: 'B', ruleId: 'z-keep' });
    // same priority: the id decides, so the answer never depends on row order
    const tieA = rule({ id: 'b', kind: 'group', groupId: 'g-std', book: 'A', priority: 10 });
    const tieB = rule({ id: 'c', kind: 'group', groupId: 'g-std', book: 'B', priority: 10 });
    expect(resolveBook([tieB, tieA], facts()).ruleId).toBe('b');
  });

  it('skips disabled rules', () => {
    const rules = [
      rule({ id: 'off', kind: 'customer', userId: 'u-1', book: 'A', priority: 1, enabled: false }),
      rule({ id: 'on', kind: 'group', groupId: 'g-std', book: 'B', priority: 2 }),
    ];
    expect(resolveBook(rules, facts())).toEqual({ book: 'B', ruleId: 'on' });
  });

  it('hedges profitable customers: realized profit over the window at least X', () => {
    const profitable = rule({
      id: 'winners',
      kind: 'profitability',
      book: 'A',
      minRealizedProfitUsd: '5000.00',
      windowDays: 30,
    });
    const at = (profit: string) =>
      resolveBook([profitable], facts({ records: new Map([[30, record(profit, 12, 7)]]) })).book;
    expect(at('4999.99')).toBe('B');
    expect(at('5000.00')).toBe('A');
    expect(at('123456.78')).toBe('A');
    // another window's record does not count
    expect(resolveBook([profitable], facts({ records: new Map([[7, record('9000', 3, 3)]]) })).book).toBe(
      'B',
    );
  });

  it('hedges by win rate only with enough trades', () => {
    const sharp = rule({
      id: 'sharp',
      kind: 'profitability',
      book: 'A',
      minWinRateBp: 6_000,
      minTrades: 20,
      windowDays: 7,
    });
    const check = (deals: number, wins: number) =>
      resolveBook([sharp], facts({ records: new Map([[7, record('-10', deals, wins)]]) })).book;
    expect(check(19, 19)).toBe('B'); // too few trades to judge
    expect(check(20, 12)).toBe('A'); // exactly 60 %
    expect(check(20, 11)).toBe('B'); // 55 %
    expect(check(0, 0)).toBe('B');
  });

  it('needs every condition a profitability rule sets', () => {
    const both = rule({
      id: 'both',
      kind: 'profitability',
      book: 'A',
      minRealizedProfitUsd: '1000',
      minWinRateBp: 5_000,
      minTrades: 10,
    });
    expect(matchesProfitability(both, record('1500', 10, 6))).toBe(true);
    expect(matchesProfitability(both, record('1500', 10, 4))).toBe(false);
    expect(matchesProfitability(both, record('900', 10, 9))).toBe(false);
    expect(matchesProfitability(both, record('1500', 9, 9))).toBe(false);
    const empty = rule({ id: 'empty', kind: 'profitability', book: 'A' });
    expect(matchesProfitability(empty, record('1000000', 100, 100))).toBe(false);
  });

  it('tells which windows of trade records the rules need', () => {
    expect(
      windowsNeeded([
        rule({ id: '1', kind: 'profitability', book: 'A', minWinRateBp: 1, windowDays: 30 }),
        rule({ id: '2', kind: 'profitability', book: 'A', minWinRateBp: 1, windowDays: 7 }),
        rule({ id: '3', kind: 'profitability', book: 'A', minWinRateBp: 1, windowDays: 30 }),
        rule({ id: '4', kind: 'profitability', book: 'A', minWinRateBp: 1, windowDays: 90, enabled: false }),
        rule({ id: '5', kind: 'group', book: 'A', groupId: 'g', windowDays: 14 }),
      ]),
    ).toEqual([7, 30]);
    expect(windowsNeeded([rule({ id: '5', kind: 'group', book: 'A', groupId: 'g' })])).toEqual([]);
  });
});
