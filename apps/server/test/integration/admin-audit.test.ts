import { AUDIT_PATHS } from '@broker/contracts/admin/audit-paths';
import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { countActiveStaff } from '../../src/modules/access/directory';
import { ensureAdministrator } from '../../src/modules/access/staff';
import { recordAudit } from '../../src/modules/audit/audit';
import { verifyChain } from '../../src/modules/audit/chain';
import { assertWithinLimit } from '../../src/modules/entitlements/packages';
import { countUsers } from '../../src/modules/identity/directory';
import { hashPassword } from '../../src/modules/identity/passwords';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { ApiClient, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { createStaffWithRole, signInWithTwoFactor } from '../staff';

let server: TTestServer;
let platformId = '';
let passwordHash = '';
const PASSWORD = 'Audit-Test-Password-2026';

beforeAll(async () => {
  server = await startTestServer();
  platformId = (
    await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => server.close());

const db = () => server.app.services.database.db;

const auditPath = (name: string) =>
  name in AUDIT_PATHS ? AUDIT_PATHS[name as keyof typeof AUDIT_PATHS] : name;

/** A staff member signed in over HTTP (two-factor on, as money permissions require). */
const signInStaff = (username: string, password: string, broker?: string) =>
  signInWithTwoFactor(server, auditPath, { username, password, host: broker });

const admin = () => signInStaff('admin', TEST_ADMIN_PASSWORD);

/** A staff member of a broker holding exactly `permissions`. */
async function staffWith(username: string, permissions: string[], tenantId = platformId, broker?: string) {
  await createStaffWithRole(db(), {
    tenantId,
    username,
    passwordHash,
    permissions,
    roleName: `role-${username}`,
  });
  return signInStaff(username, PASSWORD, broker);
}

/** A second broker with its own administrator (created the way the platform creates brokers). */
async function secondBroker(slug: string) {
  const tenant = await createTenant({
    db: db(),
    slug,
    name: `Broker ${slug}`,
    hosts: [`${slug}.example.test`],
  });
  await ensureAdministrator({ db: db(), tenantId: tenant.id, username: `${slug}admin`, password: PASSWORD });
  return { tenant, admin: await signInStaff(`${slug}admin`, PASSWORD, slug) };
}

async function chainOf(tenantId: string) {
  const rows = await db()
    .selectFrom('audit_events')
    .select(['id', 'seq', 'prev_hash', 'hash', 'action'])
    .where('tenant_id', '=', tenantId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq), id: String(r.id) }));
}

