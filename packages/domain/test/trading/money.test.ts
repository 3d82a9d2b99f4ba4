import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTRUMENTS, instrumentBySymbol } from '../../src/market/instruments';
import { compileInstrument } from '../../src/trading/instrument-terms';
import {
  applyMarkup,
  commissionMinor,
  conversionPath,
  conversionRates,
  convert,
  divide,
  formatMoney,
  marginMinor,
  mulDiv,
  mulMulDiv,
  parseScaled,
  pointValue,
  profitMinor,
  rate,
  swapMinor,
  swapMultiplier,
  type TConversion,
  type TQuote,
} from '../../src/trading/money';

/** Reference rounding on BigInt, written independently of the code under test. */
function reference(n: bigint, d: bigint, rounding: 'half_up' | 'ceil' | 'floor'): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const floor = n >= 0n ? n / d : -((-n + d - 1n) / d);
  const rest = n - floor * d; // 0 <= rest < d
  if (rest === 0n) return floor;
  if (rounding === 'floor') return floor;
  if (rounding === 'ceil') return floor + 1n;
  if (2n * rest > d) return floor + 1n;
  if (2n * rest < d) return floor;
  return n > 0n ? floor + 1n : floor; // the tie goes away from zero
}

describe('divide: explicit rounding', () => {
  it.each([
    [5, 2, 'half_up', 3],
    [-5, 2, 'half_up', -3],
    [7, 2, 'half_up', 4],
    [-7, 2, 'half_up', -4],
    [4, 3, 'half_up', 1],
    [5, 3, 'half_up', 2],
    [-4, 3, 'half_up', -1],
    [-5, 3, 'half_up', -2],
    [1, 2, 'half_up', 1],
    [-1, 2, 'half_up', -1],
    [1, 3, 'half_up', 0],
    [0, 7, 'half_up', 0],
    [5, -2, 'half_up', -3],
    [1, 3, 'ceil', 1],
    [-1, 3, 'ceil', 0],
    [1, 3, 'floor', 0],
    [-1, 3, 'floor', -1],
    [9, 3, 'ceil', 3],
  ] as const)('%i / %i rounded %s is %i', (n, d, rounding, expected) => {
    expect(divide(n, d, rounding)).toBe(expected);
  });

  it('rounds half away from zero like big.js roundHalfUp, never to even', () => {
    expect([divide(25, 10), divide(35, 10), divide(-25, 10), divide(-35, 10)]).toEqual([3, 4, -3, -4]);
  });

  it('agrees with an exact BigInt reference over the whole safe range', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger(),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('half_up' as const, 'ceil' as const, 'floor' as const),
        (n, d, rounding) => {
          expect(divide(n, d, rounding)).toBe(Number(reference(BigInt(n), BigInt(d), rounding)));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('stays exact when the product leaves the safe range (BigInt fallback)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.integer({ min: 2 ** 20, max: 2 ** 40 }),
        (a, b, d) => {
          const exact = reference(BigInt(a) * BigInt(b), BigInt(d), 'half_up');
          if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < -BigInt(Number.MAX_SAFE_INTEGER)) return;
          expect(mulDiv(a, b, d)).toBe(Number(exact));
          expect(mulMulDiv(a, b, 1, d, 1)).toBe(Number(exact));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses a result it cannot represent exactly', () => {
    expect(() => mulDiv(2 ** 52, 2 ** 52, 1)).toThrow(RangeError);
  });
});

describe('decimal parsing and formatting', () => {
  it.each([
    ['0.01', 2, 1],
    ['0.1', 2, 10],
    ['100', 2, 10_000],
    ['-6.5', 2, -650],
    ['-0.05', 2, -5],
    ['22.1', 2, 2_210],
    ['1.50', 1, 15],
  ] as const)('%s at %i places is %i', (text, decimals, expected) => {
    expect(parseScaled(text, decimals)).toBe(expected);
  });

  it('rejects more precision than asked for and non-numbers', () => {
    expect(() => parseScaled('0.001', 2)).toThrow();
    expect(() => parseScaled('1e3', 2)).toThrow();
  });

  it('formats minor units with two decimals', () => {
    expect([formatMoney(123_456), formatMoney(-5), formatMoney(0)]).toEqual(['1234.56', '-0.05', '0.00']);
  });
});

const has = (symbol: string) => DEFAULT_INSTRUMENTS.some((i) => i.symbol === symbol);
const quotes: Record<string, TQuote> = {
  EURUSD: { bid: 108_420, ask: 108_430, digits: 5 },
  USDJPY: { bid: 151_420, ask: 151_430, digits: 3 },
  GBPUSD: { bid: 126_700, ask: 126_710, digits: 5 },
  EURJPY: { bid: 164_170, ask: 164_190, digits: 3 },
};
const quoteOf = (symbol: string) => quotes[symbol];

describe('currency conversion', () => {
  it.each([
    ['USD', 'USD', []],
    ['EUR', 'USD', [{ kind: 'direct', symbol: 'EURUSD' }]],
    ['USD', 'EUR', [{ kind: 'inverse', symbol: 'EURUSD' }]],
    ['JPY', 'USD', [{ kind: 'inverse', symbol: 'USDJPY' }]],
    ['JPY', 'EUR', [{ kind: 'inverse', symbol: 'EURJPY' }]],
    ['CHF', 'GBP', [{ kind: 'inverse', symbol: 'GBPCHF' }]],
    [
      'ZAR',
      'EUR',
      [
        { kind: 'inverse', symbol: 'USDZAR' },
        { kind: 'inverse', symbol: 'EURUSD' },
      ],
    ],
    ['USDT', 'USD', [{ kind: 'peg', rate: { num: 1, den: 1 } }]],
    ['USD', 'USC', [{ kind: 'peg', rate: { num: 100, den: 1 } }]],
    [
      'JPY',
      'USC',
      [
        { kind: 'inverse', symbol: 'USDJPY' },
        { kind: 'peg', rate: { num: 100, den: 1 } },
      ],
    ],
  ] as const)('%s -> %s goes through %j', (from, to, steps) => {
    expect(conversionPath(from, to, has)).toEqual(steps);
  });

  it('has no path for a currency without pairs', () => {
    expect(conversionPath('XYZ', 'USD', has)).toBeUndefined();
  });

  it('prices a direct pair at bid (low) and ask (high), an inverse pair at 1/ask and 1/bid', () => {
    expect(conversionRates(conversionPath('EUR', 'USD', has)!, quoteOf)).toEqual({
      low: rate(108_420, 100_000),
      high: rate(108_430, 100_000),
    });
    expect(conversionRates(conversionPath('JPY', 'USD', has)!, quoteOf)).toEqual({
      low: rate(1_000, 151_430),
      high: rate(1_000, 151_420),
    });
  });

  it('is undefined while a quote is missing', () => {
    expect(conversionRates(conversionPath('AUD', 'USD', has)!, quoteOf)).toBeUndefined();
  });

  it('always converts with the rate worse for the client', () => {
    const eurToUsd = conversionRates(conversionPath('EUR', 'USD', has)!, quoteOf)!;
    expect(convert(100_000, eurToUsd)).toBe(108_420); // a gain at the bid
    expect(convert(-100_000, eurToUsd)).toBe(-108_430); // a loss at the ask
  });
});

const terms = (symbol: string) => compileInstrument(instrumentBySymbol(symbol)!);
const USD: TConversion = { low: rate(1, 1), high: rate(1, 1) };

describe('point value and profit', () => {
  it.each([
    ['EURUSD', { num: 1, den: 1 }],
    ['USDJPY', { num: 100, den: 1 }],
    ['XAUUSD', { num: 1, den: 1 }],
    ['XAGUSD', { num: 5, den: 1 }],
    ['USOIL', { num: 10, den: 1 }],
    ['US500', { num: 1, den: 10 }],
    ['JP225', { num: 1, den: 1 }],
    ['BTCUSDT', { num: 1, den: 100 }],
    ['DOGEUSDT', { num: 1, den: 1_000_000 }],
  ])('%s moves %j minor units per point per 0.01 lot', (symbol, point) => {
    expect(terms(symbol).point).toEqual(point);
    expect(pointValue(terms(symbol).contractSize, terms(symbol).digits)).toEqual(point);
  });

  it.each([
    // symbol, diff in points, volume, expected minor units of the profit currency
    ['EURUSD', 100, 100, 10_000], // 10 pips on a lot: 100 USD
    ['USDJPY', 100, 100, 1_000_000], // 0.1 JPY on a lot: 10,000 JPY
    ['XAUUSD', 100, 100, 10_000], // 1 USD on 100 oz
    ['US500', 10, 10, 10], // 1 point on 0.1 contract: 0.10 USD
    ['BTCUSDT', 100, 1, 1], // 1 USDT on 0.01 BTC: 0.01 USDT
    ['BTCUSDT', 50, 1, 1], // half a cent rounds away from zero
    ['BTCUSDT', -50, 1, -1],
    ['BTCUSDT', 49, 1, 0],
  ] as const)('%s: %i points on %i is %i', (symbol, diff, volume, expected) => {
    expect(profitMinor(diff, volume, terms(symbol).point, USD)).toBe(expected);
  });
});

describe('margin', () => {
  it('takes base-currency margin without a price and converts it at the high rate', () => {
    const eurToUsd = conversionRates(conversionPath('EUR', 'USD', has)!, quoteOf)!;
    const t = terms('EURUSD');
    const margin = marginMinor({
      volume: 100,
      contractSize: t.contractSize,
      digits: t.digits,
      price: 0,
      marginInQuote: false,
      leverage: 100,
      conversion: eurToUsd,
    });
    expect(margin).toBe(108_430);
  });

  it('takes quote-currency margin from the price and rounds up', () => {
    const t = terms('US500');
    expect(
      marginMinor({
        volume: 100,
        contractSize: t.contractSize,
        digits: t.digits,
        price: 52_319,
        marginInQuote: true,
        leverage: 20,
        conversion: USD,
      }),
    ).toBe(26_160);
  });

  it('never rounds a margin down to zero', () => {
    const t = terms('DOGEUSDT');
    expect(
      marginMinor({
        volume: 1,
        contractSize: t.contractSize,
        digits: t.digits,
        price: 158_231,
        marginInQuote: true,
        leverage: 10,
        conversion: USD,
      }),
    ).toBe(1);
  });
});

describe('commission, swap and markup', () => {
  it('charges commission pro rata per lot, rounded half-up', () => {
    expect([
      commissionMinor(100, 700),
      commissionMinor(1, 700),
      commissionMinor(1, 350),
      commissionMinor(1, 349),
    ]).toEqual([700, 7, 4, 3]);
  });

  it.each([
    ['forex', 3, 3],
    ['metals', 3, 3],
    ['energy', 5, 3],
    ['indices', 5, 3],
    ['forex', 5, 1],
    ['energy', 3, 1],
    ['forex', 6, 0],
    ['indices', 0, 0],
    ['crypto', 6, 1],
    ['crypto', 3, 1],
  ] as const)('a %s rollover on weekday %i counts %i nights', (category, weekday, nights) => {
    expect(swapMultiplier(category, weekday)).toBe(nights);
  });

  it('computes swap in points per lot, converted and rounded once', () => {
    const t = terms('XAUUSD');
    expect(
      swapMinor({
        volume: 100,
        swapCentiPoints: t.swapLongCentiPoints,
        point: t.point,
        multiplier: 1,
        conversion: USD,
      }),
    ).toBe(-4_520); // -45.2 points on 100 oz = -45.20 USD
    expect(
      swapMinor({
        volume: 1,
        swapCentiPoints: -5,
        point: terms('BTCUSDT').point,
        multiplier: 1,
        conversion: USD,
      }),
    ).toBe(0);
  });

  it('widens the spread by exactly the markup, half on each side', () => {
    expect(applyMarkup(1_000, 1_010, 5)).toEqual({ bid: 998, ask: 1_013 });
    expect(applyMarkup(1_000, 1_010, 0)).toEqual({ bid: 1_000, ask: 1_010 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 0, max: 1e4 }),
        fc.nat(1e4),
        (bid, spread, m) => {
          const q = applyMarkup(bid, bid + spread, m);
          expect(q.ask - q.bid).toBe(spread + m);
        },
      ),
    );
  });
});

describe('profit far outside everyday sizes', () => {
  it('stays exact when diff x volume alone leaves the safe range', () => {
    const huge: TConversion = { low: rate(1, 1_000_000), high: rate(1, 1_000_000) };
    // 2^40 points x 2^20 volume = 2^60, over 10^6: exact, and far from any float rounding
    const expected = reference(2n ** 60n, 1_000_000n, 'half_up');
    expect(profitMinor(2 ** 40, 2 ** 20, { num: 1, den: 1 }, huge)).toBe(Number(expected));
  });
});
