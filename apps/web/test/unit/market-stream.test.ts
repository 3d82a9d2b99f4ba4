import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  klineWindow,
  MARKET_TIMING,
  MarketStream,
  mergeCandle,
  mergeQuote,
  prependCandles,
  reconnectDelay,
  type TCandle,
  type TQuote,
} from '../../src/lib/market-stream';
import { FakeSocket } from './fake-socket';

function quote(symbol: string, bid: string, time: number, overrides: Partial<TQuote> = {}): TQuote {
  return {
    symbol,
    bid,
    ask: bid,
    spread: 0,
    digits: 5,
    time,
    open: bid,
    high: bid,
    low: bid,
    previousClose: bid,
    change: '0.00000',
    changePercent: '0.00',
    status: 'open',
    ...overrides,
  };
}

const candle = (time: number, close: string): TCandle => ({
  time,
  open: close,
  high: close,
  low: close,
  close,
  volume: 1,
});

function setup() {
  const sockets: FakeSocket[] = [];
  const stream = new MarketStream({
    url: () => 'ws://test/ws/market',
    createSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5,
  });
  const last = () => sockets.at(-1) as FakeSocket;
  return { stream, sockets, last };
}

describe('market stream client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('subscribes a symbol once however many screens use it, and unsubscribes after the last', () => {
    const { stream, sockets, last } = setup();
    const offA = stream.subscribeQuotes(['EURUSD', 'BTCUSDT'], () => undefined);
    const offB = stream.subscribeQuotes(['EURUSD'], () => undefined);
    expect(sockets).toHaveLength(1);
    last().accept();
    expect(last().sent).toEqual([{ op: 'subscribe', channel: 'quote', symbols: ['EURUSD', 'BTCUSDT'] }]);

    const offC = stream.subscribeQuotes(['BTCUSDT', 'XAUUSD'], () => undefined);
    expect(last().sent.at(-1)).toEqual({ op: 'subscribe', channel: 'quote', symbols: ['XAUUSD'] });

    offA();
    expect(last().sent.at(-1)).toEqual({ op: 'subscribe', channel: 'quote', symbols: ['XAUUSD'] });
    offB();
    expect(last().sent.at(-1)).toEqual({ op: 'unsubscribe', channel: 'quote', symbols: ['EURUSD'] });
    offB();
    expect(last().sent).toHaveLength(3);
    offC();
    expect(last().sent.at(-1)).toEqual({
      op: 'unsubscribe',
      channel: 'quote',
      symbols: ['BTCUSDT', 'XAUUSD'],
    });

    // The socket lingers a moment, then closes when nobody needs it.
    expect(last().closed).toBe(false);
    vi.advanceTimersByTime(MARKET_TIMING.lingerMs);
    expect(last().closed).toBe(true);
    expect(stream.getState()).toBe('idle');
  });

  it('merges the snapshot, updates and batches, and tells each listener only its own symbols', () => {
    const { stream, last } = setup();
    const eur = vi.fn();
    const btc = vi.fn();
    stream.subscribeQuotes(['EURUSD'], eur);
    stream.subscribeQuotes(['BTCUSDT'], btc);
    last().accept();

    last().receive({
      type: 'snapshot',
      channel: 'quote',
      data: [quote('EURUSD', '1.08000', 1000), quote('BTCUSDT', '70000.00', 1000)],
    });
    expect(eur).toHaveBeenLastCalledWith([quote('EURUSD', '1.08000', 1000)]);
    expect(btc).toHaveBeenLastCalledWith([quote('BTCUSDT', '70000.00', 1000)]);

    last().receive({
      type: 'batch',
      data: [
        { type: 'quote', data: quote('BTCUSDT', '70001.00', 1100) },
        { type: 'quote', data: quote('BTCUSDT', '70002.00', 1200) },
        { type: 'quote', data: quote('XAUUSD', '2300.00', 1200) },
      ],
    });
    expect(btc).toHaveBeenCalledTimes(2);
    expect(btc).toHaveBeenLastCalledWith([quote('BTCUSDT', '70002.00', 1200)]);
    expect(eur).toHaveBeenCalledTimes(1);
    // Symbols nobody subscribed to are not kept.
    expect(stream.quote('XAUUSD')).toBeUndefined();

    // A late, older quote does not overwrite a newer one.
    last().receive({ type: 'quote', data: quote('BTCUSDT', '69999.00', 1150) });
    expect(stream.quote('BTCUSDT')?.bid).toBe('70002.00');
    expect(btc).toHaveBeenCalledTimes(2);

    // Garbage and server errors are ignored.
    last().receive({ type: 'error', code: -9001, message: 'bad message' });
    expect(() => last().receive('not json')).not.toThrow();
  });

  it('streams the running candle of a symbol and timeframe', () => {
    const { stream, last } = setup();
    const seen: TCandle[] = [];
    const off = stream.subscribeKline('BTCUSDT', 'M1', (c) => seen.push(c));
    last().accept();
    expect(last().sent).toEqual([{ op: 'subscribe', channel: 'kline', symbol: 'BTCUSDT', timeframe: 'M1' }]);
    last().receive({
      type: 'snapshot',
      channel: 'kline',
      symbol: 'BTCUSDT',
      timeframe: 'M1',
      data: candle(60_000, '1'),
    });
    last().receive({
      type: 'batch',
      data: [
        { type: 'kline', symbol: 'BTCUSDT', timeframe: 'M1', data: candle(60_000, '2') },
        { type: 'kline', symbol: 'BTCUSDT', timeframe: 'M5', data: candle(0, '9') },
      ],
    });
    last().receive({ type: 'kline', symbol: 'BTCUSDT', timeframe: 'M1', data: candle(0, '0') });
    expect(seen.map((c) => c.close)).toEqual(['1', '2']);
    expect(stream.candle('BTCUSDT', 'M1')?.close).toBe('2');
    off();
    expect(last().sent.at(-1)).toEqual({
      op: 'unsubscribe',
      channel: 'kline',
      symbol: 'BTCUSDT',
      timeframe: 'M1',
    });
  });

  it('reconnects with backoff and subscribes everything again', () => {
    const { stream, sockets, last } = setup();
    const states: string[] = [];
    stream.onState((s) => states.push(s));
    stream.subscribeQuotes(['EURUSD', 'BTCUSDT'], () => undefined);
    stream.subscribeKline('EURUSD', 'H1', () => undefined);
    last().accept();
    expect(stream.getState()).toBe('open');

    last().drop();
    expect(stream.getState()).toBe('reconnecting');
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(reconnectDelay(0, 0.5) - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    // The second attempt fails too: the wait doubles.
    last().drop();
    vi.advanceTimersByTime(reconnectDelay(1, 0.5) - 1);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    last().accept();
    expect(stream.getState()).toBe('open');
    expect(last().sent).toEqual([
      { op: 'subscribe', channel: 'quote', symbols: ['EURUSD', 'BTCUSDT'] },
      { op: 'subscribe', channel: 'kline', symbol: 'EURUSD', timeframe: 'H1' },
    ]);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open']);

    // After a welcome the backoff starts again from 0.5 s.
    last().drop();
    vi.advanceTimersByTime(reconnectDelay(0, 0.5));
    expect(sockets).toHaveLength(4);
  });

  it('pings after 2 s of silence and drops a connection whose ping is not answered in 3 s', () => {
    const { stream, sockets, last } = setup();
    stream.subscribeQuotes(['BTCUSDT'], () => undefined);
    last().accept();
    last().sent = [];
    vi.advanceTimersByTime(MARKET_TIMING.idlePingMs - MARKET_TIMING.idleCheckMs);
    expect(last().sent).toEqual([]);
    vi.advanceTimersByTime(MARKET_TIMING.idleCheckMs);
    expect(last().sent).toEqual([{ op: 'ping' }]);

    // A pong (any message) keeps the connection.
    last().receive({ type: 'pong', time: Date.now() });
    vi.advanceTimersByTime(MARKET_TIMING.idlePingMs);
    expect(last().sent).toEqual([{ op: 'ping' }, { op: 'ping' }]);

    // No answer within 3 s: reconnect.
    vi.advanceTimersByTime(MARKET_TIMING.pingAnswerMs);
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(reconnectDelay(0, 0.5));
    expect(sockets).toHaveLength(2);
  });

  it('waits 0.5 s doubling up to 10 s, with jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => reconnectDelay(n, 0.5))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    expect(reconnectDelay(0, 0)).toBe(400);
    expect(reconnectDelay(0, 1)).toBe(600);
    expect(reconnectDelay(10, 1)).toBe(10_000);
  });
});