describe('operation history: the hash chain', () => {
  it('chains every entry of a broker, sign-ins included, and verifies it intact', async () => {
    const staff = await admin();
    const rows = await chainOf(platformId);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0]?.prev_hash).toBe('0'.repeat(64));
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prev_hash).toBe(rows[i - 1]?.hash);
    expect(rows.some((r) => r.action === 'staff.signin')).toBe(true);

    const status = await staff.call('adminoperationverify');
    expect(status.body.data).toMatchObject({ intact: true, broken: null, entries: rows.length });
    expect(status.body.data.headHash).toBe(rows.at(-1)?.hash);
  });

  it('keeps one unbroken chain per broker when many entries are appended at once', async () => {
    const tenant = await createTenant({ db: db(), slug: 'burst', name: 'Burst' });
    // On PostgreSQL the appends race on a pool of their own (10 connections), closed afterwards.
    const url = server.config.DATABASE_URL;
    const racing = url?.startsWith('postgres')
      ? await openDatabase({ url, dataDir: server.config.DATA_DIR })
      : null;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        recordAudit(racing?.db ?? db(), {
          tenantId: tenant.id,
          actorKind: 'system',
          actorId: null,
          action: 'test.burst',
          details: { i, text: `entry ${i} 中文 "quoted"` },
        }),
      ),
    );
    await racing?.close();
    // Inside a transaction that is rolled back, nothing is kept and the chain goes on from its head.
    await db()
      .transaction()
      .execute(async (trx) => {
        await recordAudit(trx, {
          tenantId: tenant.id,
          actorKind: 'system',
          actorId: null,
          action: 'test.rolledback',
        });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await recordAudit(db(), {
      tenantId: tenant.id,
      actorKind: 'system',
      actorId: null,
      action: 'test.after',
    });
    const rows = await chainOf(tenant.id);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(rows.some((r) => r.action === 'test.rolledback')).toBe(false);
    expect(await verifyChain({ db: db(), tenantId: tenant.id })).toMatchObject({ intact: true, entries: 41 });
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself, and overwrites forged chain fields', async () => {
    const database = server.app.services.database;
    for (const statement of [
      `update audit_events set action = 'forged' where tenant_id = '${platformId}'`,
      `delete from audit_events where tenant_id = '${platformId}'`,
      'truncate audit_events',
    ]) {
      await expect(database.exec(statement), statement).rejects.toThrow(/append-only/);
    }
    const forged = await sql<{ seq: string | number; hash: string }>`
      insert into audit_events (tenant_id, actor_kind, action, seq, prev_hash, hash)
      values (${platformId}, 'system', 'test.forged', 1, 'x', 'y') returning seq, hash`.execute(db());
    expect(Number(forged.rows[0]?.seq)).toBeGreaterThan(1);
    expect(forged.rows[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await verifyChain({ db: db(), tenantId: platformId })).intact).toBe(true);
  });

  it('finds an altered entry, a removed entry and a re-chained entry (triggers off, as a superuser could)', async () => {
    const database = server.app.services.database;
    const tamper = async (statement: string) =>
      database.exec(
        `alter table audit_events disable trigger audit_events_no_change; ${statement}; alter table audit_events enable trigger audit_events_no_change;`,
      );
    const fresh = async (slug: string) => {
      const tenant = await createTenant({ db: db(), slug, name: slug });
      for (let i = 0; i < 5; i++)
        await recordAudit(db(), {
          tenantId: tenant.id,
          actorKind: 'system',
          actorId: null,
          action: `test.${i}`,
        });
      return { tenant, rows: await chainOf(tenant.id) };
    };

    const altered = await fresh('altered');
    await tamper(`update audit_events set details = '{"amount": 1000000}' where id = ${altered.rows[2]?.id}`);
    expect(await verifyChain({ db: db(), tenantId: altered.tenant.id })).toMatchObject({
      intact: false,
      entries: 2,
      broken: { seq: 3, reason: 'content' },
    });

    const removed = await fresh('removed');
    await tamper(`delete from audit_events where id = ${removed.rows[1]?.id}`);
    expect((await verifyChain({ db: db(), tenantId: removed.tenant.id })).broken).toMatchObject({
      seq: 3,
      reason: 'missing',
    });

    // The forger recomputes the altered entry's own hash: the next entry no longer links to it.
    const rechained = await fresh('rechained');
    const target = rechained.rows[1];
    await tamper(`update audit_events set action = 'test.hidden',
      hash = audit_event_hash(tenant_id, seq, created_at, actor_kind, actor_id, 'test.hidden', target, ip, details, prev_hash)
      where id = ${target?.id}`);
    expect((await verifyChain({ db: db(), tenantId: rechained.tenant.id })).broken).toMatchObject({
      seq: 3,
      reason: 'link',
    });
  });
});

