import { AUDIT_PATHS } from '@broker/contracts/admin/audit-paths';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids';
import { ensureAdministrator } from '../../src/modules/access/staff';
import { hashPassword } from '../../src/modules/identity/passwords';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { createStaffWithRole, signInWithTwoFactor } from '../staff';
import { Trader } from '../trader';

let server: TTestServer;
let platformId = '';
const PASSWORD = 'Stats-Test-Password-2026';

/** Pushes a BTCUSDT quote through the market service, as the feed would. */
const tick = (bid: number, ask = bid + 25) => pushTick(server, 'BTCUSDT', bid, ask);

const db = () => server.app.services.database.db;

/** Signs a staff member in (two-factor on); answers with their daily statistics call. */
async function signIn(username: string, password: string, broker?: string) {
  const staff = await signInWithTwoFactor(server, () => AUDIT_PATHS.adminstatsdaily, {
    username,
    password,
    host: broker,
  });
  return (input: Record<string, unknown> = {}) => staff.call('adminstatsdaily', input);
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer({ FEED: 'off' });
  platformId = (
    await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  tick(67000);
});
afterAll(() => server.close());

/** Opens at the market and closes at once after the price moved to `closeBid`. */
async function roundTrip(
  trader: Trader,
  accountId: number,
  side: 'buy' | 'sell',
  volume: string,
  closeBid: number,
) {
  const open = await trader.send(accountId, { symbol: 'BTCUSDT', side, volume });
  expect(open.body.success, open.body.message).toBe(true);
  tick(closeBid);
  const close = await trader.call('/api/v1/order/close', {
    account_id: accountId,
    order_id: open.body.data.ticket,
    idempotencyKey: newId(),
  });
  expect(close.body.data.closed, close.body.message).toBe(1);
  tick(67000);
}

describe('statistics', () => {
  it('adds up the deals that trades made, per day, per symbol and per account kind', async () => {
    const trader = await Trader.signIn(server.baseUrl);
    const demo = await trader.createAccount(1, 2, 100);
    const real = await trader.createAccount(2, 2, 100);
    const engine = server.app.services.engine;
    const now = Date.now();
    const deposit = await engine.submit({
      type: 'deposit',
      accountId: real,
      amount: 500_000,
      clientKey: newId(),
      time: now,
    });
    expect(deposit.ok).toBe(true);
    const withdrawal = await engine.submit({
      type: 'withdraw',
      accountId: real,
      amount: 10_000,
      clientKey: newId(),
      time: now,
    });
    expect(withdrawal.ok).toBe(true);

    await roundTrip(trader, demo, 'buy', '0.10', 67500);
    await roundTrip(trader, demo, 'sell', '0.05', 66800);
    await roundTrip(trader, real, 'buy', '0.02', 66900);
    await engine.idle();

    const deals = await db()
      .selectFrom('deals as d')
      .innerJoin('trading_accounts as a', 'a.id', 'd.account_id')
      .select(['d.volume', 'd.close_price', 'd.profit', 'd.swap', 'd.commission', 'a.account_type'])
      .where('a.tenant_id', '=', platformId)
      .execute();
    expect(deals).toHaveLength(3);
    // BTCUSDT: contract size 1, 2 digits; the accounts are in USD (minor units are cents).
    const expected = (rows: typeof deals) => ({
      deals: rows.length,
      volumeLots: rows.reduce((s, d) => s.plus(new Big(d.volume).div(100)), new Big(0)).toFixed(2),
      notionalUsd: rows
        .reduce(
          (s, d) => s.plus(new Big(d.volume).div(100).times(new Big(d.close_price).div(100))),
          new Big(0),
        )
        .toFixed(2),
      clientProfitUsd: rows.reduce((s, d) => s.plus(new Big(d.profit).div(100)), new Big(0)).toFixed(2),
      brokerPnlUsd: rows
        .reduce((s, d) => s.minus(new Big(d.profit).plus(d.swap).plus(d.commission).div(100)), new Big(0))
        .toFixed(2),
    });
    const registrations = Number(
      (
        await db()
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('tenant_id', '=', platformId)
          .where('created_at', '>=', new Date(`${today()}T00:00:00Z`))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(registrations).toBeGreaterThan(0);

    const stats = await signIn('admin', TEST_ADMIN_PASSWORD);
    const all = (await stats({ scope: 'all' })).body.data;
    expect(all).toMatchObject({ scope: 'all', currency: 'USD', to: today(), unconverted: [] });
    expect(all.days).toHaveLength(30);
    const day = all.days.at(-1);
    expect(day).toMatchObject({
      day: today(),
      registrations,
      activeTraders: 1,
      ...expected(deals),
      depositsUsd: '5000.00',
      withdrawalsUsd: '100.00',
    });
    expect(all.totals).toMatchObject({ ...expected(deals), activeTraders: 1, registrations });
    expect(all.days.slice(0, -1).every((d: { deals: number }) => d.deals === 0)).toBe(true);
    expect(all.symbols).toEqual([{ symbol: 'BTCUSDT', traders: 1, ...expected(deals) }]);
    const demoOnly = (await stats({ scope: 'demo' })).body.data;
    expect(demoOnly.totals).toMatchObject({
      ...expected(deals.filter((d) => d.account_type === 1)),
      depositsUsd: '0.00',
    });
    const realOnly = (await stats({})).body.data;
    expect(realOnly.scope).toBe('real');
    expect(realOnly.totals).toMatchObject({
      ...expected(deals.filter((d) => d.account_type !== 1)),
      depositsUsd: '5000.00',
      withdrawalsUsd: '100.00',
      // Registrations are not about accounts.
      registrations,
    });
  });

  it('reads the day range asked for, refuses impossible ones, and needs statistics.view', async () => {
    const stats = await signIn('admin', TEST_ADMIN_PASSWORD);
    const week = (await stats({ from: '2025-12-26', to: '2026-01-01' })).body.data;
    expect(week.days.map((d: { day: string }) => d.day)).toEqual([
      '2025-12-26',
      '2025-12-27',
      '2025-12-28',
      '2025-12-29',
      '2025-12-30',
      '2025-12-31',
      '2026-01-01',
    ]);
    expect(week.totals.deals).toBe(0);
    const reversed = await stats({ from: '2026-01-02', to: '2026-01-01' });
    expect(reversed.body.errorCode).toBe(-9001);
    expect(reversed.body.fields).toHaveProperty('from');
    expect((await stats({ from: '2024-01-01', to: '2025-01-01' })).body.errorCode).toBe(-9001);
    expect((await stats({ from: '2026-13-01' })).body.errorCode).toBe(-9001);

    await createStaffWithRole(db(), {
      tenantId: platformId,
      username: 'nostats',
      passwordHash: await hashPassword(PASSWORD),
      permissions: ['users.view'],
      roleName: 'no-stats',
      displayName: 'No stats',
    });
    const refused = await (await signIn('nostats', PASSWORD))({});
    expect(refused.body.errorCode).toBe(-1009);
  });

  it("counts only the broker's own traders and deals", async () => {
    const tenant = await createTenant({ db: db(), slug: 'otherstats', name: 'Other' });
    await ensureAdministrator({ db: db(), tenantId: tenant.id, username: 'otherstats', password: PASSWORD });
    const other = await signIn('otherstats', PASSWORD, 'otherstats');
    const answer = (await other({ scope: 'all' })).body.data;
    expect(answer.totals).toMatchObject({
      deals: 0,
      registrations: 0,
      activeTraders: 0,
      depositsUsd: '0.00',
    });
    expect(answer.symbols).toEqual([]);
  });
});
