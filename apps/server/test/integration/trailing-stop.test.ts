import { AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { pushTick, type TTestServer } from '../helpers';
import { restartableServers } from '../restart';
import { Trader } from '../trader';

/**
 * Trailing stops through the API and the group commit (issue 21, item 15): set on a market order
 * and by positionmodify, moved by the engine on ticks, each group writing the latest stop-loss of a
 * moved position, and carried on by an engine rebuilt from the database after a restart. On PGlite
 * (on disk) and on PostgreSQL when DATABASE_URL names one.
 */
const servers = restartableServers('trailing-stop');

/** BTCUSDT has 2 digits: 20000 points are 200.00 USDT. */
const DISTANCE = 20_000;

async function storedPosition(server: TTestServer, id: number) {
  const { rows } = await sql<{ stop_loss: string | null; trailing_stop: number | null }>`
    select stop_loss, trailing_stop from positions where id = ${id}`.execute(server.app.services.database.db);
  return (
    rows[0] && {
      stopLoss: rows[0].stop_loss === null ? null : Number(rows[0].stop_loss),
      trailing: rows[0].trailing_stop,
    }
  );
}

describe('trailing stops', () => {
  it('are set, validated, moved on ticks, written by the group commit and kept across a restart', {
    timeout: 120_000,
  }, async () => {
    let server = await servers.boot();
    const tick = (bid: number) => pushTick(server, 'BTCUSDT', bid, bid + 25);
    tick(67000);
    let trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const positions = async () =>
      (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data as {
        order_id: number;
        stop_loss: string | null;
        trailing_stop: number | null;
      }[];

    // Refusals: out of range (-3017), on a pending order (-3017), not whole points (validation).
    const tooFar = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
      trailing_stop: 1_000_001,
    });
    expect(tooFar.body.errorCode).toBe(AppErrorCode.INVALID_TRAILING_STOP);
    expect(tooFar.body.message).toMatch(/trailing stop/i);
    const pending = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      price: '60000.00',
      volume: '0.10',
      trailing_stop: DISTANCE,
    });
    expect(pending.body.errorCode).toBe(AppErrorCode.INVALID_TRAILING_STOP);
    const fraction = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
      trailing_stop: 12.5,
    });
    expect(fraction.body.errorCode).toBe(AppErrorCode.VALIDATION_FAILED);

    // A buy with a 200.00 trailing stop, opened at the ask 67025.00.
    const bought = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
      trailing_stop: DISTANCE,
      idempotencyKey: 'trail-open-1',
    });
    expect(bought.body.success, bought.body.message).toBe(true);
    const buy = bought.body.data.ticket as number;
    // A sell without one, which gets it through positionmodify.
    const sold = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'sell', volume: '0.10' });
    const sell = sold.body.data.ticket as number;
    const modify = (body: Record<string, unknown>) =>
      trader.call('/api/v1/order/positionmodify', { account_id: accountId, order_id: sell, ...body });
    const set = await modify({ trailing_stop: 15_000, idempotencyKey: 'trail-modify-1' });
    expect(set.body.success, set.body.message).toBe(true);
    // the same key again answers the first result; with another distance it is a conflict
    expect((await modify({ trailing_stop: 15_000, idempotencyKey: 'trail-modify-1' })).body.success).toBe(
      true,
    );
    expect((await modify({ trailing_stop: 16_000, idempotencyKey: 'trail-modify-1' })).body.errorCode).toBe(
      AppErrorCode.IDEMPOTENCY_CONFLICT,
    );
    expect((await modify({ trailing_stop: 0.5, idempotencyKey: 'trail-modify-2' })).body.errorCode).toBe(
      AppErrorCode.VALIDATION_FAILED,
    );
    expect(
      (await modify({ trailing_stop: 2_000_000, idempotencyKey: 'trail-modify-3' })).body.errorCode,
    ).toBe(AppErrorCode.INVALID_TRAILING_STOP);
    // a take-profit change that does not name the trailing stop leaves it on
    expect((await modify({ take_profit: '60000.00', idempotencyKey: 'trail-modify-4' })).body.success).toBe(
      true,
    );
    await server.app.services.engine.idle();
    expect(await storedPosition(server, sell)).toEqual({ stopLoss: null, trailing: 15_000 });
    let open = await positions();
    expect(open.find((p) => p.order_id === buy)).toMatchObject({ trailing_stop: DISTANCE, stop_loss: null });
    expect(open.find((p) => p.order_id === sell)).toMatchObject({ trailing_stop: 15_000 });
    // and 0 removes it
    expect(
      (await modify({ take_profit: '60000.00', trailing_stop: 0, idempotencyKey: 'trail-modify-5' })).body
        .success,
    ).toBe(true);

    // The price runs up 50 ticks in one turn of the event loop: one group commit, one stop-loss row.
    const batchesBefore = server.app.services.engine.stats.batches;
    for (let bid = 67010; bid <= 67500; bid += 10) tick(bid);
    await server.app.services.engine.idle();
    expect(server.app.services.engine.stats.batches - batchesBefore).toBeLessThanOrEqual(3);
    // 67500.00 - 200.00: beyond the open price 67025.00 by more than nothing, so it trails
    expect(await storedPosition(server, buy)).toEqual({ stopLoss: 6_730_000, trailing: DISTANCE });
    expect(await storedPosition(server, sell)).toEqual({ stopLoss: null, trailing: null });
    open = await positions();
    expect(open.find((p) => p.order_id === buy)?.stop_loss).toBe('67300.00');
    // falling back moves nothing
    tick(67400);
    await server.app.services.engine.idle();
    expect(await storedPosition(server, buy)).toEqual({ stopLoss: 6_730_000, trailing: DISTANCE });
    const before = await positions();
    await server.close();

    // A new engine on the same database: the moved stop-loss and the distance come back.
    server = await servers.boot();
    tick(67400);
    const resumed = new Trader(server.baseUrl);
    resumed.api.cookies = trader.api.cookies;
    resumed.userId = trader.userId;
    resumed.cipherKey = trader.cipherKey;
    await resumed.renewTradeToken();
    trader = resumed;
    const after = await positions();
    expect(
      after.map(({ order_id, stop_loss, trailing_stop }) => ({ order_id, stop_loss, trailing_stop })),
    ).toEqual(
      before.map(({ order_id, stop_loss, trailing_stop }) => ({ order_id, stop_loss, trailing_stop })),
    );
    // The rebuilt engine trails on from 67300.00, and the hit closes with reason 3.
    tick(67700);
    await server.app.services.engine.idle();
    expect(await storedPosition(server, buy)).toEqual({ stopLoss: 6_750_000, trailing: DISTANCE });
    tick(67490);
    await server.app.services.engine.idle();
    expect(await storedPosition(server, buy)).toBeUndefined();
    const history = await trader.call('/api/v1/order/history', { account_id: accountId });
    const deal = (
      history.body.data.items as { position_id: number; close_reason: number; close_price: string }[]
    ).find((d) => d.position_id === buy);
    expect(deal).toMatchObject({ close_reason: 3, close_price: '67490.00' });
    // the repeated opening key still answers its first ticket after the restart
    const again = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
      trailing_stop: DISTANCE,
      idempotencyKey: 'trail-open-1',
    });
    expect(again.body.data.ticket).toBe(buy);
    await server.close();
  });
});