describe('operation history: search, detail and export', () => {
  it('filters by actor, kind, action prefix, target and days, pages on the server, and shows one entry', async () => {
    const staff = await admin();
    await recordAudit(db(), {
      tenantId: platformId,
      actorKind: 'user',
      actorId: 'someone',
      action: 'user.password.change',
      target: 'trader-42',
      ip: '203.0.113.9',
      details: { via: 'test' },
    });
    const signins = await staff.call('adminoperationlist', { action: 'staff.sign', actor: 'ADMIN' });
    expect(signins.body.data.total).toBeGreaterThan(0);
    for (const row of signins.body.data.rows) {
      expect(row.action.startsWith('staff.sign')).toBe(true);
      expect(row.actorName).toBe('admin');
    }
    // Wildcards in the prefix are taken literally.
    expect((await staff.call('adminoperationlist', { action: 'staff_%' })).body.data.total).toBe(0);

    const byTarget = await staff.call('adminoperationlist', { target: 'TRADER-4', actorKind: 'user' });
    expect(byTarget.body.data.rows).toHaveLength(1);
    expect(byTarget.body.data.rows[0]).toMatchObject({ action: 'user.password.change', ip: '203.0.113.9' });
    expect(
      (await staff.call('adminoperationlist', { target: 'trader-42', actorKind: 'staff' })).body.data.total,
    ).toBe(0);

    // A trader is found by a part of their email, in any case, and named by it.
    const trader = await db()
      .selectFrom('users')
      .select(['id', 'email'])
      .where('tenant_id', '=', platformId)
      .where('email', 'is not', null)
      .executeTakeFirstOrThrow();
    const email = trader.email as string;
    await recordAudit(db(), {
      tenantId: platformId,
      actorKind: 'user',
      actorId: trader.id,
      action: 'test.named',
    });
    const byEmail = await staff.call('adminoperationlist', { actor: email.slice(1, 6).toUpperCase() });
    expect(byEmail.body.data.rows).toContainEqual(
      expect.objectContaining({ action: 'test.named', actorId: trader.id, actorName: email }),
    );

    for (let i = 0; i < 6; i++)
      await recordAudit(db(), {
        tenantId: platformId,
        actorKind: 'system',
        actorId: null,
        action: `test.page.${i}`,
      });
    const today = new Date().toISOString().slice(0, 10);
    const all = await staff.call('adminoperationlist', { from: today, to: today, pageSize: 5 });
    const total = all.body.data.total;
    expect(total).toBeGreaterThan(5);
    expect(all.body.data.rows).toHaveLength(5);
    const seqs = all.body.data.rows.map((r: { seq: number }) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const second = await staff.call('adminoperationlist', { from: today, to: today, pageSize: 5, page: 2 });
    expect(second.body.data.rows[0].seq).toBe(seqs[4] - 1);
    expect(
      (await staff.call('adminoperationlist', { from: '2000-01-01', to: '2000-01-31' })).body.data.total,
    ).toBe(0);
    const badDay = await staff.call('adminoperationlist', { from: '2026-02-30' });
    expect(badDay.body.errorCode).toBe(-9001);

    const detail = await staff.call('adminoperationdetail', { id: byTarget.body.data.rows[0].id });
    expect(detail.body.data).toMatchObject({ details: { via: 'test' }, hashValid: true });
    expect(detail.body.data.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.body.data.prevHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await staff.call('adminoperationdetail', { id: '999999999' })).body.errorCode).toBe(-6009);

    const actions = (await staff.call('adminoperationactions')).body.data.actions;
    expect(actions).toContain('user.password.change');
    expect(actions).toContain('staff.signin');
  });

  it('exports the current filter as CSV, records the export, and needs operations.export', async () => {
    const staff = await admin();
    await recordAudit(db(), {
      tenantId: platformId,
      actorKind: 'staff',
      actorId: 'x',
      action: 'export.sample',
      target: '=cmd|"calc"',
      details: { note: 'a, "b"\nc' },
    });
    const answer = await staff.call('adminoperationexport', { action: 'export.' });
    expect(answer.body.success, answer.body.message).toBe(true);
    const { csv, rows, capped, filename } = answer.body.data;
    expect(filename).toMatch(/^operations-\d{8}-\d{6}\.csv$/);
    expect(rows).toBe(1);
    expect(capped).toBe(false);
    expect(
      csv.startsWith(
        '\uFEFFseq,time_utc,actor_kind,actor_id,actor,action,target,ip,details,hash,prev_hash\r\n',
      ),
    ).toBe(true);
    const line = csv.split('\r\n')[1];
    // The target that a spreadsheet would run as a formula is defused; quotes and line breaks are quoted.
    expect(line).toContain(`,export.sample,"'=cmd|""calc""",,`);
    expect(line).toContain('"{""note"":""a, \\""b\\""\\nc""}"');

    const recorded = await staff.call('adminoperationlist', { action: 'operations.export' });
    expect(recorded.body.data.rows[0]).toMatchObject({ actorName: 'admin', target: filename });

    const viewer = await staffWith('auditviewer', ['operations.view']);
    expect((await viewer.call('adminoperationlist')).body.success).toBe(true);
    const refused = await viewer.call('adminoperationexport', {});
    expect(refused.body.errorCode).toBe(-1009);
  });

  it("keeps brokers apart: another broker's staff see only their own trail", async () => {
    const { tenant, admin: other } = await secondBroker('isolated');
    const own = await other.call('adminoperationlist', { pageSize: 100 });
    expect(own.body.success, own.body.message).toBe(true);
    const ownIds = new Set(own.body.data.rows.map((r: { id: string }) => r.id));
    const foreign = await db()
      .selectFrom('audit_events')
      .select('id')
      .where('tenant_id', '=', platformId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(ownIds.has(String(foreign.id))).toBe(false);
    expect(own.body.data.rows.every((r: { actorName: string | null }) => r.actorName !== 'admin')).toBe(true);
    expect((await other.call('adminoperationdetail', { id: String(foreign.id) })).body.errorCode).toBe(-6009);
    const named = (await other.call('adminoperationlist', { actor: 'admin' })).body.data.rows;
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((r: { actorName: string }) => r.actorName === 'isolatedadmin')).toBe(true);
    const chain = await other.call('adminoperationverify');
    expect(chain.body.data).toMatchObject({ intact: true, entries: (await chainOf(tenant.id)).length });
  });
});

