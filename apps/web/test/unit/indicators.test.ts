import { describe, expect, it } from 'vitest';
import {
  defaultParams,
  INDICATOR_KINDS,
  INDICATOR_SPECS,
  IndicatorRun,
  paramsProblem,
  type TIndicatorKind,
} from '../../src/features/trade/indicators';
import type { TCandle } from '../../src/lib/market-stream';

const MINUTE = 60_000;

/** A deterministic walk of bars. */
function bars(count: number, seed = 7): TCandle[] {
  let x = seed;
  const rand = () => {
    x = (x * 16807) % 2147483647;
    return x / 2147483647;
  };
  let price = 100;
  return Array.from({ length: count }, (_, i) => {
    const open = price;
    price = Math.max(1, price + (rand() - 0.5) * 2);
    const high = Math.max(open, price) + rand();
    const low = Math.min(open, price) - rand();
    return {
      time: i * MINUTE,
      open: open.toFixed(2),
      high: high.toFixed(2),
      low: low.toFixed(2),
      close: price.toFixed(2),
      volume: Math.round(rand() * 100),
    };
  });
}

/** The bar after `n` ticks: the close moves, the high and low widen to hold it, the volume grows. */
function tick(candle: TCandle, close: number): TCandle {
  return {
    ...candle,
    close: close.toFixed(2),
    high: Math.max(Number(candle.high), close).toFixed(2),
    low: Math.min(Number(candle.low), close).toFixed(2),
    volume: candle.volume + 1,
  };
}

const full = (kind: TIndicatorKind, params: number[], candles: TCandle[]) => {
  const run = new IndicatorRun(kind, params);
  run.sync(candles);
  return run.values;
};

describe('indicators computed incrementally on live bars', () => {
  for (const kind of INDICATOR_KINDS) {
    it(`${kind}: after live ticks and new bars equals a full recomputation`, () => {
      const history = bars(120);
      const params = defaultParams(kind);
      const run = new IndicatorRun(kind, params);
      expect(run.sync(history.slice(0, 80))).toBe('full');
      let candles = history.slice(0, 80);
      for (let i = 80; i < 120; i++) {
        // A new bar opens, then ticks move its close several times.
        candles = [...candles, history[i] as TCandle];
        expect(run.sync(candles)).toBe('appended');
        for (let t = 0; t < 5; t++) {
          const last = candles[candles.length - 1] as TCandle;
          candles = [...candles.slice(0, -1), tick(last, Number(last.close) + (t % 2 ? 0.37 : -0.21))];
          expect(run.sync(candles)).toBe('last');
        }
      }
      const expected = full(kind, params, candles);
      expect(run.values).toHaveLength(expected.length);
      for (const [i, values] of expected.entries()) {
        for (const [line, value] of Object.entries(values)) {
          const got = run.values[i]?.[line];
          if (value === null) expect(got).toBeNull();
          else expect(got).toBeCloseTo(value, 9);
        }
      }
      // Enough bars give every line a value at the end.
      for (const value of Object.values(expected[expected.length - 1] ?? {})) expect(value).not.toBeNull();
    });
  }

  it('recomputes from the first bar when older bars arrive in front or the symbol changes', () => {
    const history = bars(60);
    const run = new IndicatorRun('sma', [5]);
    run.sync(history.slice(20));
    expect(run.sync(history)).toBe('full');
    expect(run.values).toEqual(full('sma', [5], history));
    expect(run.sync(bars(60, 99))).toBe('full');
  });

  it('matches the definitions: SMA of closes, RSI within 0..100, volume as is', () => {
    const history = bars(40);
    const sma = full('sma', [3], history);
    const closes = history.map((c) => Number(c.close));
    expect(sma[1]?.value).toBeNull();
    expect(sma[10]?.value).toBeCloseTo(((closes[8] ?? 0) + (closes[9] ?? 0) + (closes[10] ?? 0)) / 3, 9);
    for (const v of full('rsi', [14], history)) {
      if (v.value !== null) expect(v.value).toBeGreaterThanOrEqual(0);
      if (v.value !== null) expect(v.value).toBeLessThanOrEqual(100);
    }
    expect(full('ema', [10], history)[8]?.value).toBeNull();
    expect(full('ema', [10], history)[9]?.value).not.toBeNull();
    expect(full('volume', [], history).map((v) => v.value)).toEqual(history.map((c) => c.volume));
  });
});

describe('indicator parameters', () => {
  it('accepts every default', () => {
    for (const kind of INDICATOR_KINDS) expect(paramsProblem(kind, defaultParams(kind))).toBeNull();
  });

  it('refuses values out of range, off their step, not numbers, or the wrong count', () => {
    expect(paramsProblem('sma', [0])).toBe('period');
    expect(paramsProblem('sma', [501])).toBe('period');
    expect(paramsProblem('sma', [2.5])).toBe('period');
    expect(paramsProblem('sma', [Number.NaN])).toBe('period');
    expect(paramsProblem('sma', [])).toBe('count');
    expect(paramsProblem('bollinger', [20, 2.5])).toBeNull();
    expect(paramsProblem('bollinger', [20, 2.2])).toBe('deviation');
    expect(paramsProblem('volume', [3])).toBe('count');
  });

  it('refuses a MACD whose fast period is not shorter than its slow one', () => {
    expect(paramsProblem('macd', [26, 26, 9])).toBe('fast');
    expect(paramsProblem('macd', [12, 26, 9])).toBeNull();
    expect(() => new IndicatorRun('macd', [30, 26, 9])).toThrow(RangeError);
  });

  it('names bounds for every parameter', () => {
    for (const kind of INDICATOR_KINDS)
      for (const p of INDICATOR_SPECS[kind].params) expect(p.min).toBeLessThanOrEqual(p.default);
  });
});