describe('market data merging', () => {
  it('keeps the newer quote', () => {
    const older = quote('EURUSD', '1.1', 1);
    const newer = quote('EURUSD', '1.2', 2);
    expect(mergeQuote(undefined, older)).toBe(older);
    expect(mergeQuote(older, newer)).toBe(newer);
    expect(mergeQuote(newer, older)).toBe(newer);
  });

  it('replaces the last bar on the same time and appends a newer one', () => {
    const history = [candle(0, '1'), candle(60, '2')];
    expect(mergeCandle(history, candle(60, '3')).map((c) => c.close)).toEqual(['1', '3']);
    expect(mergeCandle(history, candle(120, '4')).map((c) => c.close)).toEqual(['1', '2', '4']);
    expect(mergeCandle(history, candle(0, '5')).map((c) => c.close)).toEqual(['5', '2']);
    expect(mergeCandle(history, candle(30, '6'))).toBe(history);
    expect(mergeCandle([], candle(30, '7')).map((c) => c.close)).toEqual(['7']);
  });

  it('puts older bars in front without duplicates', () => {
    const history = [candle(120, 'c'), candle(180, 'd')];
    expect(
      prependCandles(history, [candle(0, 'a'), candle(60, 'b'), candle(120, 'x')]).map((c) => c.close),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('asks intraday history three days further back so a weekend gap still fills the chart', () => {
    const to = 1_800_000_000_000;
    expect(klineWindow('M1', to, 500)).toEqual({ from: to - 2 * 500 * 60_000 - 3 * 86_400_000, to });
    expect(klineWindow('D1', to, 100)).toEqual({ from: to - 150 * 86_400_000, to });
  });
});