describe('app versions', () => {
  const release = (overrides: Record<string, unknown> = {}) => ({
    platform: 'android',
    version: '2.1.0',
    buildNumber: 210,
    forceUpdate: false,
    minSupportedVersion: '1.5.0',
    notes: { 'zh-CN': '修复问题', en: 'Fixes', ja: '修正' },
    downloadUrl: 'https://downloads.example.com/app-2.1.0.apk',
    releasedAt: '2026-01-10T08:00:00Z',
    ...overrides,
  });

  it('validates a release, keeps versions unique per platform, refuses stale edits, and records every change', async () => {
    const staff = await admin();
    const bad = await staff.call('adminversionsave', {
      ...release({ version: '2.1', downloadUrl: 'http://insecure.example.com/a.apk' }),
    });
    expect(bad.body.errorCode).toBe(-9001);
    expect(Object.keys(bad.body.fields ?? {})).toEqual(expect.arrayContaining(['version', 'downloadUrl']));
    const noChinese = await staff.call('adminversionsave', release({ notes: { en: 'Fixes' } }));
    expect(noChinese.body.fields).toHaveProperty(['notes.zh-CN']);
    const minimumAbove = await staff.call('adminversionsave', release({ minSupportedVersion: '3.0.0' }));
    expect(minimumAbove.body.fields).toHaveProperty(['minSupportedVersion']);

    const created = await staff.call('adminversionsave', release());
    expect(created.body.success, created.body.message).toBe(true);
    expect(created.body.data).toMatchObject({ version: '2.1.0', revision: 1, notes: { ja: '修正' } });
    expect((await staff.call('adminversionsave', release({ buildNumber: 211 }))).body.errorCode).toBe(-6014);
    // The same version on another platform is another release.
    expect((await staff.call('adminversionsave', release({ platform: 'ios' }))).body.success).toBe(true);

    const edited = await staff.call('adminversionsave', {
      ...release({ forceUpdate: true }),
      id: created.body.data.id,
      revision: 1,
    });
    expect(edited.body.data).toMatchObject({ forceUpdate: true, revision: 2 });
    const stale = await staff.call('adminversionsave', {
      ...release(),
      id: created.body.data.id,
      revision: 1,
    });
    expect(stale.body.errorCode).toBe(-6017);

    const list = (await staff.call('adminversionlist')).body.data.versions;
    expect(list.map((v: { platform: string }) => v.platform)).toEqual(['android', 'ios']);

    expect((await staff.call('adminversiondelete', { id: created.body.data.id })).body.success).toBe(true);
    expect((await staff.call('adminversiondelete', { id: created.body.data.id })).body.errorCode).toBe(-6009);

    const history = (await staff.call('adminoperationlist', { action: 'versions.' })).body.data.rows;
    expect(history.map((r: { action: string }) => r.action)).toEqual([
      'versions.delete',
      'versions.update',
      'versions.create',
      'versions.create',
    ]);
    const update = (await staff.call('adminoperationdetail', { id: history[1].id })).body.data;
    expect(update.details.changes).toEqual({ forceUpdate: { from: false, to: true } });
    expect(update.target).toBe('android 2.1.0');
  });

  it('answers the public update check: latest, update available, forced', async () => {
    const staff = await admin();
    const save = (overrides: Record<string, unknown>) =>
      staff.call('adminversionsave', release({ platform: 'windows', ...overrides }));
    await save({ version: '1.0.0', minSupportedVersion: null });
    await save({ version: '1.2.0', forceUpdate: true, minSupportedVersion: null });
    await save({ version: '1.3.0-beta.1', minSupportedVersion: '1.1.0' });
    await save({
      version: '1.3.0',
      minSupportedVersion: '1.1.0',
      notes: { 'zh-CN': '新版本', en: 'New version' },
    });
    await save({ version: '9.0.0', minSupportedVersion: null, releasedAt: '2099-01-01T00:00:00Z' });
    const anonymous = new ApiClient(server.baseUrl);
    const check = async (version: string, lang = 'en') =>
      (await anonymous.post(AUDIT_PATHS.appversion, { platform: 'windows', version }, { languagecode: lang }))
        .body;

    const current = await check('1.3.0');
    expect(current.data).toMatchObject({
      updateAvailable: false,
      forced: false,
      latest: { version: '1.3.0' },
    });
    // 1.1.5 is supported, but 1.2.0 above it was a forced release.
    expect((await check('1.1.5')).data).toMatchObject({ updateAvailable: true, forced: true });
    // Below the minimum supported version.
    expect((await check('1.0.0')).data).toMatchObject({ forced: true, minSupportedVersion: '1.1.0' });
    // 1.2.5 passed the forced release and is supported: an update, not forced. The beta ranks below 1.3.0.
    expect((await check('1.2.5')).data).toMatchObject({ updateAvailable: true, forced: false });
    expect((await check('1.3.0-beta.1')).data).toMatchObject({ updateAvailable: true, forced: false });
    expect((await check('1.2.5', 'zh-CN')).data.latest.notes).toBe('新版本');
    expect((await check('1.2.5', 'ko')).data.latest.notes).toBe('New version');
    expect((await check('not-a-version')).errorCode).toBe(-9001);
    const none = await anonymous.post(AUDIT_PATHS.appversion, { platform: 'macos', version: '1.0.0' });
    expect(none.body.data).toEqual({
      latest: null,
      minSupportedVersion: null,
      updateAvailable: false,
      forced: false,
    });
  });
});

