import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AccountStream, SESSION_ENDED_CLOSE_CODE } from '../../src/http/account-stream';
import { pushTick, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

let server: TTestServer;
/** Pushes a BTCUSDT quote through the market service, as the feed would, at the real time. */
const tick = (bid: number, ask = bid + 25) => pushTick(server, 'BTCUSDT', bid, ask);

beforeAll(async () => {
  // Crypto trades every day; prices come from the test.
  server = await startTestServer({ FEED: 'off' });
  tick(67000);
});
afterAll(() => server.close());

type TMessage = Record<string, unknown> & { type: string; data?: unknown };
interface TSnapshot {
  info: Record<string, unknown>;
  positions: { order_id: number; profit: string }[];
  orders: { order_id: number }[];
}

const wsUrl = () => `${server.baseUrl.replace('http', 'ws')}/ws/account`;

/** An account-stream socket with the trader's cookies that records every message it gets. */
function connect(trader: Trader | null, headers: Record<string, string> = {}) {
  const socket = new WebSocket(wsUrl(), {
    headers: { origin: server.baseUrl, ...(trader ? { cookie: trader.api.cookieHeader() } : {}), ...headers },
  });
  const messages: { at: number; message: TMessage }[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (raw) => {
    messages.push({ at: performance.now(), message: JSON.parse(raw.toString()) as TMessage });
    for (const wake of waiters) wake();
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  // A refused upgrade rejects `opened`; tests of refusals read the status instead.
  opened.catch(() => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  /** The first message after index `from` that matches; rejects after `ms`. */
  const next = (predicate: (m: TMessage) => boolean, from = 0, ms = 5000) =>
    new Promise<{ at: number; message: TMessage; index: number }>((resolve, reject) => {
      const look = () => {
        const index = messages.findIndex((m, i) => i >= from && predicate(m.message));
        if (index < 0) return false;
        waiters.delete(wake);
        clearTimeout(timer);
        resolve({ ...(messages[index] as { at: number; message: TMessage }), index });
        return true;
      };
      const wake = () => void look();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error('timeout waiting for an account-stream message'));
      }, ms);
      waiters.add(wake);
      look();
    });
  const send = (message: unknown) => socket.send(JSON.stringify(message));
  return { socket, messages, opened, closed, next, send };
}

/** The HTTP status of a refused upgrade. */
function refusedStatus(socket: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => reject(new Error('upgrade was accepted')));
    socket.once('error', () => undefined);
  });
}

const isAccount = (accountId: number) => (m: TMessage) => m.type === 'account' && m.account_id === accountId;

