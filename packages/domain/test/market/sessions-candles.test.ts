import { describe, expect, it } from 'vitest';
import { aggregateCandles, CandleAggregator } from '../../src/market/candles';
import { DEFAULT_INSTRUMENTS } from '../../src/market/instruments';
import {
  isOpenAt,
  SESSION_CRYPTO,
  SESSION_DAILY_BREAK,
  SESSION_EU_INDEX,
  SESSION_FX,
  SESSION_HK_INDEX,
  SESSION_JP_INDEX,
  sessionOpenedAt,
} from '../../src/market/sessions';

const at = (iso: string) => Date.parse(iso);

describe('trading sessions', () => {
  it('opens forex on Sunday 22:00 UTC and closes it on Friday 22:00 UTC', () => {
    expect(isOpenAt(SESSION_FX, at('2026-11-22T21:59:00Z'))).toBe(false);
    expect(isOpenAt(SESSION_FX, at('2026-11-22T22:00:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_FX, at('2026-11-25T03:00:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_FX, at('2026-11-27T21:59:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_FX, at('2026-11-27T22:00:00Z'))).toBe(false);
    expect(isOpenAt(SESSION_FX, at('2026-11-28T12:00:00Z'))).toBe(false);
  });
  it('gives crude oil and US indices a daily break at 21:00 UTC', () => {
    expect(isOpenAt(SESSION_DAILY_BREAK, at('2026-11-24T20:59:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_DAILY_BREAK, at('2026-11-24T21:30:00Z'))).toBe(false);
    expect(isOpenAt(SESSION_DAILY_BREAK, at('2026-11-24T22:00:00Z'))).toBe(true);
    expect(sessionOpenedAt(SESSION_DAILY_BREAK, at('2026-11-24T22:03:00Z'))).toBe(at('2026-11-24T22:00:00Z'));
  });
  it('keeps crypto open always and European indices in European hours', () => {
    expect(isOpenAt(SESSION_CRYPTO, at('2026-11-28T12:00:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_EU_INDEX, at('2026-11-24T06:59:00Z'))).toBe(false);
    expect(isOpenAt(SESSION_EU_INDEX, at('2026-11-24T07:00:00Z'))).toBe(true);
  });
  it('keeps Tokyo and Hong Kong in their own cash hours', () => {
    // Tokyo 09:00–15:30 JST is 00:00–06:30 UTC; Hong Kong 09:30–16:00 HKT is 01:30–08:00 UTC.
    expect(isOpenAt(SESSION_JP_INDEX, at('2026-11-24T00:00:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_JP_INDEX, at('2026-11-24T06:30:00Z'))).toBe(false);
    expect(isOpenAt(SESSION_HK_INDEX, at('2026-11-24T01:29:00Z'))).toBe(false);
    expect(isOpenAt(SESSION_HK_INDEX, at('2026-11-24T07:30:00Z'))).toBe(true);
    expect(isOpenAt(SESSION_HK_INDEX, at('2026-11-24T08:00:00Z'))).toBe(false);
    // Closed at the weekend (Saturday 02:00 UTC).
    expect(isOpenAt(SESSION_HK_INDEX, at('2026-11-28T02:00:00Z'))).toBe(false);
    const hk = DEFAULT_INSTRUMENTS.find((i) => i.symbol === 'HK50');
    expect(hk?.sessions).toBe(SESSION_HK_INDEX);
  });
});

describe('instrument catalogue', () => {
  it('has the breadth the platform promises', () => {
    const count = (category: string) => DEFAULT_INSTRUMENTS.filter((i) => i.category === category).length;
    expect(count('forex')).toBeGreaterThanOrEqual(28);
    expect(count('indices')).toBeGreaterThanOrEqual(5);
    expect(count('crypto')).toBeGreaterThanOrEqual(10);
    expect(DEFAULT_INSTRUMENTS.map((i) => i.symbol)).toEqual(
      expect.arrayContaining(['XAUUSD', 'XAGUSD', 'USOIL', 'UKOIL']),
    );
    expect(new Set(DEFAULT_INSTRUMENTS.map((i) => i.symbol)).size).toBe(DEFAULT_INSTRUMENTS.length);
    for (const i of DEFAULT_INSTRUMENTS) {
      expect(Number(i.minVolume)).toBeLessThanOrEqual(Number(i.maxVolume));
      expect(Number(i.volumeStep)).toBeGreaterThan(0);
      expect(i.sessions.length).toBeGreaterThan(0);
    }
  });
});

describe('candle aggregation', () => {
  it('builds every timeframe from ticks and rolls over at boundaries', () => {
    const agg = new CandleAggregator('UTC', ['M1', 'H1']);
    agg.apply('X', at('2026-11-24T10:00:05Z'), 100);
    agg.apply('X', at('2026-11-24T10:00:30Z'), 105);
    agg.apply('X', at('2026-11-24T10:00:50Z'), 98);
    const updates = agg.apply('X', at('2026-11-24T10:01:01Z'), 101);
    expect(updates.map((u) => u.timeframe)).toEqual(['M1', 'H1']);
    expect(updates[0]?.candle).toEqual({
      time: at('2026-11-24T10:01:00Z'),
      open: 101,
      high: 101,
      low: 101,
      close: 101,
      volume: 1,
    });
    expect(agg.currentCandle('X', 'H1')).toEqual({
      time: at('2026-11-24T10:00:00Z'),
      open: 100,
      high: 105,
      low: 98,
      close: 101,
      volume: 4,
    });
    // A late tick for a closed candle does not reopen it.
    expect(agg.apply('X', at('2026-11-24T10:00:59Z'), 500).map((u) => u.timeframe)).toEqual(['H1']);
  });
  it('merges fine candles into coarse ones', () => {
    const m1 = [0, 1, 2, 3, 4, 5].map((i) => ({
      time: i * 60_000,
      open: 10 + i,
      high: 20 + i,
      low: 5 - i,
      close: 11 + i,
      volume: 1,
    }));
    expect(aggregateCandles(m1, 'M5')).toEqual([
      { time: 0, open: 10, high: 24, low: 1, close: 15, volume: 5 },
      { time: 300_000, open: 15, high: 25, low: 0, close: 16, volume: 1 },
    ]);
  });
});
