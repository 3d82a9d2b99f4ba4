import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureInstruments } from '../../src/modules/market/instruments-store';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { applyMarketConfig } from '../../src/modules/trading/terms-sync';
import { ApiClient, pushTick, startTestServer, type TTestServer } from '../helpers';
import { Trader } from '../trader';

let server: TTestServer;
let defaultTenant = '';
/** Pushes a BTCUSDT quote through the market service, as the feed would, at the real time. */
const tick = (bid: number, ask = bid + 25) => pushTick(server, 'BTCUSDT', bid, ask);

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  const db = server.app.services.database.db;
  defaultTenant = (
    await db.selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  const other = await createTenant({ db, slug: 'second', name: 'Second Broker', hosts: ['second.test'] });
  await ensureInstruments({ db, tenantId: other.id });
  await applyMarketConfig(server.app.services.engine, other.id);
  tick(67000);
});
afterAll(() => server.close());

async function detail(hostspecific?: string) {
  const api = new ApiClient(server.baseUrl);
  const answer = await api.post('/api/v1/quote/currencydetail', {
    symbol: 'BTCUSDT',
    ...(hostspecific ? { Hostspecific: hostspecific } : {}),
  });
  return answer.body.data as {
    quote: { bid: string; ask: string; spread: number };
    info: { enabled: boolean };
  };
}

describe('market configuration reaches the engine and the portal without a restart', () => {
  it('widens one broker’s quotes (REST and WebSocket) within a second, and fills at the wider price', async () => {
    const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/ws/market`);
    const quotes: { spread: number; time: number }[] = [];
    let configs = 0;
    socket.on('message', (raw) => {
      const m = JSON.parse(raw.toString());
      for (const x of m.type === 'batch' ? m.data : [m]) {
        if (x.type === 'quote') quotes.push(x.data);
        if (x.type === 'config') configs++;
      }
    });
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ op: 'subscribe', channel: 'quote', symbols: ['BTCUSDT'] }));
    expect((await detail()).quote.spread).toBe(2500);

    const db = server.app.services.database.db;
    const started = Date.now();
    await db
      .updateTable('instruments')
      .set({ markup_points: 500 })
      .where('tenant_id', '=', defaultTenant)
      .where('symbol', '=', 'BTCUSDT')
      .execute();
    await applyMarketConfig(server.app.services.engine, defaultTenant);
    const applied = Date.now() - started;
    expect(applied).toBeLessThan(1000);
    // 500 points: 250 below the bid, 250 above the ask.
    expect((await detail()).quote).toMatchObject({ bid: '66997.50', ask: '67027.50', spread: 3000 });
    // Another broker keeps the feed's quote.
    expect((await detail('second')).quote.spread).toBe(2500);
    tick(67100);
    await expect.poll(() => quotes.at(-1)?.spread, { timeout: 1000 }).toBe(3000);
    // The portal is told to read the broker's specs again.
    expect(configs).toBeGreaterThan(0);
    socket.close();

    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const buy = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    expect(buy.body.success, buy.body.message).toBe(true);
    const positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data;
    expect(positions[0].open_price).toBe('67127.50');
    const closeAll = await trader.call('/api/v1/order/closeall', {
      account_id: accountId,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(closeAll.body.success, closeAll.body.message).toBe(true);
  });

  it('a disabled symbol refuses new orders at once; group levels reach every account of the group', async () => {
    const db = server.app.services.database.db;
    const trader = await Trader.signIn(server.baseUrl);
    const accounts = (await trader.call('/api/v1/account/list')).body.data as { account_id: number }[];
    const accountId = accounts[0]!.account_id;
    await db
      .updateTable('instruments')
      .set({ enabled: false })
      .where('tenant_id', '=', defaultTenant)
      .where('symbol', '=', 'BTCUSDT')
      .execute();
    await applyMarketConfig(server.app.services.engine, defaultTenant);
    const refused = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    expect(refused.body.errorCode).toBe(-3003);
    expect((await detail()).info.enabled).toBe(false);
    await db
      .updateTable('instruments')
      .set({ enabled: true })
      .where('tenant_id', '=', defaultTenant)
      .where('symbol', '=', 'BTCUSDT')
      .execute();

    await db
      .updateTable('account_groups')
      .set({ margin_call_bp: 15_000, stop_out_bp: 8_000 })
      .where('tenant_id', '=', defaultTenant)
      .where('is_default', '=', true)
      .execute();
    await applyMarketConfig(server.app.services.engine, defaultTenant);
    expect(server.app.services.engine.core.account(accountId)).toMatchObject({
      marginCallBp: 15_000,
      stopOutBp: 8_000,
    });
    const row = await db
      .selectFrom('trading_accounts')
      .select(['margin_call_bp', 'stop_out_bp', 'group_id'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ margin_call_bp: 15_000, stop_out_bp: 8_000 });
    expect(row.group_id).toBeTruthy();
    const ok = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    expect(ok.body.success, ok.body.message).toBe(true);
  });

  it('margins a large position at its leverage tier, from the broker’s saved tiers', async () => {
    const db = server.app.services.database.db;
    await db
      .updateTable('instruments')
      .set({
        leverage_tiers: JSON.stringify([
          { upToLots: '0.05', maxLeverage: 10 },
          { upToLots: '1', maxLeverage: 5 },
        ]),
      } as never)
      .where('tenant_id', '=', defaultTenant)
      .where('symbol', '=', 'BTCUSDT')
      .execute();
    await applyMarketConfig(server.app.services.engine, defaultTenant);
    const trader = await Trader.signIn(server.baseUrl);
    const accounts = (await trader.call('/api/v1/account/list')).body.data as { account_id: number }[];
    const accountId = accounts[0]!.account_id;
    await trader.call('/api/v1/order/closeall', {
      account_id: accountId,
      idempotencyKey: crypto.randomUUID(),
    });
    const small = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    const large = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.10' });
    expect(large.body.success, large.body.message).toBe(true);
    const positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data as {
      order_id: number;
      margin: string;
      open_price: string;
    }[];
    const byTicket = new Map(positions.map((p) => [p.order_id, p]));
    const smallRow = byTicket.get(small.body.data.ticket)!;
    const largeRow = byTicket.get(large.body.data.ticket)!;
    // 0.01 lot at the first tier's 1:10, 0.10 lot at the second tier's 1:5 (margin rounds up to a cent).
    expect(Number(smallRow.margin)).toBeCloseTo((Number(smallRow.open_price) * 0.01) / 10, 1);
    expect(Number(largeRow.margin)).toBeCloseTo((Number(largeRow.open_price) * 0.1) / 5, 1);
  });
});
