import { randomUUID } from 'node:crypto';
import { CUSTOMERS_PATHS } from '@broker/contracts/admin/customers-paths';
import { traderLedgerAccount } from '@broker/domain/trading/engine-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids';
import { ensureAdministrator } from '../../src/modules/access/staff';
import { hashPassword } from '../../src/modules/identity/passwords';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { applyMarketConfig } from '../../src/modules/trading/terms-sync';
import { fromScaled } from '../../src/modules/trading/units';
import { startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { createStaffWithRole, type StaffClient, signInWithTwoFactor } from '../staff';
import { Trader } from '../trader';

let server: TTestServer;
let defaultTenantId = '';
let passwordHash = '';
const PASSWORD = 'Customer-Test-2026';

beforeAll(async () => {
  server = await startTestServer();
  const db = server.app.services.database.db;
  defaultTenantId = (
    await db.selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => server.close());

const db = () => server.app.services.database.db;

type TStaff = StaffClient<keyof typeof CUSTOMERS_PATHS>;

/** A staff member signed in over HTTP (two-factor on). */
const signInStaff = (username: string, password: string, host?: string): Promise<TStaff> =>
  signInWithTwoFactor(server, (name: keyof typeof CUSTOMERS_PATHS) => CUSTOMERS_PATHS[name], {
    username,
    password,
    host,
  });

/** A staff member of the default broker holding exactly `permissions`. */
async function staffWith(username: string, permissions: string[]) {
  await createStaffWithRole(db(), {
    tenantId: defaultTenantId,
    username,
    passwordHash,
    permissions,
    roleName: `role-${username}`,
  });
  return signInStaff(username, PASSWORD);
}

/** A trader of the default broker, straight in the database, with overrides. */
async function createCustomer(
  overrides: Partial<{
    id: string;
    email: string | null;
    phone: string | null;
    name: string;
    kyc: 'none' | 'pending' | 'approved' | 'rejected';
    status: 'active' | 'disabled';
    createdAt: Date;
    tenantId: string;
  }> = {},
) {
  const id = overrides.id ?? newId();
  const email = overrides.email === undefined ? `${id.slice(0, 8)}@customers.test` : overrides.email;
  await db()
    .insertInto('users')
    .values({
      id,
      tenant_id: overrides.tenantId ?? defaultTenantId,
      email,
      phone: overrides.phone ?? null,
      password_hash: passwordHash,
      display_name: overrides.name ?? 'Test Customer',
      country_code: '156',
      status: overrides.status ?? 'active',
      kyc_status: overrides.kyc ?? 'none',
      locked_until: null,
      created_at: overrides.createdAt ?? new Date(),
    })
    .execute();
  return { id, email };
}

/** A customer signed in as a trader, with one account of the given type. */
async function tradingCustomer(accountType: 1 | 2 = 1) {
  const customer = await createCustomer({ name: `Trader ${randomUUID().slice(0, 6)}` });
  const trader = await Trader.signIn(server.baseUrl, customer.email as string, PASSWORD);
  const accountId = await trader.createAccount(accountType);
  return { ...customer, trader, accountId };
}

let admin: TStaff;
beforeAll(async () => {
  admin = await signInStaff('admin', TEST_ADMIN_PASSWORD);
});

const NONE = { noOpen: false, noClose: false, noTakeProfit: false, noStopLoss: false, noWithdraw: false };

async function auditActions(target: string) {
  const rows = await db()
    .selectFrom('audit_events')
    .select(['action', 'actor_kind'])
    .where('target', '=', target)
    .orderBy('created_at')
    .execute();
  return rows.filter((r) => r.actor_kind === 'staff').map((r) => r.action);
}

describe('customer search', () => {
  it('finds customers by id prefix, email, phone digits, name and account number, with KYC and status filters', async () => {
    const tag = randomUUID().slice(0, 6);
    const ada = await createCustomer({
      email: `ada.${tag}@example.org`,
      phone: '+8613900001234',
      name: `Ada ${tag}`,
      kyc: 'approved',
    });
    const bob = await createCustomer({ name: `Bob ${tag}`, kyc: 'pending', status: 'disabled' });
    const search = async (input: Record<string, unknown>) => {
      const answer = await admin.call('admincustomerlist', { size: 100, ...input });
      expect(answer.body.success).toBe(true);
      return answer.body.data as { items: { id: string; email: string | null }[]; total: number };
    };
    expect((await search({ query: ada.id.slice(0, 10) })).items.map((i) => i.id)).toEqual([ada.id]);
    expect((await search({ query: `ADA.${tag}@EXAMPLE` })).items.map((i) => i.id)).toEqual([ada.id]);
    expect((await search({ query: '139 0000 1234' })).items.map((i) => i.id)).toEqual([ada.id]);
    expect((await search({ query: tag })).total).toBe(2);
    expect((await search({ query: tag, kyc: 'approved' })).items.map((i) => i.id)).toEqual([ada.id]);
    expect((await search({ query: tag, status: 'disabled' })).items.map((i) => i.id)).toEqual([bob.id]);
    // LIKE wildcards in the text match literally.
    expect((await search({ query: '%' })).total).toBe(0);
    // Contacts are masked (spec 5) in the list.
    const [row] = (await search({ query: ada.id })).items as Array<Record<string, unknown>>;
    expect(row?.email).toBe(`ad${'*'.repeat(8)}@example.org`);
    expect(row?.phone).toBe('+86*****001234');
    expect(row?.country).toBe('CN');
    expect(row?.kyc).toBe('approved');
    // A trading account number finds its owner.
    const owner = await tradingCustomer();
    expect((await search({ query: String(owner.accountId) })).items.map((i) => i.id)).toContain(owner.id);
  });

  it('pages and sorts on the server, by registration and by last sign-in', async () => {
    const tag = `page${randomUUID().slice(0, 6)}`;
    const base = Date.UTC(2024, 0, 1);
    const ids: string[] = [];
    for (let n = 0; n < 5; n++)
      ids.push(
        (await createCustomer({ name: `${tag} ${n}`, createdAt: new Date(base + n * 86_400_000) })).id,
      );
    const first = await admin.call('admincustomerlist', { query: tag, size: 2, page: 1, sort: 'created' });
    expect(first.body.data.total).toBe(5);
    expect(first.body.data.items.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[3]]);
    const last = await admin.call('admincustomerlist', { query: tag, size: 2, page: 3, direction: 'asc' });
    expect(last.body.data.items.map((i: { id: string }) => i.id)).toEqual([ids[4]]);
    const signedIn = await createCustomer({ name: `${tag} signed` });
    await Trader.signIn(server.baseUrl, signedIn.email as string, PASSWORD);
    const bySignIn = await admin.call('admincustomerlist', { query: tag, sort: 'lastSignIn' });
    expect(bySignIn.body.data.items[0].id).toBe(signedIn.id);
    expect(bySignIn.body.data.items[0].lastSignInAt).not.toBeNull();
  });

  it('refuses a page size over 100', async () => {
    const answer = await admin.call('admincustomerlist', { size: 500 });
    expect(answer.body.errorCode).toBe(-9001);
  });
});

describe('customer page', () => {
  it('shows the profile, accounts with live figures, open positions, pending orders and sessions', async () => {
    const customer = await tradingCustomer(1);
    const bought = await customer.trader.send(customer.accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.01',
    });
    expect(bought.body.success).toBe(true);
    const engine = server.app.services.engine;
    const farBelow = fromScaled(
      Math.round((engine.core.quote('BTCUSDT')?.bid ?? 0) / 2),
      engine.digits('BTCUSDT') ?? 2,
    );
    const limit = await customer.trader.send(customer.accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      volume: '0.01',
      price: farBelow,
    });
    expect(limit.body.success).toBe(true);
    const answer = await admin.call('admincustomerdetail', { userId: customer.id });
    expect(answer.body.success).toBe(true);
    const detail = answer.body.data;
    expect(detail.profile.id).toBe(customer.id);
    expect(detail.profile.email).toMatch(/^\w{2}\*+@customers\.test$/);
    expect(detail.profile.lastSignInAt).not.toBeNull();
    expect(detail.accounts).toHaveLength(1);
    const account = detail.accounts[0];
    expect(account.accountId).toBe(customer.accountId);
    expect(account.accountType).toBe(1);
    expect(Number(account.margin)).toBeGreaterThan(0);
    expect(account.positions).toBe(1);
    expect(account.orders).toBe(1);
    expect(account.approvalThreshold).toBeNull();
    expect(detail.positions.map((p: { order_id: number }) => p.order_id)).toEqual([bought.body.data.ticket]);
    expect(detail.orders.map((o: { order_id: number }) => o.order_id)).toEqual([limit.body.data.ticket]);
    expect(detail.sessions[0].state).toBe('active');
  });

  it('reveals the full contact only on request, and records the look', async () => {
    const customer = await createCustomer({ phone: '+12025550199' });
    const contact = await admin.call('admincustomercontact', { userId: customer.id });
    expect(contact.body.data).toEqual({ email: customer.email, phone: '+12025550199' });
    expect(await auditActions(customer.id)).toContain('customers.contact.view');
  });

  it('pages the deal history of an account', async () => {
    const customer = await tradingCustomer(1);
    for (let n = 0; n < 3; n++) {
      const opened = await customer.trader.send(customer.accountId, {
        symbol: 'BTCUSDT',
        side: 'buy',
        volume: '0.01',
      });
      const closed = await customer.trader.call('/api/v1/order/close', {
        account_id: customer.accountId,
        order_id: opened.body.data.ticket,
        idempotencyKey: randomUUID(),
      });
      expect(closed.body.success).toBe(true);
    }
    const page = await admin.call('admincustomerdeals', {
      userId: customer.id,
      accountId: customer.accountId,
      size: 2,
      page: 2,
    });
    expect(page.body.data.total).toBe(3);
    expect(page.body.data.items).toHaveLength(1);
    const ledger = await admin.call('admincustomerledger', {
      userId: customer.id,
      accountId: customer.accountId,
    });
    expect(ledger.body.data.items.some((e: { kind: string }) => e.kind === 'initial_balance')).toBe(true);
    // Another customer's account is not found under this customer.
    const other = await createCustomer();
    const foreign = await admin.call('admincustomerdeals', {
      userId: other.id,
      accountId: customer.accountId,
    });
    expect(foreign.body.errorCode).toBe(-3006);
  });
});

