import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AccountType,
  accountProfit,
  marginLevelBp,
  marginLevelText,
  type TAccountFigures,
  TradeType,
  totalEquity,
  usableMargin,
} from '../../src/trading/calculations';

function figures(overrides: Partial<TAccountFigures> = {}): TAccountFigures {
  return {
    accountType: AccountType.REAL,
    tradeType: TradeType.STANDARD,
    balance: 100_000,
    totalProfit: -2_500,
    totalMargin: 20_000,
    followEquity: 0,
    strategyEquity: 0,
    initMoney: 100_000,
    totalInAmount: 0,
    totalOutAmount: 0,
    ...overrides,
  };
}

describe('total equity (spec 5)', () => {
  it('is balance + total profit + follow_equity + strategy equity', () => {
    expect(totalEquity(figures({ followEquity: 3_000, strategyEquity: 1_500 }))).toBe(
      100_000 - 2_500 + 3_000 + 1_500,
    );
  });
});

describe('usable margin (spec 5)', () => {
  it.each([
    ['trade type 1 ignores floating profit', { tradeType: TradeType.NOVICE }, 100_000 - 20_000],
    ['trade type 1 ignores a floating gain too', { tradeType: TradeType.NOVICE, totalProfit: 9_000 }, 80_000],
    ['trade type 2 is balance + profit - margin', {}, 100_000 - 2_500 - 20_000],
    ['demo accounts follow their trade type', { accountType: AccountType.DEMO }, 77_500],
    ['MT4 uses the free margin', { accountType: AccountType.MT4, mtFreeMargin: 12_345 }, 12_345],
    ['MT5 uses the free margin', { accountType: AccountType.MT5, mtFreeMargin: -7 }, -7],
  ])('%s', (_name, overrides, expected) => {
    expect(usableMargin(figures(overrides))).toBe(expected);
  });
});

describe('margin level (spec 5)', () => {
  it.each([
    ['non-MT: total equity / total margin', {}, 48_750, '4.8750'],
    ['non-MT counts follow and strategy equity', { followEquity: 2_500 }, 50_000, '5.0000'],
    ['non-MT without margin is 0', { totalMargin: 0 }, 0, '0.0000'],
    ['non-MT with negative margin is 0', { totalMargin: -5 }, 0, '0.0000'],
    ['non-MT rounds half-up', { balance: 2, totalProfit: 0, totalMargin: 3 }, 6_667, '0.6667'],
    [
      'MT: equity / margin x 100 to 2 decimals',
      { accountType: AccountType.MT4, mtEquity: 97_500, mtMargin: 20_000 },
      48_750,
      '487.50',
    ],
    ['MT without margin is 0', { accountType: AccountType.MT5, mtEquity: 97_500, mtMargin: 0 }, 0, '0.00'],
    ['MT rounds half-up', { accountType: AccountType.MT5, mtEquity: 1, mtMargin: 3 }, 3_333, '33.33'],
  ])('%s', (_name, overrides, bp, text) => {
    expect(marginLevelBp(figures(overrides))).toBe(bp);
    expect(marginLevelText(figures(overrides))).toBe(text);
  });
});

describe('account profit (spec 5)', () => {
  it('is total_equity - init_money + total_in_amount + total_out_amount for non-MT accounts', () => {
    // 1,000 start, 500 paid in (recorded -500), 200 paid out (recorded +200), equity 1,400: 100 earned
    expect(
      accountProfit(
        figures({
          balance: 140_000,
          totalProfit: 0,
          initMoney: 100_000,
          totalInAmount: -50_000,
          totalOutAmount: 20_000,
        }),
      ),
    ).toBe(10_000);
  });

  it('takes the profit field for MT accounts', () => {
    expect(accountProfit(figures({ accountType: AccountType.MT4, mtProfit: 4_321 }))).toBe(4_321);
  });

  it('is zero for an account that only moved money', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e10 }),
        fc.integer({ min: 0, max: 1e10 }),
        fc.integer({ min: 0, max: 1e10 }),
        (init, paidIn, paidOut) => {
          const f = figures({
            balance: init + paidIn - paidOut,
            totalProfit: 0,
            initMoney: init,
            totalInAmount: -paidIn,
            totalOutAmount: paidOut,
          });
          expect(accountProfit(f)).toBe(0);
        },
      ),
    );
  });
});
