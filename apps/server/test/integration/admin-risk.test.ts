import { randomUUID } from 'node:crypto';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/ids';
import { hashPassword } from '../../src/modules/identity/passwords';
import { LiquidityService } from '../../src/modules/liquidity/liquidity-service';
import { LiquidityRejection } from '../../src/modules/liquidity/provider';
import { ensureInstruments } from '../../src/modules/market/instruments-store';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { createStaffWithRole, StaffClient } from '../staff';
import { Trader } from '../trader';

let server: TTestServer;
let trader: Trader;
/** The demo trader's real account (funded), and their demo account. */
let real = 0;
let demo = 0;
let staff: StaffClient;

/** Pushes a quote through the market service, as the feed would. */
const tick = (symbol: 'BTCUSDT' | 'ETHUSDT', bid: number, spread: number) =>
  pushTick(server, symbol, bid, bid + spread);

/** A staff member of a broker (the default one, or the one named by `hostspecific`). */
const staffOf = (hostspecific?: string) =>
  new StaffClient(server.baseUrl, (name: string) => `/api/v1/admin/risk/${name}`, hostspecific);

/** A staff member of `tenantId` with one role holding `permissions`. */
async function createStaff(tenantId: string, username: string, password: string, permissions: string[]) {
  await createStaffWithRole(server.app.services.database.db, {
    tenantId,
    username,
    passwordHash: await hashPassword(password),
    permissions,
    roleName: `${username} role`,
  });
}

async function deposit(accountId: number, amountMinor: number) {
  const result = await server.app.services.engine.submit({
    type: 'deposit',
    accountId,
    amount: amountMinor,
    clientKey: randomUUID(),
    time: Date.now(),
  });
  expect(result.ok).toBe(true);
}

async function open(accountId: number, symbol: string, side: 'buy' | 'sell', volume: string) {
  const answer = await trader.send(accountId, { symbol, side, volume });
  expect(answer.body.success, answer.body.message).toBe(true);
  return answer.body.data.ticket as number;
}

async function close(accountId: number, positionId: number) {
  const answer = await trader.call('/api/v1/order/close', {
    account_id: accountId,
    order_id: positionId,
    idempotencyKey: randomUUID(),
  });
  expect(answer.body.success, answer.body.message).toBe(true);
}

type THedge = { positionId: number; purpose: string; status: string; side: string; volume: string };
async function hedgesOf(positionId: number): Promise<THedge[]> {
  const report = await staff.data('liquidity', { limit: 500 });
  return (report.orders as THedge[]).filter((o) => o.positionId === positionId);
}

beforeAll(async () => {
  // Crypto trades every day; prices come from the test.
  // The sandbox's random refusals would add attempts the retry test counts exactly.
  server = await startTestServer({ FEED: 'off', LP_SANDBOX_REJECT_RATE: '0' });
  tick('BTCUSDT', 67000, 25);
  tick('ETHUSDT', 3400, 1.8);
  trader = await Trader.signIn(server.baseUrl);
  real = await trader.createAccount(2, 2, 100);
  demo = await trader.createAccount(1, 2, 100);
  await deposit(real, 10_000_000); // 100,000.00 USD
  staff = await staffOf().signIn('admin', TEST_ADMIN_PASSWORD);
});
afterAll(() => server.close());