describe('packages', () => {
  it('switches modules off for a broker: routes answer -6015 and the permissions lose them', async () => {
    const platform = await admin();
    const { tenant, admin: broker } = await secondBroker('packaged');
    expect((await broker.call('adminversionlist')).body.success).toBe(true);

    const saved = await platform.call('adminpackagesave', {
      name: 'Starter',
      description: 'Trading without app versions or statistics',
      modules: ['users', 'market', 'risk'],
      limits: { staff: 1, customers: 100, tradingAccounts: null, symbols: 20 },
    });
    expect(saved.body.success, saved.body.message).toBe(true);
    const assigned = await platform.call('adminpackageassign', {
      tenantId: tenant.id,
      packageId: saved.body.data.id,
    });
    expect(assigned.body.success, assigned.body.message).toBe(true);

    const refused = await broker.call('adminversionlist');
    expect(refused.body.errorCode).toBe(-6015);
    expect(refused.status).toBe(403);
    expect((await broker.call('adminstatsdaily')).body.errorCode).toBe(-6015);
    const me = (await broker.call('/api/v1/admin/auth/me')).body.data;
    expect(me.permissions).not.toContain('versions.view');
    expect(me.permissions).not.toContain('statistics.view');
    expect(me.permissions).toContain('users.view');
    expect(me.permissions).toContain('operations.view');
    // Core modules stay on.
    expect((await broker.call('adminoperationlist')).body.success).toBe(true);

    const mine = (await broker.call('adminpackagemine')).body.data;
    expect(mine).toMatchObject({
      platform: false,
      package: { name: 'Starter', modules: ['users', 'market', 'risk'], limits: { staff: 1, symbols: 20 } },
      usage: { staff: 1 },
    });
    // The broker's trail says its package changed; the platform's says who did it.
    expect(
      (await broker.call('adminoperationlist', { action: 'packages.assigned' })).body.data.rows[0],
    ).toMatchObject({ actorKind: 'system', target: 'Starter' });
    expect(
      (await platform.call('adminoperationlist', { action: 'packages.assign' })).body.data.rows[0],
    ).toMatchObject({ actorName: 'admin', target: 'packaged' });

    // A limit is checked where things are created (the staff limit is 1 and the broker has 1).
    await expect(assertWithinLimit(db(), tenant.id, 'staff', countActiveStaff)).rejects.toMatchObject({
      code: -6019,
    });
    await expect(assertWithinLimit(db(), tenant.id, 'customers', countUsers)).resolves.toBeUndefined();
    const noAccounts = async () => 0;
    await expect(
      assertWithinLimit(db(), tenant.id, 'tradingAccounts', noAccounts, 1000),
    ).resolves.toBeUndefined();
    await expect(
      assertWithinLimit(db(), platformId, 'staff', countActiveStaff, 1000),
    ).resolves.toBeUndefined();
    // ...and the real paths refuse with it: one more staff member is over the broker's plan.
    const extra = await broker.call(ROUTE_PATHS.adminstaffcreate, {
      username: 'extra2',
      displayName: 'Extra',
      password: 'Extra-Staff-Password-1',
      roleIds: [],
    });
    expect(extra.body.errorCode).toBe(-6019);
    expect(
      await db()
        .selectFrom('staff')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .where('username', '=', 'extra2')
        .execute(),
    ).toHaveLength(0);

    // The broker's own packages.edit changes nothing: only the platform defines and assigns.
    expect((await broker.call('adminpackagelist')).body.errorCode).toBe(-1009);
    const selfServe = await broker.call('adminpackageassign', { tenantId: tenant.id, packageId: null });
    expect(selfServe.body.errorCode).toBe(-1009);

    // A package in use cannot be removed; switching versions on takes effect at once.
    expect((await platform.call('adminpackagedelete', { id: saved.body.data.id })).body.errorCode).toBe(
      -6013,
    );
    const widened = await platform.call('adminpackagesave', {
      id: saved.body.data.id,
      revision: saved.body.data.revision,
      name: 'Starter',
      description: 'Trading and app versions',
      modules: ['users', 'market', 'risk', 'versions'],
      limits: { staff: 2, customers: 100, tradingAccounts: null, symbols: 20 },
    });
    expect(widened.body.data).toMatchObject({ revision: 2, brokers: 1 });
    expect((await broker.call('adminversionlist')).body.success).toBe(true);
    expect((await broker.call('adminstatsdaily')).body.errorCode).toBe(-6015);
    const change = (await platform.call('adminoperationlist', { action: 'packages.update' })).body.data
      .rows[0];
    const detail = (await platform.call('adminoperationdetail', { id: change.id })).body.data.details;
    expect(detail.changes.modules).toEqual({
      from: ['users', 'market', 'risk'],
      to: ['users', 'market', 'risk', 'versions'],
    });

    // No package: everything again.
    await platform.call('adminpackageassign', { tenantId: tenant.id, packageId: null });
    expect((await broker.call('adminstatsdaily')).body.success).toBe(true);
    const list = (await platform.call('adminpackagelist')).body.data;
    expect(list.packages[0]).toMatchObject({ name: 'Starter', brokers: 0 });
    expect(list.brokers.find((b: { tenantId: string }) => b.tenantId === tenant.id)).toMatchObject({
      packageId: null,
    });
    expect((await platform.call('adminpackagedelete', { id: saved.body.data.id })).body.success).toBe(true);
  });

  it('refuses unknown modules and impossible limits', async () => {
    const platform = await admin();
    const bad = await platform.call('adminpackagesave', {
      name: 'Broken',
      description: '',
      modules: ['roles', 'nothing'],
      limits: { staff: 0, customers: -1, tradingAccounts: null, symbols: null },
    });
    expect(bad.body.errorCode).toBe(-9001);
    expect(Object.keys(bad.body.fields ?? {})).toEqual(
      expect.arrayContaining(['modules.0', 'modules.1', 'limits.staff', 'limits.customers']),
    );
  });
});

describe('operation history: tamper evidence through the page', () => {
  // Last: it leaves the default broker's chain broken.
  it('shows where the chain breaks after an entry is changed behind the triggers', async () => {
    const staff = await admin();
    const rows = await chainOf(platformId);
    const victim = rows[Math.floor(rows.length / 2)];
    await server.app.services.database.exec(
      `alter table audit_events disable trigger audit_events_no_change;
       update audit_events set ip = '198.51.100.1' where id = ${victim?.id};
       alter table audit_events enable trigger audit_events_no_change;`,
    );
    const status = (await staff.call('adminoperationverify')).body.data;
    expect(status).toMatchObject({
      intact: false,
      entries: (victim?.seq ?? 0) - 1,
      broken: { seq: victim?.seq, id: victim?.id, reason: 'content' },
    });
    expect((await staff.call('adminoperationdetail', { id: victim?.id })).body.data.hashValid).toBe(false);
  });
});