describe('customer actions', () => {
  it("restricting opening makes the trader's next order fail with -3008; lifting it lets it through", async () => {
    const customer = await tradingCustomer(1);
    const restricted = await admin.call('admincustomerrestrict', {
      userId: customer.id,
      accountId: customer.accountId,
      restrictions: { ...NONE, noOpen: true },
      idempotencyKey: randomUUID(),
    });
    expect(restricted.body.success).toBe(true);
    expect(restricted.body.data.restrictions.noOpen).toBe(true);
    const refused = await customer.trader.send(customer.accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.01',
    });
    expect(refused.body.errorCode).toBe(-3008);
    expect(refused.body.message).toBe('This action is restricted on this account. Contact support.');
    const info = await customer.trader.call('/api/v1/account/info', { account_id: customer.accountId });
    expect(info.body.data.restrictions.noOpen).toBe(true);
    await admin.call('admincustomerrestrict', {
      userId: customer.id,
      accountId: customer.accountId,
      restrictions: NONE,
      idempotencyKey: randomUUID(),
    });
    const allowed = await customer.trader.send(customer.accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.01',
    });
    expect(allowed.body.success).toBe(true);
    expect(await auditActions(String(customer.accountId))).toEqual([
      'customers.account.restrict',
      'customers.account.restrict',
    ]);
  });

  it('disabling a customer ends their sessions and refuses sign-in; enabling lets them back', async () => {
    const customer = await tradingCustomer(1);
    const disabled = await admin.call('admincustomerstatus', {
      userId: customer.id,
      status: 'disabled',
      reason: 'Fraud check',
    });
    expect(disabled.body.data).toEqual({ status: 'disabled', revokedSessions: 1 });
    const after = await customer.trader.call('/api/v1/account/info', { account_id: customer.accountId });
    expect(after.body.errorCode).toBe(-1001);
    await expect(Trader.signIn(server.baseUrl, customer.email as string, PASSWORD)).rejects.toThrow();
    const enabled = await admin.call('admincustomerstatus', { userId: customer.id, status: 'active' });
    expect(enabled.body.data.status).toBe('active');
    const again = await Trader.signIn(server.baseUrl, customer.email as string, PASSWORD);
    expect(again.userId).toBe(customer.id);
    const signedOut = await admin.call('admincustomersignout', { userId: customer.id });
    expect(signedOut.body.data.revokedSessions).toBe(1);
    expect(await auditActions(customer.id)).toEqual([
      'customers.disable',
      'customers.enable',
      'customers.signout',
    ]);
  });

  it('resets a demo account to 100,000 and refuses to reset a real one', async () => {
    const customer = await tradingCustomer(1);
    await customer.trader.send(customer.accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.05' });
    const reset = await admin.call('admincustomerdemoreset', {
      userId: customer.id,
      accountId: customer.accountId,
      idempotencyKey: randomUUID(),
    });
    expect(reset.body.success).toBe(true);
    expect(reset.body.data.balance).toBe('100000.00');
    expect(reset.body.data.positions).toBe(0);
    const realAccount = await customer.trader.createAccount(2);
    const refused = await admin.call('admincustomerdemoreset', {
      userId: customer.id,
      accountId: realAccount,
      idempotencyKey: randomUUID(),
    });
    expect(refused.body.errorCode).toBe(-1009);
    expect(refused.body.messageKey).toBe('errors.-1009.demoOnly');
    expect(await auditActions(String(customer.accountId))).toContain('customers.account.demoreset');
  });

  it("closes a customer's position and cancels a pending order as a dealer, once per key", async () => {
    const customer = await tradingCustomer(1);
    const opened = await customer.trader.send(customer.accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.05',
    });
    const positionId = opened.body.data.ticket;
    const pending = await customer.trader.send(customer.accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      volume: '0.05',
      price: '50000.00',
    });
    const orderId = pending.body.data.ticket;
    // A staff member without the permission is refused and nothing changes.
    const viewer = await staffWith('dealerviewer', ['users.view']);
    const forbidden = await viewer.call('admincustomerpositionclose', {
      userId: customer.id,
      accountId: customer.accountId,
      positionId,
      idempotencyKey: randomUUID(),
    });
    expect(forbidden.body.errorCode).toBe(-1009);
    expect(server.app.services.engine.core.position(positionId)).toBeDefined();

    // "No close" binds the trader, not the dealer.
    await admin.call('admincustomerrestrict', {
      userId: customer.id,
      accountId: customer.accountId,
      restrictions: { ...NONE, noClose: true },
      idempotencyKey: randomUUID(),
    });
    const ownClose = await customer.trader.call('/api/v1/order/close', {
      account_id: customer.accountId,
      order_id: positionId,
      idempotencyKey: randomUUID(),
    });
    expect(ownClose.body.errorCode).toBe(-3008);

    const key = randomUUID();
    const close = () =>
      admin.call('admincustomerpositionclose', {
        userId: customer.id,
        accountId: customer.accountId,
        positionId,
        idempotencyKey: key,
      });
    const [first, repeated] = await Promise.all([close(), close()]);
    expect(first.body.success, first.body.message).toBe(true);
    expect(repeated.body.success, repeated.body.message).toBe(true);
    expect(first.body.data.positions).toBe(0);
    const deals = (await customer.trader.call('/api/v1/order/history', { account_id: customer.accountId }))
      .body.data;
    // Closed once, as an automatic close (reason 2), not as the trader's own.
    expect(deals.total).toBe(1);
    expect(deals.items[0]).toMatchObject({ position_id: positionId, close_reason: 2 });

    const cancelled = await admin.call('admincustomerordercancel', {
      userId: customer.id,
      accountId: customer.accountId,
      orderId,
      idempotencyKey: randomUUID(),
    });
    expect(cancelled.body.success, cancelled.body.message).toBe(true);
    expect(cancelled.body.data.orders).toBe(0);
    // Another customer's ticket, or one already gone, is not found.
    const other = await tradingCustomer(1);
    const notTheirs = await admin.call('admincustomerordercancel', {
      userId: other.id,
      accountId: other.accountId,
      orderId,
      idempotencyKey: randomUUID(),
    });
    expect(notTheirs.body.errorCode).toBe(-3005);
    const actions = await auditActions(String(customer.accountId));
    // The repeated key closed nothing more, and is not recorded twice.
    expect(actions.filter((a) => a === 'customers.position.close')).toHaveLength(1);
    expect(actions).toContain('customers.order.cancel');
  });

  it('moves an account to another group of the broker, and refuses while it has open trades', async () => {
    const customer = await tradingCustomer(2);
    const groupId = newId();
    await db()
      .insertInto('account_groups')
      .values({ id: groupId, tenant_id: defaultTenantId, name: `VIP ${groupId.slice(0, 6)}` })
      .execute();
    await applyMarketConfig(server.app.services.engine, defaultTenantId);
    const moved = await admin.call('admincustomermovegroup', {
      userId: customer.id,
      accountId: customer.accountId,
      groupId,
    });
    expect(moved.body.success).toBe(true);
    expect(moved.body.data.groupId).toBe(groupId);
    const detail = await admin.call('admincustomerdetail', { userId: customer.id });
    expect(detail.body.data.groups.map((g: { id: string }) => g.id)).toContain(groupId);
    expect(detail.body.data.accounts[0].groupName).toBe(`VIP ${groupId.slice(0, 6)}`);
    const unknown = await admin.call('admincustomermovegroup', {
      userId: customer.id,
      accountId: customer.accountId,
      groupId: newId(),
    });
    expect(unknown.body.errorCode).toBe(-6009);
    // With a position open the account stays where it is.
    const demo = await customer.trader.createAccount(1);
    await customer.trader.send(demo, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    const busy = await admin.call('admincustomermovegroup', {
      userId: customer.id,
      accountId: demo,
      groupId,
    });
    expect(busy.body.errorCode).toBe(-6012);
    expect(await auditActions(String(customer.accountId))).toEqual(['customers.account.group']);
  });

  it('adds notes, newest first, with their author', async () => {
    const customer = await createCustomer();
    await admin.call('admincustomernote', { userId: customer.id, body: 'Called about the deposit' });
    const second = await admin.call('admincustomernote', { userId: customer.id, body: 'Sent documents' });
    expect(second.body.data.staffName).toBe('Administrator');
    const empty = await admin.call('admincustomernote', { userId: customer.id, body: '   ' });
    expect(empty.body.errorCode).toBe(-9001);
    const detail = await admin.call('admincustomerdetail', { userId: customer.id });
    expect(detail.body.data.notes.map((n: { body: string }) => n.body)).toEqual([
      'Sent documents',
      'Called about the deposit',
    ]);
    expect(await auditActions(customer.id)).toEqual(['customers.note', 'customers.note']);
  });

  it('refuses actions without their permission, and hides nothing from reads', async () => {
    const viewer = await staffWith(`viewer${randomUUID().slice(0, 6)}`, ['users.view']);
    const customer = await createCustomer();
    expect((await viewer.call('admincustomerdetail', { userId: customer.id })).body.success).toBe(true);
    const refused = await viewer.call('admincustomerstatus', { userId: customer.id, status: 'disabled' });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(-1009);
    expect((await viewer.call('admincustomerthreshold', { amount: '1.00' })).body.errorCode).toBe(-1009);
  });
});

