import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fitLevels } from '../../src/features/trade/TradeChart';
import { searchItems } from '../../src/features/trade/Watchlist';
import {
  isQuoteStale,
  MARKET_TIMING,
  MarketStream,
  reconnectDelay,
  STREAM_HEALTH_TIMING,
  streamHealth,
  type TQuote,
  type TStreamLink,
} from '../../src/lib/market-stream';
import { ACCOUNT_STREAM_TIMING, AccountStream } from '../../src/lib/trading/account-stream';
import { FakeSocket } from './fake-socket';

function quote(symbol: string, bid: string, time: number): TQuote {
  return {
    symbol,
    bid,
    ask: bid,
    spread: 0,
    digits: 2,
    time,
    open: bid,
    high: bid,
    low: bid,
    previousClose: bid,
    change: '0.00',
    changePercent: '0.00',
    status: 'open',
  };
}

function marketSetup() {
  const sockets: FakeSocket[] = [];
  const stream = new MarketStream({
    url: () => 'ws://test/ws/market',
    createSocket: (_url, handlers) => {
      const socket = new FakeSocket('', handlers);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5,
  });
  return { stream, sockets, last: () => sockets.at(-1) as FakeSocket };
}

function accountSetup() {
  const sockets: FakeSocket[] = [];
  const stream = new AccountStream({
    url: () => 'ws://test/ws/account',
    createSocket: (_url, handlers) => {
      const socket = new FakeSocket('', handlers);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5,
  });
  return { stream, sockets, last: () => sockets.at(-1) as FakeSocket };
}

const link = (overrides: Partial<TStreamLink> = {}): TStreamLink => ({
  state: 'open',
  since: 0,
  wasOpen: true,
  ...overrides,
});

describe('stream watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('notices a market stream that went silent without a close within about 6 s', () => {
    const { stream, sockets, last } = marketSetup();
    stream.subscribeQuotes(['BTCUSDT'], () => undefined);
    last().accept();
    last().receive({ type: 'snapshot', channel: 'quote', data: [quote('BTCUSDT', '74000.00', 1)] });

    // The network goes away: no close event, no message.
    vi.advanceTimersByTime(MARKET_TIMING.idlePingMs + MARKET_TIMING.idleCheckMs);
    expect(last().pings()).toBe(1);
    expect(stream.getState()).toBe('open');
    vi.advanceTimersByTime(MARKET_TIMING.pingAnswerMs);
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.getState()).toBe('reconnecting');
    expect(Date.now() - 1_800_000_000_000).toBeLessThanOrEqual(6500);
  });

  it('keeps a quiet market stream open while the server answers its pings', () => {
    const { stream, sockets, last } = marketSetup();
    stream.subscribeQuotes(['EURUSD'], () => undefined);
    last().accept();
    // Ten quiet stretches, each ended by a ping the server answers.
    for (let i = 1; i <= 10; i++) {
      vi.advanceTimersByTime(MARKET_TIMING.idlePingMs + MARKET_TIMING.idleCheckMs);
      expect(last().pings()).toBe(i);
      last().receive({ type: 'pong', time: Date.now() });
    }
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.closed).toBe(false);
    expect(stream.getState()).toBe('open');
  });

  it('pings at once when the browser goes offline and drops the connection if the ping is not answered', () => {
    const { stream, sockets, last } = marketSetup();
    stream.subscribeQuotes(['BTCUSDT'], () => undefined);
    last().accept();
    stream.probe();
    expect(last().pings()).toBe(1);
    vi.advanceTimersByTime(MARKET_TIMING.pingAnswerMs + MARKET_TIMING.idleCheckMs);
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.getState()).toBe('reconnecting');
  });

  it('subscribes again after the reconnect and takes the fresh snapshot', () => {
    const { stream, sockets, last } = marketSetup();
    const seen: string[] = [];
    stream.subscribeQuotes(['BTCUSDT'], (changed) => seen.push(...changed.map((q) => q.bid)));
    last().accept();
    last().receive({ type: 'quote', data: quote('BTCUSDT', '74000.00', 1) });
    vi.advanceTimersByTime(MARKET_TIMING.idlePingMs + MARKET_TIMING.idleCheckMs + MARKET_TIMING.pingAnswerMs);
    expect(stream.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(reconnectDelay(0, 0.5));
    expect(sockets).toHaveLength(2);
    last().accept();
    expect(stream.getState()).toBe('open');
    expect(last().sent).toContainEqual({ op: 'subscribe', channel: 'quote', symbols: ['BTCUSDT'] });
    last().receive({ type: 'snapshot', channel: 'quote', data: [quote('BTCUSDT', '74100.00', 2)] });
    expect(seen).toEqual(['74000.00', '74100.00']);
    expect(stream.lastTick('BTCUSDT')).toBe(Date.now());
  });

  it('notices a silent account stream within about 8 s and calls it abnormal 3 s later', () => {
    const { stream, sockets, last } = accountSetup();
    const abnormal: boolean[] = [];
    stream.onAbnormal((a) => abnormal.push(a));
    stream.watch(7, { snapshot: () => undefined, events: () => undefined });
    last().accept();
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.silenceMs + ACCOUNT_STREAM_TIMING.idleCheckMs);
    expect(last().sent).toContainEqual({ op: 'ping' });
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.pingAnswerMs);
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.abnormalAfterMs);
    expect(abnormal).toEqual([true]);
  });
});