describe('risk: live exposure', () => {
  it('adds up the positions traders opened: per symbol, per customer and per group, real apart from demo', async () => {
    await open(real, 'BTCUSDT', 'buy', '0.10');
    await open(real, 'BTCUSDT', 'sell', '0.03');
    await open(real, 'ETHUSDT', 'buy', '1.00');
    await open(demo, 'BTCUSDT', 'buy', '0.05');

    const exposure = await staff.data('exposure', { scope: 'real' });
    const btc = exposure.symbols.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
    expect(btc).toMatchObject({
      buyLots: '0.10',
      sellLots: '0.03',
      netLots: '0.07',
      netLotsA: '0.00',
      netLotsB: '0.07',
      positions: 2,
      accounts: 1,
      bid: '67000.00',
      ask: '67025.00',
    });
    // net lots x contract size x mid price (USDT is 1 USD)
    const contract = server.app.services.market.spec('BTCUSDT')!.contractSize;
    expect(btc.netNotionalUsd).toBe(new Big('0.07').times(contract).times('67012.5').toFixed(2));
    const eth = exposure.symbols.find((s: { symbol: string }) => s.symbol === 'ETHUSDT');
    expect(eth).toMatchObject({ buyLots: '1.00', sellLots: '0.00', netLots: '1.00', positions: 1 });

    // The clients' floating profit is what the trader sees; the broker's B-book result its negative.
    const positions = (await trader.call('/api/v1/order/positions', { account_id: real })).body.data as {
      symbol: string;
      profit: string;
    }[];
    const btcProfit = positions
      .filter((p) => p.symbol === 'BTCUSDT')
      .reduce((sum, p) => sum.plus(p.profit), new Big(0));
    expect(btc.clientPnlUsd).toBe(btcProfit.toFixed(2));
    expect(btc.brokerPnlUsd).toBe(btcProfit.times(-1).toFixed(2));
    const allProfit = positions.reduce((sum, p) => sum.plus(p.profit), new Big(0));
    expect(exposure.totals).toMatchObject({
      positions: 3,
      accounts: 1,
      clientPnlUsd: allProfit.toFixed(2),
      brokerPnlUsd: allProfit.times(-1).toFixed(2),
    });
    expect(exposure.books.B.positions).toBe(3);
    expect(exposure.books.A.positions).toBe(0);

    expect(exposure.customers).toHaveLength(1);
    expect(exposure.customers[0]).toMatchObject({
      userId: trader.userId,
      // Masked, as on the customer list.
      email: 'de**@example.com',
      accounts: 1,
      positions: 3,
    });
    // largest exposure first: 0.07 BTC (about 4,690 USD) before 1 ETH (about 3,400 USD)
    expect(exposure.customers[0].symbols).toEqual([
      { symbol: 'BTCUSDT', netLots: '0.07' },
      { symbol: 'ETHUSDT', netLots: '1.00' },
    ]);
    expect(exposure.customers[0].exposureUsd).toBe(
      new Big(btc.netNotionalUsd).plus(eth.netNotionalUsd).toFixed(2),
    );
    expect(exposure.groups).toHaveLength(1);
    expect(exposure.groups[0]).toMatchObject({ name: 'Standard', positions: 3 });
    expect(exposure.groups[0].exposureUsd).toBe(exposure.customers[0].exposureUsd);

    const demoOnly = await staff.data('exposure', { scope: 'demo' });
    expect(demoOnly.symbols).toHaveLength(1);
    expect(demoOnly.symbols[0]).toMatchObject({ symbol: 'BTCUSDT', netLots: '0.05', positions: 1 });
    const all = await staff.data('exposure', { scope: 'all' });
    expect(all.symbols.find((s: { symbol: string }) => s.symbol === 'BTCUSDT').netLots).toBe('0.12');

    // Live: a new tick moves the figures without anything else happening.
    tick('BTCUSDT', 67500, 25);
    const moved = await staff.data('exposure', { scope: 'real' });
    const btcMoved = moved.symbols.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
    // +0.10 and -0.03 lots: 0.07 x 500 = +35.00 more for the clients
    expect(new Big(btcMoved.clientPnlUsd).minus(btc.clientPnlUsd).toFixed(2)).toBe('35.00');
  });
});