describe('balance adjustments', () => {
  async function ledgerOf(accountId: number) {
    return db().selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId).execute();
  }

  it('applies an adjustment at or under the threshold at once, as one balanced ledger transaction, once per key', async () => {
    const customer = await tradingCustomer(2);
    const idempotencyKey = randomUUID();
    const input = {
      userId: customer.id,
      accountId: customer.accountId,
      amount: '500.25',
      reason: 'Goodwill credit',
      idempotencyKey,
    };
    const first = await admin.call('admincustomeradjust', input);
    expect(first.body.success).toBe(true);
    expect(first.body.data.status).toBe('applied');
    const again = await admin.call('admincustomeradjust', input);
    expect(again.body.data.id).toBe(first.body.data.id);
    const conflict = await admin.call('admincustomeradjust', { ...input, amount: '600.00' });
    expect(conflict.body.errorCode).toBe(-3013);
    const entries = (await ledgerOf(customer.accountId)).filter((e) => e.kind === 'adjustment');
    expect(new Set(entries.map((e) => e.tx_id)).size).toBe(1);
    expect(entries.reduce((sum, e) => sum + Number(e.amount), 0)).toBe(0);
    const trader = entries.find((e) => e.ledger_account === traderLedgerAccount(customer.accountId));
    expect(Number(trader?.amount)).toBe(50_025);
    expect(server.app.services.engine.core.account(customer.accountId)?.balance).toBe(50_025);
    // Paid in, not earned: the spec 5 account profit stays 0 and total_in_amount carries it.
    expect(server.app.services.engine.core.account(customer.accountId)).toMatchObject({
      totalInAmount: -50_025,
      totalOutAmount: 0,
      accountProfit: 0,
    });
    expect(await auditActions(String(customer.accountId))).toEqual(['customers.adjust']);
  });

  it('refuses a debit below zero (-4001), a reason under 3 characters and a malformed amount', async () => {
    const customer = await tradingCustomer(2);
    const base = { userId: customer.id, accountId: customer.accountId, idempotencyKey: randomUUID() };
    const debit = await admin.call('admincustomeradjust', {
      ...base,
      amount: '-10.00',
      reason: 'Fee reversal',
    });
    expect(debit.body.errorCode).toBe(-4001);
    expect(debit.body.message).toBe('Insufficient funds.');
    const short = await admin.call('admincustomeradjust', { ...base, amount: '10.00', reason: 'ab' });
    expect(short.body.errorCode).toBe(-9001);
    expect(short.body.fields?.reason).toBeTruthy();
    const malformed = await admin.call('admincustomeradjust', {
      ...base,
      amount: '1.234',
      reason: 'Too precise',
    });
    expect(malformed.body.fields?.amount).toBeTruthy();
    expect(await ledgerOf(customer.accountId)).toHaveLength(0);
  });

  it('above the threshold waits for a second staff member, who applies it exactly once', async () => {
    const customer = await tradingCustomer(2);
    const requester = await staffWith(`req${randomUUID().slice(0, 6)}`, [
      'users.view',
      'users.adjust',
      'users.approve',
    ]);
    const approver = await staffWith(`appr${randomUUID().slice(0, 6)}`, ['users.view', 'users.approve']);
    const asked = await requester.call('admincustomeradjust', {
      userId: customer.id,
      accountId: customer.accountId,
      amount: '1500.00',
      reason: 'Bonus for the contest',
      idempotencyKey: randomUUID(),
    });
    expect(asked.body.data.status).toBe('pending');
    expect(asked.body.data.mine).toBe(true);
    expect(server.app.services.engine.core.account(customer.accountId)?.balance).toBe(0);
    const pending = await approver.call('admincustomeradjustments', { status: 'pending' });
    expect(pending.body.data.threshold).toBe('1000.00');
    const listed = pending.body.data.items.find((i: { id: string }) => i.id === asked.body.data.id);
    expect(listed.mine).toBe(false);
    // Named by identity (the customer) and access (the staff), as the joins named them.
    expect(listed).toMatchObject({
      userName: expect.stringMatching(/^Trader /),
      requestedBy: expect.stringMatching(/^req/),
      decidedBy: null,
    });
    const detail = await admin.call('admincustomerdetail', { userId: customer.id });
    expect(detail.body.data.adjustments.map((a: { id: string }) => a.id)).toEqual([asked.body.data.id]);

    const self = await requester.call('admincustomerapprove', { id: asked.body.data.id });
    expect(self.body.errorCode).toBe(-6010);
    const [first, second] = await Promise.all([
      approver.call('admincustomerapprove', { id: asked.body.data.id }),
      admin.call('admincustomerapprove', { id: asked.body.data.id }),
    ]);
    const answers = [first.body, second.body];
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect(answers.find((a) => !a.success)?.errorCode).toBe(-6011);
    expect(answers.find((a) => a.success)?.data.status).toBe('approved');
    expect(server.app.services.engine.core.account(customer.accountId)?.balance).toBe(150_000);
    const decided = await approver.call('admincustomeradjustments', {
      status: 'decided',
      userId: customer.id,
    });
    expect(decided.body.data.items[0].decidedBy).toMatch(/^(appr|Administrator$)/);
    const entries = (await ledgerOf(customer.accountId)).filter((e) => e.kind === 'adjustment');
    expect(entries).toHaveLength(2);
    expect(entries.reduce((sum, e) => sum + Number(e.amount), 0)).toBe(0);
    const late = await approver.call('admincustomerreject', { id: asked.body.data.id, reason: 'Too late' });
    expect(late.body.errorCode).toBe(-6011);
    expect(await auditActions(String(customer.accountId))).toEqual([
      'customers.adjust.request',
      'customers.adjust.approve',
    ]);
  });

  it('is rejected with a reason of at most 20 characters, and then moves no money', async () => {
    const customer = await tradingCustomer(2);
    const asked = await admin.call('admincustomeradjust', {
      userId: customer.id,
      accountId: customer.accountId,
      amount: '2000.00',
      reason: 'Manual deposit',
      idempotencyKey: randomUUID(),
    });
    const approver = await staffWith(`rej${randomUUID().slice(0, 6)}`, ['users.view', 'users.approve']);
    const long = await approver.call('admincustomerreject', {
      id: asked.body.data.id,
      reason: 'x'.repeat(21),
    });
    expect(long.body.errorCode).toBe(-9001);
    const rejected = await approver.call('admincustomerreject', {
      id: asked.body.data.id,
      reason: 'No proof',
    });
    expect(rejected.body.data.status).toBe('rejected');
    expect(rejected.body.data.rejectReason).toBe('No proof');
    expect((await approver.call('admincustomerapprove', { id: asked.body.data.id })).body.errorCode).toBe(
      -6011,
    );
    expect(await ledgerOf(customer.accountId)).toHaveLength(0);
  });

  it('follows the threshold the broker sets, in the account currency', async () => {
    const saved = await admin.call('admincustomerthreshold', { amount: '50.00' });
    expect(saved.body.data.threshold).toBe('50.00');
    try {
      const customer = await tradingCustomer(2);
      const cents = await customer.trader.createAccount(3);
      const detail = await admin.call('admincustomerdetail', { userId: customer.id });
      const threshold = (id: number) =>
        detail.body.data.accounts.find((a: { accountId: number }) => a.accountId === id).approvalThreshold;
      expect(threshold(customer.accountId)).toBe('50.00');
      // Experience accounts keep US cents: 50 USD is 5,000 USC.
      expect(threshold(cents)).toBe('5000.00');
      const asked = await admin.call('admincustomeradjust', {
        userId: customer.id,
        accountId: customer.accountId,
        amount: '60.00',
        reason: 'Compensation',
        idempotencyKey: randomUUID(),
      });
      expect(asked.body.data.status).toBe('pending');
    } finally {
      await admin.call('admincustomerthreshold', { amount: '1000.00' });
    }
    expect(await auditActions(defaultTenantId)).toEqual(['customers.threshold', 'customers.threshold']);
  });
});

