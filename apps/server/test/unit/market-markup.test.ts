import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { describe, expect, it } from 'vitest';
import type { TDb } from '../../src/db/database';
import { MarketService, type TMarketEvent } from '../../src/modules/market/market-service';

const EURUSD = DEFAULT_INSTRUMENTS.find((s) => s.symbol === 'EURUSD');

describe("a broker's markup change", () => {
  it('re-sends the last quote of the changed symbols at once, with the new spread for that broker', () => {
    if (!EURUSD) throw new Error('EURUSD missing from the catalogue');
    const idle = { start() {}, stop() {}, getHistorical: () => [] };
    const market = new MarketService({} as TDb, idle as never, 'UTC', [EURUSD]);
    market.onTick({ symbol: 'EURUSD', time: Date.now(), bid: 108_400, ask: 108_408 });
    const events: TMarketEvent[] = [];
    market.subscribe((e) => events.push(e));

    const config = { specs: new Map(), stopsLevels: new Map() };
    market.setTenantMarket('t1', { ...config, markups: new Map([['EURUSD', 20]]) });
    const quotes = events.filter((e) => e.type === 'quote');
    expect(quotes).toHaveLength(1);
    expect(market.quote('EURUSD', 't1')?.spread).toBe(28);
    expect(market.quote('EURUSD')?.spread).toBe(8);

    // The same markup saved again sends nothing new beyond the configuration notice.
    events.length = 0;
    market.setTenantMarket('t1', { ...config, markups: new Map([['EURUSD', 20]]) });
    expect(events.map((e) => e.type)).toEqual(['config']);
  });
});