describe('stream health', () => {
  it('is live while the connection is open', () => {
    expect(streamHealth({ link: link(), online: true, now: 10_000 })).toEqual({
      health: 'live',
      down: false,
    });
  });

  it('reconnects quietly for a moment, then says prices are down', () => {
    const dropped = link({ state: 'reconnecting', since: 10_000 });
    expect(streamHealth({ link: dropped, online: true, now: 10_500 })).toEqual({
      health: 'reconnecting',
      down: false,
    });
    expect(
      streamHealth({ link: dropped, online: true, now: 10_000 + STREAM_HEALTH_TIMING.outageGraceMs }),
    ).toEqual({ health: 'reconnecting', down: true });
  });

  it('is offline at once when the browser is', () => {
    const dropped = link({ state: 'reconnecting', since: 10_000 });
    expect(streamHealth({ link: dropped, online: false, now: 10_000 })).toEqual({
      health: 'offline',
      down: true,
    });
  });

  it('gives the first connection time before calling prices down', () => {
    const first = link({ state: 'connecting', since: 0, wasOpen: false });
    expect(streamHealth({ link: first, online: true, now: 2000 })).toEqual({
      health: 'connecting',
      down: false,
    });
    expect(streamHealth({ link: first, online: true, now: STREAM_HEALTH_TIMING.firstConnectMs })).toEqual({
      health: 'connecting',
      down: true,
    });
  });

  it('marks a quote stale only while prices are down and it has not ticked for a while', () => {
    const now = 100_000;
    const old = now - STREAM_HEALTH_TIMING.staleAfterMs;
    expect(isQuoteStale({ down: false, lastTick: old - 60_000, now })).toBe(false);
    expect(isQuoteStale({ down: true, lastTick: now - 1000, now })).toBe(false);
    expect(isQuoteStale({ down: true, lastTick: old, now })).toBe(true);
    expect(isQuoteStale({ down: true, lastTick: undefined, now })).toBe(true);
  });
});

describe('watchlist search', () => {
  const items = [
    { symbol: 'BTCUSDT', name: 'Bitcoin / Tether' },
    { symbol: 'ETHUSDT', name: 'Ethereum / Tether' },
    { symbol: 'XAUUSD', name: 'Gold' },
    { symbol: 'SETHUSD', name: 'Staked Ether' },
    { symbol: 'EURUSD', name: 'Euro / US Dollar' },
  ];
  const symbols = (query: string) => searchItems(items, query).map((i) => i.symbol);

  it('lists symbol prefix matches, then symbols containing the text, then name matches', () => {
    expect(symbols('ETH')).toEqual(['ETHUSDT', 'SETHUSD', 'BTCUSDT']);
    expect(symbols('eth')).toEqual(['ETHUSDT', 'SETHUSD', 'BTCUSDT']);
  });

  it('ignores spaces and slashes, and keeps the list order without a query', () => {
    expect(symbols('btc/usdt')).toEqual(['BTCUSDT']);
    expect(symbols('euro / us')).toEqual(['EURUSD']);
    expect(symbols('  ')).toEqual(items.map((i) => i.symbol));
    expect(symbols('zzz')).toEqual([]);
  });
});

describe('chart price scale with the trader levels', () => {
  const candles = { minValue: 73_500, maxValue: 74_500 };

  it('keeps a near stop-loss in the scale', () => {
    const fitted = fitLevels(candles, [{ id: 'pos:1:sl', price: 73_000 }]);
    expect(fitted).toEqual({ minValue: 73_000, maxValue: 74_500, outside: [] });
  });

  it('leaves a far stop-loss out of the scale and names the edge it lies beyond', () => {
    const fitted = fitLevels(candles, [
      { id: 'pos:1:sl', price: 74 },
      { id: 'pos:1:tp', price: 200_000 },
    ]);
    expect(fitted.minValue).toBe(73_500);
    expect(fitted.maxValue).toBe(74_500);
    expect(fitted.outside).toEqual([
      { id: 'pos:1:sl', edge: 'bottom' },
      { id: 'pos:1:tp', edge: 'top' },
    ]);
  });

  it('keeps a dragged level however far, and never goes below zero', () => {
    expect(fitLevels(candles, [{ id: 'pos:1:sl', price: 74, keep: true }]).minValue).toBe(74);
    expect(fitLevels({ minValue: -5, maxValue: 10 }, []).minValue).toBe(0);
  });
});
