import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { describe, expect, it } from 'vitest';
import { SimulatorFeed } from '../../src/modules/market/feed/simulator';

const at = (iso: string) => Date.parse(iso);
const sim = (seed = 42) => new SimulatorFeed(DEFAULT_INSTRUMENTS, { seed });
const WEDNESDAY = at('2026-11-18T12:00:00Z');

function logReturns(
  feed: SimulatorFeed,
  symbol: string,
  start: number,
  step: number,
  count: number,
): number[] {
  const out: number[] = [];
  let previous = feed.midPrice(symbol, start);
  for (let i = 1; i <= count; i++) {
    const price = feed.midPrice(symbol, start + i * step);
    out.push(Math.log(price / previous));
    previous = price;
  }
  return out;
}
const std = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length);
const correlation = (a: number[], b: number[]) =>
  a.reduce((s, x, i) => s + x * (b[i] as number), 0) / (std(a) * std(b) * a.length);

describe('price simulator', () => {
  it('is deterministic: same seed and time, same quote; another seed, another path', () => {
    expect(sim(1).quoteAt('EURUSD', WEDNESDAY)).toEqual(sim(1).quoteAt('EURUSD', WEDNESDAY));
    expect(sim(1).ticksForSlot(WEDNESDAY / 100)).toEqual(sim(1).ticksForSlot(WEDNESDAY / 100));
    expect(sim(2).midPrice('EURUSD', WEDNESDAY)).not.toBe(sim(1).midPrice('EURUSD', WEDNESDAY));
  });

  it('moves each symbol with its real-world volatility (within 25 %)', () => {
    const feed = sim();
    for (const symbol of ['EURUSD', 'XAUUSD', 'BTCUSDT', 'US500']) {
      const spec = DEFAULT_INSTRUMENTS.find((i) => i.symbol === symbol)!;
      const hourly = std(logReturns(feed, symbol, WEDNESDAY - 200 * 86_400_000, 3_600_000, 4_000));
      const annualised = hourly * Math.sqrt(365.25 * 24);
      expect(annualised / spec.volatility, symbol).toBeGreaterThan(0.75);
      expect(annualised / spec.volatility, symbol).toBeLessThan(1.25);
    }
  });

  it('moves related symbols together', () => {
    const feed = sim();
    const r = (s: string) => logReturns(feed, s, WEDNESDAY - 100 * 86_400_000, 3_600_000, 2_000);
    expect(correlation(r('EURUSD'), r('GBPUSD'))).toBeGreaterThan(0.25);
    expect(correlation(r('EURUSD'), r('USDCHF'))).toBeLessThan(-0.25);
    expect(correlation(r('BTCUSDT'), r('ETHUSDT'))).toBeGreaterThan(0.5);
    expect(correlation(r('USOIL'), r('UKOIL'))).toBeGreaterThan(0.6);
    expect(Math.abs(correlation(r('BTCUSDT'), r('EURUSD')))).toBeLessThan(0.15);
  });

  it('quotes nothing while a market is closed and gaps over the weekend', () => {
    const feed = sim();
    expect(feed.quoteAt('EURUSD', at('2026-11-21T12:00:00Z'))).toBeNull();
    expect(feed.quoteAt('BTCUSDT', at('2026-11-21T12:00:00Z'))).not.toBeNull();
    const fridayClose = feed.quoteAt('EURUSD', at('2026-11-20T21:59:59Z'))!;
    const sundayOpen = feed.quoteAt('EURUSD', at('2026-11-22T22:00:00Z'))!;
    expect(sundayOpen.bid).not.toBe(fridayClose.bid);
  });

  it('widens spreads at the session open and the rollover, keeps ask above bid', () => {
    const feed = sim();
    const normal = feed.spreadPoints('EURUSD', at('2026-11-18T12:00:00Z'));
    expect(feed.spreadPoints('EURUSD', at('2026-11-22T22:01:00Z'))).toBeGreaterThan(normal * 2);
    expect(feed.spreadPoints('EURUSD', at('2026-11-18T22:00:00Z'))).toBeGreaterThan(normal * 2.5);
    for (let i = 0; i < 200; i++) {
      const q = feed.quoteAt('GBPJPY', WEDNESDAY + i * 7_919)!;
      expect(q.ask).toBeGreaterThan(q.bid);
    }
  });

  it('ticks in busy hours several times a second per symbol, fewer in quiet hours', () => {
    const feed = sim();
    const count = (start: number) => {
      let n = 0;
      for (let slot = start / 100; slot < start / 100 + 600; slot++)
        n += feed.ticksForSlot(slot).filter((t) => t.symbol === 'EURUSD').length;
      return n / 60;
    };
    expect(count(at('2026-11-18T14:00:00Z'))).toBeGreaterThan(1.5);
    expect(count(at('2026-11-18T23:00:00Z'))).toBeLessThan(1.2);
  });

  it('gives 90 days of daily history at once, consistent with live quotes', () => {
    const feed = sim();
    const t0 = performance.now();
    const daily = feed.getHistorical('XAUUSD', 'D1', WEDNESDAY - 90 * 86_400_000, WEDNESDAY);
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(daily.length).toBeGreaterThanOrEqual(60);
    for (const c of daily)
      expect(c.low <= c.open && c.open <= c.high && c.low <= c.close && c.close <= c.high).toBe(true);
    const minute = feed.getHistorical('XAUUSD', 'M1', WEDNESDAY - 60_000, WEDNESDAY - 1);
    const live = feed.quoteAt('XAUUSD', WEDNESDAY - 1)!;
    expect(Math.abs(minute.at(-1)!.close - live.bid)).toBeLessThan(live.bid * 0.002);
  });
});
