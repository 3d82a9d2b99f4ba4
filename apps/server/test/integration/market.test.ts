import { routeList } from '@broker/contracts/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
let api: ApiClient;
beforeAll(async () => {
  server = await startTestServer();
  api = new ApiClient(server.baseUrl);
});
afterAll(() => server.close());

const quote = (name: string, body: Record<string, unknown> = {}, lang = 'en') =>
  api.post(`/api/v1/quote/${name}`, body, { LanguageCode: lang });

describe('quote calls', () => {
  it('covers every quote route of the catalogue', () => {
    const names = routeList
      .filter((r) => r.path.startsWith('/api/v1/quote/'))
      .map((r) => r.name)
      .sort();
    expect(names).toEqual([
      'currencyall',
      'currencydetail',
      'currencyhot',
      'currencylist',
      'currencyother',
      'currencystat',
      'currencystats',
      'fullname',
      'hotall',
      'kline',
      'klinetoday',
      'pairs',
      'symbols',
    ]);
  });

  it('symbols: the catalogue with specifications and localized names', async () => {
    const all = await quote('symbols');
    expect(all.body.data.length).toBeGreaterThanOrEqual(50);
    const crypto = await quote('symbols', { category: 'crypto' }, 'zh-CN');
    expect(crypto.body.data.every((s: { category: string }) => s.category === 'crypto')).toBe(true);
    expect(crypto.body.data.find((s: { symbol: string }) => s.symbol === 'BTCUSDT').name).toBe(
      '比特币 / 泰达币',
    );
    const bad = await quote('symbols', { category: 'stocks' });
    expect(bad.body.errorCode).toBe(-9001);
  });

  it('kline: candles of every timeframe, 90 days of daily history, ranges and limits', async () => {
    for (const timeframe of ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN']) {
      const answer = await quote('kline', { symbol: 'BTCUSDT', timeframe, limit: 50 });
      expect(answer.body.success, timeframe).toBe(true);
      const candles = answer.body.data.candles as {
        time: number;
        open: string;
        high: string;
        low: string;
        close: string;
      }[];
      expect(candles.length, timeframe).toBeGreaterThan(timeframe === 'MN' ? 2 : 20);
      expect(candles.length).toBeLessThanOrEqual(50);
      for (let i = 1; i < candles.length; i++) expect(candles[i]!.time).toBeGreaterThan(candles[i - 1]!.time);
      for (const c of candles) expect(Number(c.low)).toBeLessThanOrEqual(Number(c.high));
    }
    const daily = await quote('kline', { symbol: 'EURUSD', timeframe: 'D1', limit: 2000 });
    const first = daily.body.data.candles[0].time as number;
    expect(Date.now() - first).toBeGreaterThan(90 * 86_400_000);
    const to = Date.now() - 10 * 86_400_000;
    const ranged = await quote('kline', { symbol: 'EURUSD', timeframe: 'H1', from: to - 86_400_000 * 3, to });
    expect(ranged.body.data.candles.every((c: { time: number }) => c.time <= to)).toBe(true);
    expect((await quote('kline', { symbol: 'NOPE1', timeframe: 'H1' })).body.errorCode).toBe(-3003);
    expect((await quote('kline', { symbol: 'EURUSD', timeframe: 'H2' })).body.errorCode).toBe(-9001);
    expect((await quote('kline', { symbol: 'EURUSD', timeframe: 'H1', limit: 5000 })).body.errorCode).toBe(
      -9001,
    );
  });

  it('kline fills its limit for a closed market by looking past the closed hours, and shows the last trading day', async () => {
    const all = (await quote('currencyall')).body.data as {
      symbol: string;
      status: string;
      high: string;
      low: string;
    }[];
    const closed = all.find(
      (q) => q.status === 'closed' && ['GER40', 'UK100', 'JP225', 'HK50'].includes(q.symbol),
    )!;
    expect(closed).toBeDefined();
    const bars = await quote('kline', { symbol: closed.symbol, timeframe: 'M1', limit: 300 });
    expect(bars.body.data.candles).toHaveLength(300);
    // The day's range is the last session's, not a flat line at the last price.
    expect(Number(closed.high)).toBeGreaterThan(Number(closed.low));
  });

  it('klinetoday, currencydetail, currencystat and currencyother describe one symbol', async () => {
    const today = await quote('klinetoday', { symbol: 'ETHUSDT' });
    expect(today.body.data.candles.every((c: { time: number }) => c.time >= today.body.data.dayStart)).toBe(
      true,
    );
    const detail = await quote('currencydetail', { symbol: 'xauusd' });
    expect(detail.body.data.info).toMatchObject({
      symbol: 'XAUUSD',
      digits: 2,
      contractSize: '100',
      category: 'metals',
    });
    expect(detail.body.data.quote.bid).toMatch(/^\d+\.\d{2}$/);
    expect(detail.body.data.info.open === (detail.body.data.nextOpen === null)).toBe(true);
    const stat = await quote('currencystat', { symbol: 'XAUUSD' });
    expect(stat.body.data.ranges.map((r: { period: string }) => r.period)).toEqual(['1D', '1W', '1M', '3M']);
    const other = await quote('currencyother', { symbol: 'EURJPY' });
    const symbols = other.body.data.map((q: { symbol: string }) => q.symbol);
    expect(symbols).toEqual(expect.arrayContaining(['EURUSD', 'USDJPY', 'GBPJPY']));
    expect(symbols).not.toContain('EURJPY');
    expect(symbols).not.toContain('BTCUSDT');
  });

  it('list, hot, all and stats calls return named quotes', async () => {
    const list = await quote('currencylist', { category: 'forex', search: 'usd', page: 1, size: 5 });
    expect(list.body.data.total).toBeGreaterThan(5);
    expect(list.body.data.items).toHaveLength(5);
    expect(
      list.body.data.items.every(
        (q: { symbol: string; name: string }) => q.symbol.includes('USD') || q.name.includes('Dollar'),
      ),
    ).toBe(true);
    const hot = await quote('currencyhot');
    expect(hot.body.data.map((q: { symbol: string }) => q.symbol)).toEqual(
      expect.arrayContaining(['EURUSD', 'XAUUSD', 'BTCUSDT']),
    );
    const hotall = await quote('hotall');
    expect(hotall.body.data.map((g: { category: string }) => g.category)).toEqual([
      'forex',
      'metals',
      'energy',
      'indices',
      'crypto',
    ]);
    const all = await quote('currencyall');
    expect(all.body.data.length).toBeGreaterThanOrEqual(50);
    for (const q of all.body.data) {
      expect(Number(q.ask)).toBeGreaterThanOrEqual(Number(q.bid));
      expect(['open', 'closed']).toContain(q.status);
    }
    const stats = await quote('currencystats', { limit: 3 });
    expect(stats.body.data.gainers.length).toBeLessThanOrEqual(3);
    expect(stats.body.data.gainers.every((q: { changePercent: string }) => Number(q.changePercent) > 0)).toBe(
      true,
    );
    expect(stats.body.data.losers.every((q: { changePercent: string }) => Number(q.changePercent) < 0)).toBe(
      true,
    );
  });

  it('pairs converts through live cross rates, and fullname names symbols', async () => {
    const list = await quote('pairs');
    expect(list.body.data.currencies.length).toBeGreaterThanOrEqual(30);
    expect(list.body.data.conversion).toBeNull();
    const there = await quote('pairs', { from: 'GBP', to: 'JPY', amount: '250' });
    const back = await quote('pairs', { from: 'JPY', to: 'GBP', amount: there.body.data.conversion.result });
    expect(Number(back.body.data.conversion.result)).toBeCloseTo(250, 1);
    expect(Number(there.body.data.conversion.rate) * Number(back.body.data.conversion.rate)).toBeCloseTo(
      1,
      3,
    );
    expect((await quote('pairs', { from: 'EUR', to: 'XXX' })).body.errorCode).toBe(-9001);
    expect((await quote('pairs', { from: 'EUR', to: 'USD', amount: '-5' })).body.errorCode).toBe(-9001);
    const names = await quote('fullname', { symbols: ['EURUSD', 'US500'] }, 'de');
    expect(names.body.data).toEqual({ EURUSD: 'Euro / US-Dollar', US500: 'US-500-Index' });
  });

  it('is reachable through the gateway with the Routes header', async () => {
    const viaGateway = await api.post('/gateway', { symbol: 'EURUSD' }, { Routes: 'currencydetail' });
    expect(viaGateway.body.data.info.symbol).toBe('EURUSD');
  });
});

