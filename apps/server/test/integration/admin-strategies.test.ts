import { randomUUID } from 'node:crypto';
import { ADMIN_STRATEGY_PATHS } from '@broker/contracts/admin/strategy-paths';
import { STRATEGY_PATHS } from '@broker/contracts/strategy-paths';
import { CloseReason } from '@broker/domain/trading/orders';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../src/modules/identity/passwords';
import { ensureInstruments } from '../../src/modules/market/instruments-store';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { createStaffWithRole, StaffClient, signInWithTwoFactor } from '../staff';
import { Trader } from '../trader';

/**
 * The back office's strategy bots (issue 19) on the real server and database: every bot of the
 * broker listed with its customer and filtered by state, symbol, kind and customer; one bot with its
 * log; a view-only staff member refused the stop; staff stopping a martingale closing its position
 * (close reason 6, the money back, the audit naming the staff member and the reason) and a grid
 * keeping its position; the bots' exposure per symbol; another broker's staff kept away.
 */
let server: TTestServer;
let admin: StaffClient<TAdminName>;
/** The demo trader, with a grid and a martingale; a second trader with a short grid. */
let alice: Trader;
let bob: Trader;
let aliceMain = 0;
let bobMain = 0;
let aliceGrid: TBot;
let aliceMartingale: TBot;
let bobGrid: TBot;

type TAdminName = keyof typeof ADMIN_STRATEGY_PATHS;
type TBot = { strategy_id: number; account_id: number; parent_account_id: number };
const engine = () => server.app.services.engine;
const db = () => server.app.services.database.db;
const staffOf = (host?: string) =>
  new StaffClient<TAdminName>(server.baseUrl, (name) => ADMIN_STRATEGY_PATHS[name], host);
const ids = (items: { strategy_id: number }[]) => items.map((s) => s.strategy_id);

/** A BTCUSDT quote with a 50.00 spread, once the engine prices with it. */
async function tick(bid: number) {
  pushTick(server, 'BTCUSDT', bid, bid + 50);
  // vi.waitFor, not expect.poll: the bots are created in beforeAll
  await vi.waitFor(
    () => expect(Math.abs((engine().core.quote('BTCUSDT')?.bid ?? 0) - bid * 100)).toBeLessThan(1_000),
    { interval: 5 },
  );
}

async function create(trader: Trader, account: number, investment: string, spec: object): Promise<TBot> {
  const answer = await trader.call(STRATEGY_PATHS.strategycreate, {
    account_id: account,
    investment,
    spec,
    idempotencyKey: randomUUID(),
  });
  expect(answer.body.success, answer.body.message).toBe(true);
  return answer.body.data;
}

const grid = (direction: 'long' | 'short') => ({
  kind: 'grid',
  params: {
    symbol: 'BTCUSDT',
    direction,
    lowerPrice: direction === 'long' ? '66000.00' : '67100.00',
    upperPrice: direction === 'long' ? '67000.00' : '68100.00',
    grids: 4,
    spacing: 'arithmetic',
    volumePerGrid: '0.01',
  },
});

async function createStaff(tenantId: string, username: string, permissions: string[]) {
  const password = 'Staff-Password-2026';
  const { staffId } = await createStaffWithRole(db(), {
    tenantId,
    username,
    passwordHash: await hashPassword(password),
    permissions,
    roleName: `${username} role`,
  });
  return { staffId, password };
}

const defaultTenant = async () =>
  (await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  admin = await staffOf().signIn('admin', TEST_ADMIN_PASSWORD);
  await tick(67_000);
  alice = await Trader.signIn(server.baseUrl);
  aliceMain = await alice.createAccount(1, 2, 100);
  bob = await Trader.signInStranger(server);
  bobMain = await bob.createAccount(1, 2, 100);
  aliceGrid = await create(alice, aliceMain, '1000.00', grid('long'));
  aliceMartingale = await create(alice, aliceMain, '2000.00', {
    kind: 'martingale',
    params: {
      symbol: 'BTCUSDT',
      direction: 'long',
      firstVolume: '0.01',
      stepPercent: '0.5',
      multiplier: '2',
      maxAdds: 3,
      takeProfitPercent: '0.3',
    },
  });
  bobGrid = await create(bob, bobMain, '1000.00', grid('short'));
});
afterAll(() => server.close());

