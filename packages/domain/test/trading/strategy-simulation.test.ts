import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountType, TradeType } from '../../src/trading/calculations';
import type { TGridParamsInput, TMartingaleParamsInput } from '../../src/trading/engine-core';
import { simulateStrategy, type TPathPoint, worstCasePath } from '../../src/trading/strategy-simulation';
import { engineConfig, WED_NOON } from './harness';

const config = engineConfig();
/** Today's quotes: EURUSD 1.08420 / 1.08430. */
const QUOTES = [{ symbol: 'EURUSD', bid: 108_420, ask: 108_430, time: WED_NOON }];
const ACCOUNT = {
  accountType: AccountType.DEMO,
  tradeType: TradeType.STANDARD,
  currency: 'USD',
  leverage: 100,
  profile: null,
  marginCallBp: 10_000,
  stopOutBp: 5_000,
  negativeBalanceProtection: true,
};
/** A long grid 1.08000–1.08400, 4 cells of 100 points, 0.10 lot each. */
const GRID: TGridParamsInput = {
  symbol: 'EURUSD',
  direction: 'long',
  lowerPrice: 108_000,
  upperPrice: 108_400,
  grids: 4,
  spacing: 'arithmetic',
  volumePerGrid: 10,
};
const run = (
  spec: Parameters<typeof simulateStrategy>[0]['spec'],
  path: TPathPoint[],
  investment = 100_000,
) =>
  simulateStrategy({ config, quotes: QUOTES, account: ACCOUNT, investment, spec, path, startTime: WED_NOON });

describe('strategy simulators', () => {
  it('walks a long grid through and beyond its range: every cell filled, then the margin call and the stop-out', () => {
    // 1.08420 down to 1.06000, 2,420 points in 242 steps
    const path = worstCasePath({ bid: 108_420, ask: 108_430, to: 106_000, steps: 242, startTime: WED_NOON });
    const worst = run({ kind: 'grid', params: GRID }, path, 100_000);
    expect(worst.refused).toBeNull();
    // four cells of 0.10 lot bought at 1.08300, 1.08200, 1.08100, 1.08000: 10,000 EUR each at 1:100
    // holds 100 EUR, 108.30 + 108.20 + 108.10 + 108.00 = 432.60 USD
    expect(worst.maxMargin).toBe(43_260);
    // 1,000.00 invested; the four buys (average 1.08150) lose 40,000 x the fall: the margin level
    // reaches 100 % when equity = 432.60, about 1.06731 (1.08150 - 567.40 / 40,000), and 50 % (the
    // stop-out) at 216.30, about 1.06191 (the walk moves 10 points a step)
    expect(worst.marginCallPrice).toBeGreaterThanOrEqual(106_720);
    expect(worst.marginCallPrice).toBeLessThanOrEqual(106_740);
    expect(worst.stopOutPrice).toBeGreaterThanOrEqual(106_180);
    expect(worst.stopOutPrice).toBeLessThanOrEqual(106_200);
    expect(worst.minEquity).toBeLessThan(25_000);
  });

  it('refuses what the engine refuses, and says so', () => {
    const path = worstCasePath({ bid: 108_420, ask: 108_430, to: 107_000, steps: 10, startTime: WED_NOON });
    expect(run({ kind: 'grid', params: { ...GRID, grids: 1 } }, path).refused).toBe('STRATEGY_INVALID');
  });

  it('runs a martingale through all its adds', () => {
    const params: TMartingaleParamsInput = {
      symbol: 'EURUSD',
      direction: 'long',
      firstVolume: 10,
      stepBp: 50,
      multiplierBp: 20_000,
      maxAdds: 3,
      takeProfitBp: 50,
      cycle: 'stop',
    };
    // first buy at 1.08430; adds at -0.5 %, -1 %, -1.5 % of it (1.07887, 1.07345, 1.06803)
    const path = worstCasePath({ bid: 108_420, ask: 108_430, to: 105_000, steps: 342, startTime: WED_NOON });
    const worst = run({ kind: 'martingale', params }, path, 1_000_000);
    expect(worst.refused).toBeNull();
    // 0.10 + 0.20 + 0.40 + 0.80 = 1.50 lot open at the worst: a margin of about 1,610 USD at 1:100
    expect(worst.maxMargin).toBeGreaterThan(160_000);
    expect(worst.maxMargin).toBeLessThan(163_000);
  });

  it('the live bot never holds more margin than the worst case says, on any path (a grid without trailing)', () => {
    const worst = run(
      { kind: 'grid', params: GRID },
      worstCasePath({ bid: 108_420, ask: 108_430, to: 100_000, steps: 800, startTime: WED_NOON }),
      1_000_000,
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -60, max: 60 }), { minLength: 20, maxLength: 200 }), (moves) => {
        let bid = 108_420;
        const path = moves.map((move, i) => {
          bid = Math.max(106_000, Math.min(110_000, bid + move));
          return { bid, ask: bid + 10, time: WED_NOON + (i + 1) * 1_000 };
        });
        const live = run({ kind: 'grid', params: GRID }, path, 1_000_000);
        expect(live.maxMargin).toBeLessThanOrEqual(worst.maxMargin);
      }),
      { numRuns: 60 },
    );
  });
});