describe('tenant isolation', () => {
  it("another broker's staff get not-found for this broker's customers and accounts", async () => {
    const other = await createTenant({
      db: db(),
      slug: `other${randomUUID().slice(0, 6)}`,
      name: 'Other Broker',
    });
    await ensureAdministrator({ db: db(), tenantId: other.id, username: 'otheradmin', password: PASSWORD });
    const foreign = await signInStaff('otheradmin', PASSWORD, other.slug);
    const customer = await tradingCustomer(1);
    const detail = await foreign.call('admincustomerdetail', { userId: customer.id });
    expect(detail.status).toBe(404);
    expect(detail.body.errorCode).toBe(-1004);
    const restrict = await foreign.call('admincustomerrestrict', {
      userId: customer.id,
      accountId: customer.accountId,
      restrictions: { ...NONE, noOpen: true },
      idempotencyKey: randomUUID(),
    });
    expect(restrict.body.errorCode).toBe(-3006);
    const status = await foreign.call('admincustomerstatus', { userId: customer.id, status: 'disabled' });
    expect(status.body.errorCode).toBe(-1004);
    const search = await foreign.call('admincustomerlist', { query: customer.id });
    expect(search.body.data.total).toBe(0);
    const byAccount = await foreign.call('admincustomerlist', { query: String(customer.accountId) });
    expect(byAccount.body.data.total).toBe(0);
    expect(server.app.services.engine.core.account(customer.accountId)?.restrictions.noOpen).toBe(false);
  });
});