describe('market stream', () => {
  const wsUrl = () => `${server.baseUrl.replace('http', 'ws')}/ws/market`;

  function connect(): Promise<{
    socket: WebSocket;
    messages: Record<string, unknown>[];
    next: (
      predicate: (m: Record<string, unknown>) => boolean,
      ms?: number,
    ) => Promise<Record<string, unknown>>;
  }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl());
      const messages: Record<string, unknown>[] = [];
      const waiters: {
        predicate: (m: Record<string, unknown>) => boolean;
        resolve: (m: Record<string, unknown>) => void;
      }[] = [];
      socket.on('message', (raw) => {
        const message = JSON.parse(raw.toString()) as Record<string, unknown>;
        const flat = message.type === 'batch' ? (message.data as Record<string, unknown>[]) : [message];
        for (const m of flat) {
          messages.push(m);
          for (const w of [...waiters])
            if (w.predicate(m)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(m);
            }
        }
      });
      socket.on('open', () =>
        resolve({
          socket,
          messages,
          next: (predicate, ms = 8_000) =>
            new Promise((res, rej) => {
              const found = messages.find(predicate);
              if (found) return res(found);
              const timer = setTimeout(() => rej(new Error('timeout waiting for message')), ms);
              waiters.push({
                predicate,
                resolve: (m) => {
                  clearTimeout(timer);
                  res(m);
                },
              });
            }),
        }),
      );
      socket.on('error', reject);
    });
  }

  it('subscribes with a snapshot, streams updates, unsubscribes, and serves a reconnect', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'welcome');
    client.socket.send(
      JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: ['BTCUSDT', 'ETHUSDT', 'NOPE'] }),
    );
    const snapshot = await client.next((m) => m.type === 'snapshot' && m.channel === 'quote');
    expect((snapshot.data as { symbol: string }[]).map((q) => q.symbol).sort()).toEqual([
      'BTCUSDT',
      'ETHUSDT',
    ]);
    const update = await client.next((m) => m.type === 'quote');
    expect(['BTCUSDT', 'ETHUSDT']).toContain((update.data as { symbol: string }).symbol);
    client.socket.send(
      JSON.stringify({ op: 'subscribe', channel: 'kline', symbol: 'BTCUSDT', timeframe: 'M1' }),
    );
    const klineSnapshot = await client.next((m) => m.type === 'snapshot' && m.channel === 'kline');
    expect((klineSnapshot.data as { time: number }).time % 60_000).toBe(0);
    await client.next((m) => m.type === 'kline' && m.timeframe === 'M1');
    client.socket.send(
      JSON.stringify({ op: 'unsubscribe', channel: 'quote', symbols: ['BTCUSDT', 'ETHUSDT'] }),
    );
    client.socket.send(
      JSON.stringify({ op: 'unsubscribe', channel: 'kline', symbol: 'BTCUSDT', timeframe: 'M1' }),
    );
    await client.next((m) => m.type === 'unsubscribed' && m.channel === 'kline');
    await new Promise((r) => setTimeout(r, 300));
    const count = client.messages.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(client.messages.slice(count).filter((m) => m.type === 'quote' || m.type === 'kline')).toEqual([]);
    client.socket.send(JSON.stringify({ op: 'ping' }));
    await client.next((m) => m.type === 'pong');
    client.socket.send('not json');
    await client.next((m) => m.type === 'error');
    client.socket.terminate();

    // A new connection (what the browser client does after a drop) gets a fresh snapshot.
    const again = await connect();
    again.socket.send(JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: ['BTCUSDT'] }));
    const fresh = await again.next((m) => m.type === 'snapshot');
    expect((fresh.data as { symbol: string }[])[0]?.symbol).toBe('BTCUSDT');
    again.socket.close();
  });

  it('coalesces: a client gets at most one update per stream every 100 ms', async () => {
    const client = await connect();
    client.socket.send(JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: ['BTCUSDT'] }));
    await client.next((m) => m.type === 'snapshot');
    const start = client.messages.length;
    await new Promise((r) => setTimeout(r, 2_000));
    const quotes = client.messages.slice(start).filter((m) => m.type === 'quote');
    expect(quotes.length).toBeGreaterThan(0);
    expect(quotes.length).toBeLessThanOrEqual(21);
    client.socket.close();
  });

  it('stores candles built from live ticks', async () => {
    await new Promise((r) => setTimeout(r, 1_500));
    const rows = await server.app.services.database.db
      .selectFrom('candles')
      .select(['symbol', 'timeframe'])
      .where('symbol', '=', 'BTCUSDT')
      .execute();
    expect(new Set(rows.map((r) => r.timeframe))).toEqual(
      new Set(['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN']),
    );
  });
});
