import { AppErrorCode } from '@broker/domain/result-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor, userActor } from '../../src/actor';
import { closePosition } from '../../src/modules/trading/close-position';
import { modifyOrder } from '../../src/modules/trading/modify-order';
import { modifyPosition } from '../../src/modules/trading/modify-position';
import { placeOrder } from '../../src/modules/trading/place-order';
import type { TTradingPorts } from '../../src/modules/trading/ports';
import { pushTick, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

let server: TTestServer;
let ports: TTradingPorts;
let trader: Trader;
let accountId: number;
let tenantId: string;

const tick = (bid: number) => pushTick(server, 'BTCUSDT', bid, bid + 25);

/** The audit entries of the broker with this action, oldest first. */
async function auditOf(action: string) {
  return server.app.services.database.db
    .selectFrom('audit_events')
    .select(['actor_kind', 'actor_id', 'action', 'target', 'details'])
    .where('tenant_id', '=', tenantId)
    .where('action', '=', action)
    .orderBy('seq')
    .execute();
}

const details = (row: { details: unknown }) =>
  (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, unknown>;

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  tick(67_000);
  ports = { host: server.app.services.engine, db: server.app.services.database.db };
  trader = await Trader.signIn(server.baseUrl);
  accountId = await trader.createAccount(1, 2, 100);
  tenantId = server.app.services.engine.ownerOf(accountId)?.tenantId as string;
});
afterAll(() => server.close());

describe('use cases with an actor other than a browser session', () => {
  it('a system part acting for the trader places, modifies and closes orders, each in the audit trail', async () => {
    const bot = systemActor({ name: 'copy-engine', tenantId, forUser: trader.userId });
    const opened = await placeOrder(ports, {
      actor: bot,
      account_id: accountId,
      symbol: 'btcusdt',
      side: 'buy',
      type: 'market',
      volume: '0.10',
      idempotencyKey: 'copy-1',
    });
    expect(opened.kind).toBe('position');
    // The same key again answers the first result: one position, one audit entry.
    const again = await placeOrder(ports, {
      actor: bot,
      account_id: accountId,
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      volume: '0.10',
      idempotencyKey: 'copy-1',
    });
    expect(again.ticket).toBe(opened.ticket);

    // The trader sees the bot's position through their own session.
    const positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data;
    expect(positions.map((p: { order_id: number }) => p.order_id)).toContain(opened.ticket);

    await modifyPosition(ports, {
      actor: bot,
      account_id: accountId,
      order_id: opened.ticket,
      take_profit: '69000.00',
      stop_loss: '65000.00',
      idempotencyKey: 'copy-2',
    });
    expect(server.app.services.engine.core.position(opened.ticket)?.takeProfit).toBe(6_900_000);

    const pending = await placeOrder(ports, {
      actor: bot,
      account_id: accountId,
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      volume: '0.05',
      price: '60000.00',
      idempotencyKey: 'copy-3',
    });
    expect(pending.kind).toBe('order');
    await modifyOrder(ports, {
      actor: bot,
      account_id: accountId,
      order_id: pending.ticket,
      price: '61000.00',
      idempotencyKey: 'copy-4',
    });
    expect(server.app.services.engine.core.order(pending.ticket)?.price).toBe(6_100_000);

    tick(67_500);
    const closed = await closePosition(ports, {
      actor: bot,
      account_id: accountId,
      order_id: opened.ticket,
      idempotencyKey: 'copy-5',
    });
    expect(closed).toEqual({ closed: 1, profit: '47.50' });

    const sends = await auditOf('trading.order.send');
    expect(sends).toHaveLength(2);
    expect(sends[0]).toMatchObject({
      actor_kind: 'system',
      actor_id: 'copy-engine',
      target: String(opened.ticket),
    });
    expect(details(sends[0] as { details: unknown })).toMatchObject({
      onBehalfOf: trader.userId,
      accountId,
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.10',
    });
    const [modify] = await auditOf('trading.position.modify');
    expect(modify).toMatchObject({ actor_kind: 'system', actor_id: 'copy-engine' });
    const [orderModify] = await auditOf('trading.order.modify');
    expect(orderModify).toMatchObject({ actor_kind: 'system', target: String(pending.ticket) });
    const [close] = await auditOf('trading.position.close');
    expect(close).toMatchObject({
      actor_kind: 'system',
      actor_id: 'copy-engine',
      target: String(opened.ticket),
    });
    expect(details(close as { details: unknown })).toMatchObject({
      profit: '47.50',
      onBehalfOf: trader.userId,
    });
  });

  it("a system part reaches only the accounts of the trader it acts for, and only in that trader's broker", async () => {
    const stranger = await Trader.signInStranger(server);
    const forStranger = systemActor({ name: 'copy-engine', tenantId, forUser: stranger.userId });
    const order = {
      account_id: accountId,
      symbol: 'BTCUSDT',
      side: 'buy' as const,
      type: 'market' as const,
      volume: '0.01',
      idempotencyKey: 'stranger-1',
    };
    await expect(placeOrder(ports, { ...order, actor: forStranger })).rejects.toMatchObject({
      code: AppErrorCode.ACCOUNT_NOT_FOUND,
    });
    const otherBroker = systemActor({
      name: 'copy-engine',
      tenantId: crypto.randomUUID(),
      forUser: trader.userId,
    });
    await expect(placeOrder(ports, { ...order, actor: otherBroker })).rejects.toMatchObject({
      code: AppErrorCode.ACCOUNT_NOT_FOUND,
    });
  });

  it("a trader's opening order needs the session's signature, whoever passes it on", async () => {
    const noSession = userActor({ userId: trader.userId, tenantId });
    await expect(
      placeOrder(ports, {
        actor: noSession,
        account_id: accountId,
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        volume: '0.01',
        idempotencyKey: 'unsigned-1',
      }),
    ).rejects.toMatchObject({ code: AppErrorCode.ORDER_SIGNATURE_INVALID });
    // Nothing reached the engine: the key is still free.
    expect(
      server.app.services.engine.knows({
        type: 'open_market',
        clientKey: 'unsigned-1',
        accountId,
      } as never),
    ).toBe(false);
  });

  it("a bot's idempotency key never answers with the trader's own order of the same key", async () => {
    const key = crypto.randomUUID();
    const mine = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'sell',
      volume: '0.01',
      idempotencyKey: key,
    });
    expect(mine.body.success, mine.body.message).toBe(true);
    const bot = systemActor({ name: 'grid-bot', tenantId, forUser: trader.userId });
    const botOrder = await placeOrder(ports, {
      actor: bot,
      account_id: accountId,
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      volume: '0.01',
      idempotencyKey: key,
    });
    expect(botOrder.ticket).not.toBe(mine.body.data.ticket);
  });
});