describe('risk: A-book routing and hedging', () => {
  let ruleId = '';

  it('routes a customer to the A-book: the opening and the closing are hedged with the provider', async () => {
    const saved = await staff.data('rulesave', {
      priority: 10,
      kind: 'customer',
      customer: 'DEMO@example.com',
      book: 'A',
      note: 'hedge the demo trader',
    });
    ruleId = saved.id;
    expect(saved).toMatchObject({ kind: 'customer', userId: trader.userId, book: 'A', enabled: true });
    // The customer's name and masked email come from identity.
    expect(saved.userName).toEqual(expect.any(String));
    expect(saved.userEmail).toMatch(/^d.*\*.*@example\.com$/i);

    const positionId = await open(real, 'BTCUSDT', 'buy', '0.20');
    await expect
      .poll(async () => (await hedgesOf(positionId))[0]?.status, { timeout: 10_000, interval: 100 })
      .toBe('filled');
    const [opening] = await hedgesOf(positionId);
    expect(opening).toMatchObject({ purpose: 'open', side: 'buy', volume: '0.20' });
    const row = await server.app.services.database.db
      .selectFrom('lp_orders')
      .selectAll()
      .where('position_id', '=', String(positionId))
      .executeTakeFirstOrThrow();
    expect(row.rule_id).toBe(ruleId);
    expect(Number(row.requested_price)).toBe(6_752_500); // the client's ask
    // the provider fills at its raw quote, a few points away
    expect(Math.abs(Number(row.fill_price) - 6_752_500)).toBeLessThanOrEqual(3);
    expect(row.latency_ms).toBeGreaterThanOrEqual(20);

    const exposure = await staff.data('exposure', { scope: 'real' });
    expect(exposure.books.A.positions).toBe(1);
    const btc = exposure.symbols.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
    expect(btc).toMatchObject({ netLotsA: '0.20', netLotsB: '0.07', netLots: '0.27' });

    // Positions opened before the rule stay B-book; demo accounts are never hedged.
    const demoPosition = await open(demo, 'BTCUSDT', 'buy', '0.01');
    await close(real, positionId);
    await expect
      .poll(async () => (await hedgesOf(positionId)).find((h) => h.purpose === 'close')?.status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('filled');
    expect((await hedgesOf(positionId)).find((h) => h.purpose === 'close')).toMatchObject({
      side: 'sell',
      volume: '0.20',
    });
    await server.app.services.liquidity.idle();
    expect(await hedgesOf(demoPosition)).toEqual([]);
    expect(server.app.services.liquidity.bookOf(positionId)).toBe('B'); // closed: forgotten
  });

  it('retries a refused hedge a bounded number of times, flags it for the dealer, and the dealer retries it', async () => {
    const provider = server.app.services.liquidity.provider;
    const refuse = vi
      .spyOn(provider, 'sendOrder')
      .mockRejectedValue(new LiquidityRejection('rejected', 'off quotes'));
    const positionId = await open(real, 'ETHUSDT', 'sell', '0.50');
    await server.app.services.liquidity.idle();
    expect(refuse).toHaveBeenCalledTimes(3);
    refuse.mockRestore();
    const report = await staff.data('liquidity', { filter: 'attention' });
    expect(report.attention).toBe(1);
    const flagged = report.orders[0];
    expect(flagged).toMatchObject({
      positionId,
      status: 'failed',
      attempts: 3,
      flagged: true,
      error: 'rejected: off quotes',
    });
    const retried = await staff.data('hedgeretry', { id: flagged.id });
    expect(retried).toMatchObject({ status: 'filled', flagged: false, attempts: 4, side: 'sell' });
    expect((await staff.data('liquidity', { filter: 'attention' })).attention).toBe(0);
    // a filled order is not retried again
    expect((await staff.call('hedgeretry', { id: flagged.id })).body.errorCode).toBe(-6009);
    await close(real, positionId);
    await server.app.services.liquidity.idle();
  });

  it('flags a hedge order left pending by a restart instead of resending it blindly', async () => {
    const db = server.app.services.database.db;
    const tenantId = (
      await db.selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
    ).id;
    const id = newId();
    await db
      .insertInto('lp_orders')
      .values({
        id,
        tenant_id: tenantId,
        account_id: real,
        position_id: 999_999,
        user_id: trader.userId,
        purpose: 'open',
        symbol: 'BTCUSDT',
        side: 'buy',
        volume: 1,
        requested_price: 6_700_000,
        status: 'pending',
        latency_ms: null,
        error: null,
        provider: 'Simulated LP',
        provider_order_id: null,
        rule_id: null,
      })
      .execute();
    const { engine, market, database } = server.app.services;
    const restarted = new LiquidityService({ database, engine, market });
    restarted.start();
    await restarted.stop();
    const row = await db.selectFrom('lp_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', flagged: true, error: 'interrupted by a server restart' });
    // the dealer sees it; the position is gone, so a retry only clears the flag
    const retried = await staff.data('hedgeretry', { id });
    expect(retried).toMatchObject({ flagged: false, status: 'failed' });
  });

  it('checks rules: a customer must exist, a profitability rule needs a threshold; rules are listed by priority', async () => {
    const unknown = await staff.call('rulesave', {
      priority: 5,
      kind: 'customer',
      customer: 'nobody@example.com',
      book: 'A',
    });
    expect(unknown.body.errorCode).toBe(-9001);
    expect(unknown.body.fields).toMatchObject({ customer: expect.any(String) });
    const empty = await staff.call('rulesave', { priority: 5, kind: 'profitability', book: 'A' });
    expect(empty.body.errorCode).toBe(-9001);
    const tooHigh = await staff.call('rulesave', {
      priority: 5,
      kind: 'profitability',
      book: 'A',
      minWinRate: '101',
    });
    expect(tooHigh.body.errorCode).toBe(-9001);
    const sharp = await staff.data('rulesave', {
      priority: 5,
      kind: 'profitability',
      book: 'A',
      minRealizedProfitUsd: '2500.50',
      minWinRate: '62.5',
      minTrades: 20,
      windowDays: 30,
    });
    expect(sharp).toMatchObject({ minRealizedProfitUsd: '2500.50', minWinRate: '62.50', minTrades: 20 });
    const listed = await staff.data('rules');
    expect(listed.rules.map((r: { id: string }) => r.id)).toEqual([sharp.id, ruleId]);
    expect(listed.groups[0].name).toBe('Standard');

    const changed = await staff.data('rulesave', {
      id: ruleId,
      priority: 10,
      kind: 'customer',
      customer: trader.userId,
      book: 'A',
      enabled: false,
    });
    expect(changed.enabled).toBe(false);
    // with the customer rule off, the new position stays B-book
    const positionId = await open(real, 'BTCUSDT', 'buy', '0.01');
    await server.app.services.liquidity.idle();
    expect(await hedgesOf(positionId)).toEqual([]);

    expect((await staff.data('ruledelete', { id: sharp.id })).ok).toBe(true);
    expect((await staff.call('ruledelete', { id: sharp.id })).body.errorCode).toBe(-6009);
    const audit = await server.app.services.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'like', 'risk.%')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'risk.rule.create',
        'risk.rule.update',
        'risk.rule.delete',
        'risk.hedge.retry',
      ]),
    );
  });
});