describe('account stream', () => {
  it('refuses an upgrade without a live session, and one from another site', async () => {
    expect(await refusedStatus(connect(null).socket)).toBe(401);
    expect(await refusedStatus(connect(null, { cookie: 'token=AAAAAAAAAAAAAAAAAAAAAA' }).socket)).toBe(401);
    const trader = await Trader.signIn(server.baseUrl);
    expect(await refusedStatus(connect(trader, { origin: 'https://evil.example' }).socket)).toBe(403);
    expect(await refusedStatus(connect(trader, { origin: 'null' }).socket)).toBe(403);
  });

  it("refuses another trader's account and answers a snapshot equal to the trading calls", async () => {
    const owner = await Trader.signIn(server.baseUrl);
    const accountId = await owner.createAccount(1, 2, 100);
    const stranger = await Trader.signInStranger(server);
    const spy = connect(stranger);
    await spy.opened;
    spy.send({ op: 'subscribe', account_id: accountId });
    const refusal = await spy.next((m) => m.type === 'error');
    expect(refusal.message).toMatchObject({ code: -3006, account_id: accountId });
    expect(spy.messages.some((m) => m.message.type === 'account')).toBe(false);
    spy.socket.close();

    const own = connect(owner);
    await own.opened;
    await own.next((m) => m.type === 'welcome');
    own.send({ op: 'subscribe', account_id: accountId });
    const snapshot = (await own.next(isAccount(accountId))).message.data as TSnapshot;
    const [info, positions, orders] = await Promise.all(
      ['/api/v1/account/info', '/api/v1/order/positions', '/api/v1/order/pending'].map(
        async (path) => (await owner.call(path, { account_id: accountId })).body.data,
      ),
    );
    expect(snapshot).toEqual({ info, positions, orders });
    own.socket.close();
  });

  it('pushes a bought position within 300 ms of the order answer, its profit on ticks, and the events', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const client = connect(trader);
    await client.opened;
    client.send({ op: 'subscribe', account_id: accountId });
    const first = await client.next(isAccount(accountId));
    expect((first.message.data as TSnapshot).positions).toEqual([]);

    const buy = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    const answeredAt = performance.now();
    expect(buy.body.success, buy.body.message).toBe(true);
    const ticket = buy.body.data.ticket as number;
    const pushed = await client.next(
      (m) => isAccount(accountId)(m) && (m.data as TSnapshot).positions.some((p) => p.order_id === ticket),
      first.index + 1,
    );
    // The push may even arrive before the HTTP answer is read.
    expect(pushed.at - answeredAt).toBeLessThan(300);
    const position = (pushed.message.data as TSnapshot).positions[0];
    expect(position).toMatchObject({ order_id: ticket, open_price: '67025.00', profit: '-2.50' });
    const opened = await client.next((m) => m.type === 'events' && m.account_id === accountId);
    expect(opened.message.data).toEqual([
      expect.objectContaining({
        type: 'opened',
        position_id: ticket,
        symbol: 'BTCUSDT',
        side: 'buy',
        volume: '0.10',
        price: '67025.00',
      }),
    ]);

    tick(67500);
    const moved = await client.next(
      (m) => isAccount(accountId)(m) && (m.data as TSnapshot).positions[0]?.profit === '47.50',
      pushed.index + 1,
      2000,
    );
    expect((moved.message.data as TSnapshot).info).toMatchObject({
      equity: '100047.50',
      floating_profit: '47.50',
    });

    // A tick that changes nothing the account shows sends nothing.
    const count = client.messages.length;
    tick(67500);
    await new Promise((r) => setTimeout(r, 600));
    expect(client.messages.slice(count).filter((m) => m.message.type === 'account')).toEqual([]);

    const close = await trader.call('/api/v1/order/close', {
      account_id: accountId,
      order_id: ticket,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(close.body.data.closed).toBe(1);
    const closed = await client.next(
      (m) => m.type === 'events' && (m.data as { type: string }[]).some((e) => e.type === 'closed'),
      moved.index + 1,
    );
    expect(closed.message.data).toEqual([
      expect.objectContaining({
        type: 'closed',
        position_id: ticket,
        volume: '0.10',
        remaining_volume: '0.00',
        close_price: '67500.00',
        profit: '47.50',
        reason: 1,
      }),
    ]);
    // The snapshot of the same push goes out just before its events.
    const flat = client.messages.slice(0, closed.index).findLast((m) => isAccount(accountId)(m.message));
    expect(flat?.message.data).toMatchObject({ positions: [] });

    // A refresh answers at once with the caller's reference.
    client.send({ op: 'refresh', account_id: accountId, ref: 7 });
    expect((await client.next((m) => isAccount(accountId)(m) && m.ref === 7)).message.data).toMatchObject({
      info: { balance: '100047.50' },
    });
    client.socket.close();
  });

  it('bounds the accounts of one connection', async () => {
    const trader = await Trader.signInStranger(server);
    const accounts: number[] = [];
    for (const type of [1, 2]) for (let i = 0; i < 5; i++) accounts.push(await trader.createAccount(type, 2));
    accounts.push(await trader.createAccount(3, 2));
    const client = connect(trader);
    await client.opened;
    for (const accountId of accounts) client.send({ op: 'subscribe', account_id: accountId });
    const refused = await client.next((m) => m.type === 'error');
    expect(refused.message).toMatchObject({ code: -9003, account_id: accounts[10] });
    expect(client.messages.filter((m) => m.message.type === 'account')).toHaveLength(10);
    client.socket.close();
  });

  it('closes the socket with 4401 once the session is signed out', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const client = connect(trader);
    await client.opened;
    client.send({ op: 'subscribe', account_id: accountId });
    await client.next(isAccount(accountId));
    const stream = AccountStream.of(server.app.app) as AccountStream;
    await stream.checkSessions();
    expect(client.socket.readyState).toBe(WebSocket.OPEN);

    const signedOut = await trader.call('/api/v1/usercenter/logout');
    expect(signedOut.body.success, signedOut.body.message).toBe(true);
    // The sign-out itself makes the stream look sessions up again: no waiting for the 30 s timer.
    const started = Date.now();
    expect(await client.closed).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
