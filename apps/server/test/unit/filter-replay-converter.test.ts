import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { describe, expect, it } from 'vitest';
import { convert, convertibleCurrencies } from '../../src/modules/market/converter';
import { parseTickCsv, ReplayFeed } from '../../src/modules/market/feed/replay';
import { OffMarketFilter } from '../../src/modules/market/feed/tick-filter';
import type { TQuote } from '../../src/modules/market/market-service';

describe('off-market tick filter', () => {
  it('drops a spike and keeps ordinary moves', () => {
    const filter = new OffMarketFilter(() => 0.07);
    const t = Date.parse('2026-11-18T12:00:00Z');
    expect(filter.check({ symbol: 'EURUSD', time: t, bid: 108_400, ask: 108_408 }).accepted).toBe(true);
    expect(filter.check({ symbol: 'EURUSD', time: t + 500, bid: 108_403, ask: 108_411 }).accepted).toBe(true);
    const spike = filter.check({ symbol: 'EURUSD', time: t + 1_000, bid: 111_650, ask: 111_658 });
    expect(spike.accepted).toBe(false);
    // The reference stays the last good price, so the next normal tick passes.
    expect(filter.check({ symbol: 'EURUSD', time: t + 1_500, bid: 108_405, ask: 108_413 }).accepted).toBe(
      true,
    );
  });
});

describe('replay feed', () => {
  it('plays recorded ticks in order and reads back history', async () => {
    const file = join(tmpdir(), `ticks-${process.pid}.csv`);
    writeFileSync(
      file,
      'time,symbol,bid,ask\n2026-11-18T12:00:00.000Z,EURUSD,108400,108408\n2026-11-18T12:00:00.050Z,EURUSD,108402,108410\n2026-11-18T12:00:00.100Z,XAUUSD,234100,234125\n',
    );
    const feed = new ReplayFeed(file, { speed: 10 });
    expect(feed.canHandle('XAUUSD')).toBe(true);
    const seen: string[] = [];
    feed.start((tick) => seen.push(`${tick.symbol}:${tick.bid}`));
    await new Promise((r) => setTimeout(r, 200));
    feed.stop();
    expect(seen).toEqual(['EURUSD:108400', 'EURUSD:108402', 'XAUUSD:234100']);
    expect(feed.getHistorical('EURUSD', 'M1', 0, Date.parse('2027-01-01'))).toEqual([
      {
        time: Date.parse('2026-11-18T12:00:00Z'),
        open: 108_400,
        high: 108_402,
        low: 108_400,
        close: 108_402,
        volume: 2,
      },
    ]);
    expect(() => parseTickCsv('2026-11-18,EURUSD,1.08,1.09')).toThrow(/bad tick line/);
  });
});

describe('currency converter', () => {
  const quote = (symbol: string, bid: string, ask: string): TQuote => ({
    symbol,
    bid,
    ask,
    spread: 0,
    digits: 5,
    time: 1_000,
    open: bid,
    high: bid,
    low: bid,
    previousClose: bid,
    change: '0',
    changePercent: '0',
    status: 'open',
  });
  const quotes = [
    quote('EURUSD', '1.08000', '1.08010'),
    quote('USDJPY', '150.000', '150.010'),
    quote('BTCUSDT', '60000.00', '60010.00'),
    quote('EURJPY', '162.000', '162.020'),
  ];

  it('knows at least 30 currencies and crypto', () => {
    expect(convertibleCurrencies(DEFAULT_INSTRUMENTS).length).toBeGreaterThanOrEqual(30);
  });

  it('uses a direct pair at its mid price, and its inverse', () => {
    const direct = convert({ from: 'EUR', to: 'USD', amount: '1000', specs: DEFAULT_INSTRUMENTS, quotes })!;
    expect(direct).toMatchObject({ rate: '1.08005', result: '1080.05', path: ['EURUSD'] });
    const inverse = convert({
      from: 'USD',
      to: 'EUR',
      amount: '1080.05',
      specs: DEFAULT_INSTRUMENTS,
      quotes,
    })!;
    expect(Number(inverse.result)).toBeCloseTo(1000, 2);
  });

  it('crosses through another currency and the USDT peg', () => {
    const cross = convert({ from: 'BTC', to: 'JPY', amount: '0.5', specs: DEFAULT_INSTRUMENTS, quotes })!;
    expect(cross.path).toEqual(['BTCUSDT', 'USDT=USD', 'USDJPY']);
    expect(cross.result).toBe('4500525.01'); // 0.5 × 60005 × 150.005
    expect(convert({ from: 'XAU', to: 'EUR', amount: '1', specs: DEFAULT_INSTRUMENTS, quotes })).toBeNull();
  });
});