describe('risk: winners, margin calls and levels', () => {
  let small = 0;

  it('ranks customers by realized plus floating profit over the period', async () => {
    const report = await staff.data('winners', { period: 'today', scope: 'real' });
    const rows = [...report.winners, ...report.losers];
    const me = rows.find((r: { userId: string }) => r.userId === trader.userId);
    expect(me).toBeDefined();
    const deals = await server.app.services.database.db
      .selectFrom('deals')
      .select(['profit', 'swap', 'commission'])
      .where('account_id', '=', String(real))
      .execute();
    expect(me.deals).toBe(deals.length);
    const realized = deals.reduce((s, d) => s.plus(d.profit).plus(d.swap).plus(d.commission), new Big(0));
    expect(me.realizedUsd).toBe(realized.div(100).toFixed(2));
    expect(me.totalUsd).toBe(new Big(me.realizedUsd).plus(me.floatingUsd).toFixed(2));
    const demoReport = await staff.data('winners', { period: '30d', scope: 'demo' });
    const demoRow = [...demoReport.winners, ...demoReport.losers].find(
      (r: { userId: string }) => r.userId === trader.userId,
    );
    expect(demoRow?.deals ?? 0).toBe(0); // the demo positions are still open
  });

  it('lists accounts at or below their margin-call level, closest to stop-out first', async () => {
    small = await trader.createAccount(2, 2, 100);
    await deposit(small, 100_000); // 1,000.00 USD
    tick('BTCUSDT', 67000, 25);
    await open(small, 'BTCUSDT', 'buy', '0.10'); // margin 670.25
    expect(await staff.data('margincalls', { scope: 'real' })).toEqual([]);
    // a wide spread lets the 5,000 drop through the off-market filter; the bid is what counts
    tick('BTCUSDT', 62000, 250); // equity 1000 - 502.50 = 497.50: 74.23 %
    const list = await staff.data('margincalls', { scope: 'real' });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      accountId: small,
      userId: trader.userId,
      groupName: 'Standard',
      equity: '497.50',
      margin: '670.25',
      marginLevel: '74.23', // the engine's margin level, rounded half up
      marginCallLevel: '100.00',
      stopOutLevel: '50.00',
      distanceToStopOut: '24.23',
      // 497.50 - 670.25 x 50 % = 162.37 (the stop-out margin rounded up to the cent)
      equityToStopOut: '162.37',
      positions: 1,
    });
  });

  it('validates levels: stop-out below margin call, both within 0..1000 %', async () => {
    const [group] = await staff.data('levels');
    expect(group).toMatchObject({
      name: 'Standard',
      isDefault: true,
      marginCallBp: 10_000,
      stopOutBp: 5_000,
    });
    const crossed = await staff.call('levelsave', {
      groupId: group.id,
      marginCallBp: 5_000,
      stopOutBp: 5_000,
      negativeBalanceProtection: true,
    });
    expect(crossed.body.errorCode).toBe(-6013);
    expect(crossed.body.fields).toMatchObject({ stopOutBp: expect.any(String) });
    const outOfRange = await staff.call('levelsave', {
      groupId: group.id,
      marginCallBp: 100_001,
      stopOutBp: 5_000,
      negativeBalanceProtection: true,
    });
    expect(outOfRange.body.errorCode).toBe(-9001);
    const stale = await staff.call('levelsave', {
      groupId: group.id,
      marginCallBp: 9_000,
      stopOutBp: 4_000,
      negativeBalanceProtection: true,
      updatedAt: '2000-01-01T00:00:00.000Z',
    });
    expect(stale.body.errorCode).toBe(-6017);
    const [unchanged] = await staff.data('levels');
    expect(unchanged.marginCallBp).toBe(10_000);
  });

  it('previews what proposed levels would do now, without changing anything', async () => {
    const [group] = await staff.data('levels');
    // `small` is at 74.23 % (equity 497.50, floating -502.50): between 70 % and 80 %.
    const calls = await staff.data('levelpreview', {
      groupId: group.id,
      marginCallBp: 8_000,
      stopOutBp: 7_000,
    });
    expect(calls).toMatchObject({
      marginCall: 1,
      stopOut: 0,
      stopOutPositions: 0,
      stopOutFloatingUsd: '0.00',
    });
    expect(calls.accounts).toBeGreaterThanOrEqual(3);
    const outs = await staff.data('levelpreview', {
      groupId: group.id,
      marginCallBp: 10_000,
      stopOutBp: 8_000,
    });
    expect(outs).toMatchObject({ stopOut: 1, stopOutPositions: 1, stopOutFloatingUsd: '-502.50' });
    expect((await staff.data('levels'))[0]).toMatchObject({ marginCallBp: 10_000, stopOutBp: 5_000 });
    expect(server.app.services.engine.core.account(small)?.stopOutBp).toBe(5_000);
    const unknown = await staff.call('levelpreview', {
      groupId: 'nope',
      marginCallBp: 10_000,
      stopOutBp: 8_000,
    });
    expect(unknown.body.errorCode).toBe(-6009);
  });

  it('lowers a group’s levels: the engine’s accounts take them at once and the margin-call list follows', async () => {
    const [group] = await staff.data('levels');
    const saved = await staff.data('levelsave', {
      groupId: group.id,
      marginCallBp: 7_000,
      stopOutBp: 3_000,
      negativeBalanceProtection: false,
      updatedAt: group.updatedAt,
    });
    expect(saved).toMatchObject({ marginCallBp: 7_000, stopOutBp: 3_000, negativeBalanceProtection: false });
    expect(saved.accounts).toBeGreaterThanOrEqual(3);
    for (const accountId of [real, small, demo])
      expect(server.app.services.engine.core.account(accountId)).toMatchObject({
        marginCallBp: 7_000,
        stopOutBp: 3_000,
        negativeBalanceProtection: false,
      });
    // 74.23 % is above the new 70 % margin call
    expect(await staff.data('margincalls', { scope: 'real' })).toEqual([]);
    const audit = await server.app.services.database.db
      .selectFrom('audit_events')
      .select(['details', 'target'])
      .where('action', '=', 'risk.levels.update')
      .executeTakeFirstOrThrow();
    expect(audit.target).toBe(group.id);
    expect(JSON.stringify(audit.details)).toContain('"stopOutBp":3000');
    // restore the defaults for the other tests
    await staff.data('levelsave', {
      groupId: group.id,
      marginCallBp: 10_000,
      stopOutBp: 5_000,
      negativeBalanceProtection: true,
    });
    expect(server.app.services.engine.core.account(small)?.marginCallBp).toBe(10_000);
  });
});

