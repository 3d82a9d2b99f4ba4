import { AppErrorCode } from '@broker/domain/result-codes';
import { describe, expect, it } from 'vitest';
import { pushTick, type TTestServer } from '../helpers';
import { restartableServers } from '../restart';
import { Trader } from '../trader';

/**
 * The engine rebuilds itself from what the group commits wrote: a server stopped and started again
 * on the same database answers the same accounts, positions, orders, history and idempotency keys.
 * On PGlite the database is on disk (its worker thread writes it); in CI, a PostgreSQL database.
 */
const servers = restartableServers('engine-restart');
const boot = () => servers.boot();

/** Boots a server with a BTCUSDT quote and a signed-in trader's new demo account; closes it after. */
async function withTrader(
  run: (setup: { server: TTestServer; trader: Trader; accountId: number }) => Promise<void>,
) {
  const server = await boot();
  try {
    pushTick(server, 'BTCUSDT', 67000, 67025);
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    await run({ server, trader, accountId });
  } finally {
    await server.close();
  }
}

describe('engine restart', () => {
  // Two full starts of the server on an on-disk database: slower than one test's usual budget.
  it('comes back with every balance, position, order, deal and idempotent answer', {
    timeout: 90_000,
  }, async () => {
    let server = await boot();
    const tick = (bid: number) => pushTick(server, 'BTCUSDT', bid, bid + 25);
    tick(67000);
    let trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    // Market orders without commission leave the account row as it was (the group commit skips
    // it); the close below changes the balance, which must still reach the database.
    const first = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
      idempotencyKey: 'restart-open-1',
    });
    expect(first.body.success, first.body.message).toBe(true);
    const second = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'sell', volume: '0.20' });
    expect(second.body.success, second.body.message).toBe(true);
    // A signed order as an eavesdropper would keep it, to send again after the restart.
    const signedBody = {
      account_id: accountId,
      type: 'market',
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.02',
      ...trader.sign({ volume: '0.02', side: 'buy', accountId, leverage: 100, symbol: 'BTCUSDT' }),
    };
    const signedOnce = await trader.call('/api/v1/order/send', { ...signedBody, idempotencyKey: 'signed-1' });
    expect(signedOnce.body.success, signedOnce.body.message).toBe(true);
    // A key with quotes, a backslash and SQL in it is data, written as a literal like any other.
    const hostileKey = "k'); drop table positions; --\\'x";
    const hostile = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.01',
      idempotencyKey: hostileKey,
    });
    expect(hostile.body.success, hostile.body.message).toBe(true);
    // A control character is refused at the door, so it can never fail a group commit shared with
    // other traders' orders.
    const control = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.01',
      idempotencyKey: 'nul-\u0000-key',
    });
    expect(control.body.success).toBe(false);
    expect(control.body.errorCode).toBe(AppErrorCode.VALIDATION_FAILED);
    expect(control.body.fields).toHaveProperty('idempotencyKey');
    const pending = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      volume: '0.05',
      price: '60000.00',
      take_profit: '70000.00',
    });
    expect(pending.body.success, pending.body.message).toBe(true);
    tick(67400);
    const close = await trader.call('/api/v1/order/close', {
      account_id: accountId,
      order_id: first.body.data.ticket,
      volume: '0.04',
      idempotencyKey: 'restart-close-1',
    });
    expect(close.body.success, close.body.message).toBe(true);
    await server.app.services.engine.idle();
    const read = async () => ({
      info: (await trader.call('/api/v1/account/info', { account_id: accountId })).body.data,
      positions: (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data,
      pending: (await trader.call('/api/v1/order/pending', { account_id: accountId })).body.data,
      deals: (await trader.call('/api/v1/order/history', { account_id: accountId })).body.data,
    });
    const before = await read();
    expect(before.positions).toHaveLength(4);
    expect(before.pending).toHaveLength(1);
    expect(before.deals.total).toBe(1);
    expect(before.info.balance).not.toBe('100000.00');
    await server.close();

    server = await boot();
    tick(67400);
    // The same signed-in client on the new address: its session and keys are in the database.
    const resumed = new Trader(server.baseUrl);
    resumed.api.cookies = trader.api.cookies;
    resumed.userId = trader.userId;
    resumed.cipherKey = trader.cipherKey;
    await resumed.renewTradeToken();
    trader = resumed;
    const after = await read();
    expect(after.info).toEqual(before.info);
    expect(after.positions).toEqual(before.positions);
    expect(after.pending).toEqual(before.pending);
    expect(after.deals).toEqual(before.deals);

    // Repeated keys answer their first results, from the database: the same ticket (no new
    // position) and the same closing profit (nothing closed again).
    const again = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
      idempotencyKey: 'restart-open-1',
    });
    expect(again.body.data.ticket).toBe(first.body.data.ticket);
    const closeAgain = await trader.call('/api/v1/order/close', {
      account_id: accountId,
      order_id: first.body.data.ticket,
      volume: '0.04',
      idempotencyKey: 'restart-close-1',
    });
    expect(closeAgain.body.data).toEqual(close.body.data);
    const hostileAgain = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.01',
      idempotencyKey: hostileKey,
    });
    expect(hostileAgain.body.data.ticket).toBe(hostile.body.data.ticket);
    // The signed order's nonce was committed with it: replayed under a new key after the restart,
    // within its minute, it is refused and opens nothing.
    const replay = await trader.call('/api/v1/order/send', { ...signedBody, idempotencyKey: 'signed-2' });
    expect(replay.body.errorCode).toBe(AppErrorCode.ORDER_SIGNATURE_INVALID);
    expect((await read()).positions).toEqual(before.positions);
    await server.close();
  });

  it('refuses the orders of a group whose commit fails and goes back to what the database holds', async () => {
    await withTrader(async ({ server, trader, accountId }) => {
      const positions = async () =>
        (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data as {
          order_id: number;
        }[];
      const kept = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
      expect(kept.body.success, kept.body.message).toBe(true);
      const info = async () =>
        (await trader.call('/api/v1/account/info', { account_id: accountId })).body.data;
      const before = await info();

      // The next group commit fails, as a lost connection or a full disk would make it.
      const database = server.app.services.database;
      const run = database.run;
      database.run = async () => {
        database.run = run;
        throw new Error('injected commit failure');
      };
      const lost = await trader.send(accountId, {
        symbol: 'BTCUSDT',
        side: 'buy',
        volume: '0.02',
        idempotencyKey: 'lost-order-1',
      });
      // Never acknowledged, and never kept: memory went back to what the database holds.
      expect(lost.body.success).toBe(false);
      expect(lost.body.errorCode).toBe(AppErrorCode.SERVICE_UNAVAILABLE);
      await server.app.services.engine.idle();
      expect((await positions()).map((p) => p.order_id)).toEqual([kept.body.data.ticket]);
      expect(await info()).toMatchObject({ balance: before.balance, margin: before.margin });

      // The engine works on: the refused key is free to succeed now, once.
      const retried = await trader.send(accountId, {
        symbol: 'BTCUSDT',
        side: 'buy',
        volume: '0.02',
        idempotencyKey: 'lost-order-1',
      });
      expect(retried.body.success, retried.body.message).toBe(true);
      expect(await positions()).toHaveLength(2);
    });
  });

  it('commits a command that an event listener sends in reaction to a commit', async () => {
    // A copy-trading follower's order, say: sent from the callback that hears the leader's fill,
    // after the group commit loop looked at its queue for the last time. It must start a new loop.
    await withTrader(async ({ server, trader, accountId }) => {
      const engine = server.app.services.engine;
      let follower: Promise<{ ok: boolean }> | null = null;
      const stop = engine.onEvents((events) => {
        if (follower || !events.some((e) => e.type === 'position_opened')) return;
        follower = engine.submit({
          type: 'open_market',
          clientKey: 'follower-order-1',
          time: Date.now(),
          accountId,
          symbol: 'BTCUSDT',
          side: 'sell',
          volume: 1,
        });
      });
      const leader = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
      expect(leader.body.success, leader.body.message).toBe(true);
      expect(follower).not.toBeNull();
      const answer = await Promise.race([
        follower as unknown as Promise<{ ok: boolean }>,
        new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 3000)),
      ]);
      expect(answer).toMatchObject({ ok: true });
      stop();
    });
  });
});
