import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_STREAM_TIMING,
  AccountStream,
  sameBook,
  type TAccountEvent,
  type TAccountSnapshot,
} from '../../src/lib/trading/account-stream';
import { FakeSocket } from './fake-socket';

const position = (order_id: number, volume = '0.10', profit = '1.00') =>
  ({
    order_id,
    account_id: 7,
    symbol: 'BTCUSDT',
    side: 'buy',
    volume,
    open_price: '67000.00',
    current_price: '67010.00',
    open_time: 1,
    take_profit: null,
    stop_loss: null,
    margin: '670.00',
    swap: '0.00',
    commission: '0.00',
    profit,
    digits: 2,
  }) as TAccountSnapshot['positions'][number];

const order = (order_id: number, price = '66000.00') =>
  ({
    order_id,
    account_id: 7,
    symbol: 'BTCUSDT',
    type: 'buy_limit',
    volume: '0.10',
    price,
    limit_price: null,
    activated: false,
    take_profit: null,
    stop_loss: null,
    time: 1,
    digits: 2,
  }) as TAccountSnapshot['orders'][number];

const snapshot = (accountId: number, positions = [position(1)]) =>
  ({ info: { account_id: accountId }, positions, orders: [] }) as unknown as TAccountSnapshot;

function setup() {
  const sockets: FakeSocket[] = [];
  const stream = new AccountStream({
    url: () => 'ws://test/ws/account',
    createSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5,
  });
  const snapshots: TAccountSnapshot[] = [];
  const events: TAccountEvent[][] = [];
  const watcher = {
    snapshot: (s: TAccountSnapshot) => snapshots.push(s),
    events: (e: TAccountEvent[]) => events.push(e),
  };
  const last = () => sockets.at(-1) as FakeSocket;
  return { stream, sockets, last, snapshots, events, watcher };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('account stream client', () => {
  it('subscribes on connect, is live after the first snapshot and hands over snapshots and events', () => {
    const { stream, last, snapshots, events, watcher } = setup();
    stream.watch(7, watcher);
    expect(stream.getState()).toBe('connecting');
    last().accept();
    expect(last().sent).toEqual([{ op: 'subscribe', account_id: 7 }]);
    expect(stream.isLive(7)).toBe(false);
    last().receive({ type: 'account', account_id: 7, data: snapshot(7) });
    expect(stream.isLive(7)).toBe(true);
    expect(stream.isLive(8)).toBe(false);
    last().receive({ type: 'account', account_id: 8, data: snapshot(8) });
    last().receive({
      type: 'events',
      account_id: 7,
      data: [{ type: 'stop_out', margin_level: '20.00', time: 1 }],
    });
    expect(snapshots.map((s) => s.info.account_id)).toEqual([7]);
    expect(events).toEqual([[{ type: 'stop_out', margin_level: '20.00', time: 1 }]]);
  });

  it('moves to another account on the same socket', () => {
    const { stream, sockets, last, watcher } = setup();
    const stop = stream.watch(7, watcher);
    last().accept();
    last().receive({ type: 'account', account_id: 7, data: snapshot(7) });
    stop();
    stream.watch(8, watcher);
    expect(sockets).toHaveLength(1);
    expect(last().sent.slice(1)).toEqual([
      { op: 'unsubscribe', account_id: 7 },
      { op: 'subscribe', account_id: 8 },
    ]);
    expect(stream.isLive(8)).toBe(false);
  });

  it('answers a snapshot request through the socket, or false at once when it is down', async () => {
    const { stream, last, watcher } = setup();
    stream.watch(7, watcher);
    expect(await stream.requestSnapshot(7)).toBe(false);
    last().accept();
    // Before the first snapshot, a request waits for it.
    const first = stream.requestSnapshot(7);
    last().receive({ type: 'account', account_id: 7, data: snapshot(7) });
    expect(await first).toBe(true);
    const fresh = stream.requestSnapshot(7);
    const refresh = last().sent.at(-1) as { op: string; ref: number };
    expect(refresh).toMatchObject({ op: 'refresh', account_id: 7 });
    // A push of the same account without the reference does not answer the request.
    last().receive({ type: 'account', account_id: 7, data: snapshot(7) });
    last().receive({ type: 'account', account_id: 7, ref: refresh.ref, data: snapshot(7) });
    expect(await fresh).toBe(true);
    expect(await stream.requestSnapshot(8)).toBe(false);
  });

  it('drops a socket that does not answer a request, and reconnects with backoff', async () => {
    const { stream, sockets, last, watcher } = setup();
    stream.watch(7, watcher);
    last().accept();
    last().receive({ type: 'account', account_id: 7, data: snapshot(7) });
    const request = stream.requestSnapshot(7);
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.refreshTimeoutMs);
    expect(await request).toBe(false);
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.isLive(7)).toBe(false);
    expect(stream.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
    last().accept();
    expect(last().sent).toEqual([{ op: 'subscribe', account_id: 7 }]);
  });

  it('pings a silent connection and drops it when the ping is not answered', () => {
    const { stream, sockets, last, watcher } = setup();
    stream.watch(7, watcher);
    last().accept();
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.silenceMs + ACCOUNT_STREAM_TIMING.idleCheckMs);
    expect(last().sent).toContainEqual({ op: 'ping' });
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.pingAnswerMs);
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.getState()).toBe('reconnecting');
  });

  it('turns abnormal after 3 s without a connection, and normal again once connected', () => {
    const { stream, last, watcher } = setup();
    const changes: boolean[] = [];
    stream.onAbnormal((abnormal) => changes.push(abnormal));
    stream.watch(7, watcher);
    last().accept();
    last().drop();
    vi.advanceTimersByTime(500);
    last().accept();
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.abnormalAfterMs);
    // A quick reconnect is not worth a warning.
    expect(changes).toEqual([]);
    last().drop();
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.abnormalAfterMs);
    expect(stream.isAbnormal()).toBe(true);
    vi.advanceTimersByTime(10_000);
    last().accept();
    expect(changes).toEqual([true, false]);
  });

  it('does not reconnect after the server ended the session', () => {
    const { stream, sockets, last, watcher } = setup();
    stream.watch(7, watcher);
    last().accept();
    last().drop(4401);
    expect(stream.getState()).toBe('ended');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('stops following a refused account, and closes the socket a while after the last watcher left', async () => {
    const { stream, last, watcher } = setup();
    const stop = stream.watch(7, watcher);
    last().accept();
    last().receive({ type: 'error', code: -3006, account_id: 7 });
    expect(stream.isLive(7)).toBe(false);
    expect(await stream.requestSnapshot(7)).toBe(false);
    stop();
    vi.advanceTimersByTime(ACCOUNT_STREAM_TIMING.lingerMs);
    expect(last().closed).toBe(true);
    expect(stream.getState()).toBe('idle');
  });
});

describe('sameBook', () => {
  it('compares tickets, volumes and levels, not floating profit or order', () => {
    const a = { positions: [position(1), position(2)], orders: [order(3)] };
    expect(sameBook(a, { positions: [position(2, '0.10', '-5.00'), position(1)], orders: [order(3)] })).toBe(
      true,
    );
    expect(sameBook(a, { positions: [position(1)], orders: [order(3)] })).toBe(false);
    expect(sameBook(a, { positions: [position(1), position(2, '0.05')], orders: [order(3)] })).toBe(false);
    expect(sameBook(a, { positions: [position(1), position(2)], orders: [order(3, '65000.00')] })).toBe(
      false,
    );
    expect(sameBook(a, { positions: [position(1), position(2)], orders: [] })).toBe(false);
  });
});