describe('strategy bots in the back office', { timeout: 60_000 }, () => {
  it('lists every bot of the broker with its customer, by state, symbol, kind and customer', async () => {
    const working = await admin.data('adminstrategies', {});
    expect(ids(working.items)).toEqual([
      bobGrid.strategy_id,
      aliceMartingale.strategy_id,
      aliceGrid.strategy_id,
    ]);
    expect(working.counts).toMatchObject({ running: 3, working: 3, all: 3, stopped_closed: 0 });
    expect(working.symbols).toEqual(['BTCUSDT']);
    const martingale = working.items.find((s: TBot) => s.strategy_id === aliceMartingale.strategy_id);
    expect(martingale).toMatchObject({
      kind: 'martingale',
      state: 'running',
      account_id: aliceMartingale.account_id,
      parent_account_id: aliceMain,
      userId: alice.userId,
      customerEmail: 'demo@example.com',
      investment: '2000.00',
      openPositions: 1,
    });
    expect(Number(martingale.margin)).toBeGreaterThan(0);
    expect(working.items.find((s: TBot) => s.strategy_id === bobGrid.strategy_id)).toMatchObject({
      userId: bob.userId,
      customerName: 'Stranger',
      openOrders: 4,
    });

    const byKind = await admin.data('adminstrategies', { kind: 'martingale' });
    expect(ids(byKind.items)).toEqual([aliceMartingale.strategy_id]);
    expect(byKind.counts.working).toBe(1);
    expect((await admin.data('adminstrategies', { symbol: 'ethusdt' })).items).toEqual([]);
    expect((await admin.data('adminstrategies', { symbol: 'BTCUSDT', kind: 'grid' })).total).toBe(2);

    // a customer by e-mail, or a bot, strategy account or main account by its number
    const email = (
      await db().selectFrom('users').select('email').where('id', '=', bob.userId).executeTakeFirstOrThrow()
    ).email as string;
    expect(ids((await admin.data('adminstrategies', { search: email.slice(0, 20) })).items)).toEqual([
      bobGrid.strategy_id,
    ]);
    expect(ids((await admin.data('adminstrategies', { search: String(aliceMain) })).items)).toEqual([
      aliceMartingale.strategy_id,
      aliceGrid.strategy_id,
    ]);
    expect(
      ids((await admin.data('adminstrategies', { search: String(aliceGrid.account_id) })).items),
    ).toEqual([aliceGrid.strategy_id]);
    expect((await admin.data('adminstrategies', { search: 'nobody-like-this' })).total).toBe(0);
    expect((await admin.data('adminstrategies', { state: 'stopped_closed' })).items).toEqual([]);
    // 20 a page by default; a smaller page keeps the total
    const paged = await admin.data('adminstrategies', { size: 2, page: 2 });
    expect(ids(paged.items)).toEqual([aliceGrid.strategy_id]);
    expect(paged.total).toBe(3);
  });

  it('opens a bot with its parameters, levels and log', async () => {
    const detail = await admin.data('adminstrategydetail', { strategy_id: aliceGrid.strategy_id });
    expect(detail.strategy).toMatchObject({
      strategy_id: aliceGrid.strategy_id,
      customerEmail: 'demo@example.com',
      levels: ['66000.00', '66250.00', '66500.00', '66750.00', '67000.00'],
      params: { kind: 'grid', params: { direction: 'long', grids: 4, volumePerGrid: '0.01' } },
    });
    expect(detail.log.map((l: { action: string }) => l.action)).toEqual(
      expect.arrayContaining(['started', 'order_placed']),
    );
    expect((await admin.call('adminstrategydetail', { strategy_id: 999_999 })).body.code).toBe(-5204);
  });

  it('shows staff holding only strategies.view every bot, and refuses them the stop', async () => {
    await createStaff(await defaultTenant(), 'botviewer', ['strategies.view']);
    const viewer = await staffOf().signIn('botviewer', 'Staff-Password-2026');
    expect((await viewer.data('adminstrategies', {})).total).toBe(3);
    const refused = await viewer.call('adminstrategystop', {
      strategy_id: aliceGrid.strategy_id,
      closePositions: true,
      reason: 'Risk limit',
      idempotencyKey: randomUUID(),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(-1009);
    // the risk page's bot exposure needs risk.view
    expect((await viewer.call('adminstrategyexposure', {})).status).toBe(403);
    expect(engine().core.strategy(aliceGrid.strategy_id)?.strategy.state).toBe('running');
  });

  it('shows the bots’ open volume, margin, working bots and pending orders per symbol on the risk page', async () => {
    const { symbols } = await admin.data('adminstrategyexposure', { scope: 'demo' });
    expect(symbols).toHaveLength(1);
    const [btc] = symbols;
    // the martingale's first buy and its first add waiting (0.02); the long grid's four buy limits and
    // the short grid's four sell limits
    expect(btc).toMatchObject({
      symbol: 'BTCUSDT',
      workingBots: 3,
      positions: 1,
      longLots: '0.01',
      shortLots: '0.00',
      netLots: '0.01',
      orders: 9,
      buyOrderLots: '0.06',
      sellOrderLots: '0.04',
    });
    const margin = engine()
      .core.positionsOf(aliceMartingale.account_id)
      .reduce((sum, p) => sum + p.margin, 0);
    expect(btc.marginUsd).toBe((margin / 100).toFixed(2));
    // demo bots are not the broker's money: the real scope (the default) has none
    expect((await admin.data('adminstrategyexposure', {})).symbols).toEqual([]);
  });

  it('stops a martingale closing its position: close reason 6, the money back, the audit names the staff member and the reason', async () => {
    const reasonTooLong = await admin.call('adminstrategystop', {
      strategy_id: aliceMartingale.strategy_id,
      closePositions: true,
      reason: 'x'.repeat(61),
      idempotencyKey: randomUUID(),
    });
    expect(reasonTooLong.body.code).toBe(-9001);
    const blank = await admin.call('adminstrategystop', {
      strategy_id: aliceMartingale.strategy_id,
      closePositions: true,
      reason: '   ',
      idempotencyKey: randomUUID(),
    });
    expect(blank.body.code).toBe(-9001);

    const mainBefore = engine().core.account(aliceMain)!.balance;
    const key = randomUUID();
    const stopped = await admin.data('adminstrategystop', {
      strategy_id: aliceMartingale.strategy_id,
      closePositions: true,
      reason: 'Exposure limit',
      idempotencyKey: key,
    });
    expect(stopped.strategy).toMatchObject({
      state: 'stopped_closed',
      stopReason: 'broker',
      openPositions: 0,
      customerEmail: 'demo@example.com',
    });
    // the trader is told, with the reason (the catcher stores a mail before it acknowledges it)
    const told = (server.app.services.mailCatcher?.list('demo@example.com') ?? []).find((m) =>
      m.subject.includes(`#${aliceMartingale.strategy_id}`),
    );
    expect(told?.subject).toContain('stopped by the broker');
    expect(told?.text).toContain('Exposure limit');
    expect(told?.text).toContain('positions were closed');
    const returned = Math.round(Number(stopped.returned) * 100);
    expect(returned).toBeGreaterThan(190_000);
    expect(engine().core.account(aliceMain)!.balance).toBe(mainBefore + returned);
    expect(engine().core.account(aliceMartingale.account_id)?.closed).toBe(true);
    const history = await alice.call('/api/v1/order/history', {
      account_id: aliceMartingale.account_id,
      page: 1,
      size: 10,
    });
    expect(history.body.data.items.map((d: { close_reason: number }) => d.close_reason)).toEqual([
      CloseReason.STRATEGY_STOPPED_ACTIVELY,
    ]);
    // stopping it again is refused: it is stopped already
    const again = await admin.call('adminstrategystop', {
      strategy_id: aliceMartingale.strategy_id,
      closePositions: true,
      reason: 'Exposure limit',
      idempotencyKey: randomUUID(),
    });
    expect(again.body.code).toBe(-5207);

    const adminId = (
      await db().selectFrom('staff').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    ).id;
    const audit = await db()
      .selectFrom('audit_events')
      .select(['actor_kind', 'actor_id', 'action', 'details'])
      .where('action', '=', 'strategy.stop')
      .where('target', '=', String(aliceMartingale.account_id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_kind: 'staff', actor_id: adminId });
    const details = typeof audit[0]!.details === 'string' ? JSON.parse(audit[0]!.details) : audit[0]!.details;
    expect(details).toMatchObject({
      strategyId: aliceMartingale.strategy_id,
      closePositions: true,
      reason: 'Exposure limit',
      onBehalfOf: alice.userId,
    });
    // the trader sees it stopped in the portal
    const mine = await alice.call(STRATEGY_PATHS.strategylist, { includeClosed: true });
    expect(mine.body.data.items.find((s: TBot) => s.strategy_id === aliceMartingale.strategy_id)?.state).toBe(
      'stopped_closed',
    );
    const closed = await admin.data('adminstrategies', { state: 'stopped_closed' });
    expect(ids(closed.items)).toEqual([aliceMartingale.strategy_id]);
    expect(closed.counts).toMatchObject({ working: 2, stopped_closed: 1, all: 3 });
  });

  it('stops a grid keeping its position, then closes the kept position', async () => {
    // the ask reaches 66,750.00: the top cell buys
    await tick(66_700);
    await expect.poll(() => engine().core.positionsOf(aliceGrid.account_id).length).toBe(1);
    const kept = await admin.data('adminstrategystop', {
      strategy_id: aliceGrid.strategy_id,
      closePositions: false,
      reason: 'Client asked',
      idempotencyKey: randomUUID(),
    });
    expect(kept.strategy).toMatchObject({ state: 'stopped_open', openPositions: 1, openOrders: 0 });
    expect(kept.returned).toBe('0.00');
    const keepAgain = await admin.call('adminstrategystop', {
      strategy_id: aliceGrid.strategy_id,
      closePositions: false,
      reason: 'Client asked',
      idempotencyKey: randomUUID(),
    });
    expect(keepAgain.body.code).toBe(-5207);
    expect(ids((await admin.data('adminstrategies', { state: 'stopped_open' })).items)).toEqual([
      aliceGrid.strategy_id,
    ]);
    const closed = await admin.data('adminstrategystop', {
      strategy_id: aliceGrid.strategy_id,
      closePositions: true,
      reason: 'Client asked',
      idempotencyKey: randomUUID(),
    });
    expect(closed.strategy).toMatchObject({ state: 'stopped_closed', openPositions: 0 });
    expect(Number(closed.returned)).toBeGreaterThan(990);
    await tick(67_000);
  });

  it('keeps another broker’s staff away from this broker’s bots', async () => {
    const other = await createTenant({ db: db(), slug: 'botsb', name: 'Bots Broker', hosts: ['botsb.test'] });
    await ensureInstruments({ db: db(), tenantId: other.id });
    await createStaff(other.id, 'botboss', ['strategies.view', 'strategies.stop', 'risk.view']);
    // strategies.stop moves money: a new broker's staff holding it sign in with two-factor
    const outsider = await signInWithTwoFactor(server, (name: TAdminName) => ADMIN_STRATEGY_PATHS[name], {
      username: 'botboss',
      password: 'Staff-Password-2026',
      host: 'botsb',
    });
    const list = await outsider.data('adminstrategies', { state: 'all' });
    expect(list).toMatchObject({ items: [], total: 0, symbols: [] });
    expect(list.counts.all).toBe(0);
    expect((await outsider.data('adminstrategies', { search: String(bobMain) })).items).toEqual([]);
    expect((await outsider.data('adminstrategyexposure', { scope: 'all' })).symbols).toEqual([]);
    expect((await outsider.call('adminstrategydetail', { strategy_id: bobGrid.strategy_id })).body.code).toBe(
      -5204,
    );
    const stop = await outsider.call('adminstrategystop', {
      strategy_id: bobGrid.strategy_id,
      closePositions: true,
      reason: 'Not mine',
      idempotencyKey: randomUUID(),
    });
    expect(stop.body.code).toBe(-5204);
    expect(engine().core.strategy(bobGrid.strategy_id)?.strategy.state).toBe('running');
  });
});