describe('risk: permissions and brokers', () => {
  it('lets a view-only role read but not change anything', async () => {
    const db = server.app.services.database.db;
    const tenantId = (
      await db.selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
    ).id;
    await createStaff(tenantId, 'riskviewer', 'Viewer-Password-2026', ['risk.view']);
    const viewer = await staffOf().signIn('riskviewer', 'Viewer-Password-2026');
    expect((await viewer.call('exposure', {})).body.success).toBe(true);
    const [group] = await viewer.data('levels');
    const refused = await viewer.call('levelsave', {
      groupId: group.id,
      marginCallBp: 9_000,
      stopOutBp: 4_000,
      negativeBalanceProtection: true,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(-1009);
    expect(
      (await viewer.call('rulesave', { priority: 1, kind: 'customer', customer: 'x', book: 'A' })).status,
    ).toBe(403);
  });

  it('shows another broker’s staff none of this broker’s exposure, hedges, rules or accounts', async () => {
    const db = server.app.services.database.db;
    const other = await createTenant({ db, slug: 'riskb', name: 'Second Broker', hosts: ['riskb.test'] });
    await ensureInstruments({ db, tenantId: other.id });
    await createStaff(other.id, 'boss', 'Second-Broker-2026', ['risk.view', 'risk.edit']);
    const outsider = await staffOf('riskb').signIn('boss', 'Second-Broker-2026');

    const exposure = await outsider.data('exposure', { scope: 'all' });
    expect(exposure.symbols).toEqual([]);
    expect(exposure.customers).toEqual([]);
    expect(exposure.totals.positions).toBe(0);
    const hedges = await outsider.data('liquidity', {});
    expect(hedges.orders).toEqual([]);
    expect(hedges.attention).toBe(0);
    expect((await outsider.data('rules')).rules).toEqual([]);
    expect(await outsider.data('margincalls', { scope: 'all' })).toEqual([]);
    const winners = await outsider.data('winners', { period: '30d', scope: 'all' });
    expect([...winners.winners, ...winners.losers]).toEqual([]);
    const levels = await outsider.data('levels');
    expect(levels).toHaveLength(1);
    expect(levels[0].accounts).toBe(0);

    // Nor can it touch them by id.
    const mine = await staff.data('rules');
    const ruleId = mine.rules[0].id;
    expect((await outsider.call('ruledelete', { id: ruleId })).body.errorCode).toBe(-6009);
    const myGroup = (await staff.data('levels'))[0];
    const foreign = await outsider.call('levelsave', {
      groupId: myGroup.id,
      marginCallBp: 9_000,
      stopOutBp: 4_000,
      negativeBalanceProtection: true,
    });
    expect(foreign.body.errorCode).toBe(-6009);
    const hedge = (await staff.data('liquidity', {})).orders[0];
    expect((await outsider.call('hedgeretry', { id: hedge.id })).body.errorCode).toBe(-6009);
    const ruleGroup = await outsider.call('rulesave', {
      priority: 1,
      kind: 'group',
      groupId: myGroup.id,
      book: 'A',
    });
    expect(ruleGroup.body.errorCode).toBe(-9001);
    const ruleCustomer = await outsider.call('rulesave', {
      priority: 1,
      kind: 'customer',
      customer: 'demo@example.com',
      book: 'A',
    });
    expect(ruleCustomer.body.errorCode).toBe(-9001);
    expect((await staff.data('levels'))[0].marginCallBp).toBe(10_000);
  });
});
