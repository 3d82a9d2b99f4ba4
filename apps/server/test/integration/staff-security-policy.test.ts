import { ACCESS_PATHS } from '@broker/contracts/admin/access-paths';
import { ALL_PERMISSIONS, MONEY_PERMISSIONS } from '@broker/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/identity/passwords';
import { startTestServer, type TTestServer } from '../helpers';
import { createStaffWithRole, type StaffClient, signInWithTwoFactor } from '../staff';

/*
 * Issue 15, finding 6: the broker's staff sign-in rules are security policy. Changing them needs
 * `staff.security`; a stronger rule applies at once, a weaker one waits for a second holder of
 * `staff.security`; nobody weakens a protection of permissions they do not hold.
 */

type TName = keyof typeof ACCESS_PATHS;
type TStaff = StaffClient<TName>;

let server: TTestServer;
let tenantId = '';
let passwordHash = '';
const PASSWORD = 'Policy-Test-2026';

const db = () => server.app.services.database.db;

const signIn = (username: string): Promise<TStaff> =>
  signInWithTwoFactor(server, (name: TName) => ACCESS_PATHS[name], { username, password: PASSWORD });

const ids = new Map<string, string>();
async function staffWith(username: string, permissions: string[]) {
  const { staffId } = await createStaffWithRole(db(), {
    tenantId,
    username,
    passwordHash,
    permissions,
    roleName: `role-${username}`,
  });
  ids.set(username, staffId);
  return staffId;
}

async function settingsNow() {
  const row = await db()
    .selectFrom('access_settings')
    .select(['password_min_length', 'money_two_factor'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return { passwordMinLength: row.password_min_length, moneyTwoFactor: row.money_two_factor };
}

function auditOf(action: string, target?: string) {
  let query = db()
    .selectFrom('audit_events')
    .select(['action', 'actor_id', 'target', 'details'])
    .where('tenant_id', '=', tenantId)
    .where('action', '=', action);
  if (target) query = query.where('target', '=', target);
  return query.execute();
}

let editor: TStaff;
let officer: TStaff;
let first: TStaff;
let second: TStaff;
let third: TStaff;

beforeAll(async () => {
  server = await startTestServer();
  tenantId = (
    await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  passwordHash = await hashPassword(PASSWORD);
  await staffWith('editor', ['staff.view', 'staff.edit']);
  await staffWith('officer', ['staff.view', 'staff.security']);
  // Holders of every permission the (platform) broker grants, without being its administrator.
  for (const name of ['first', 'second', 'third']) await staffWith(name, [...ALL_PERMISSIONS]);
  editor = await signIn('editor');
  officer = await signIn('officer');
  first = await signIn('first');
  second = await signIn('second');
  third = await signIn('third');
});
afterAll(() => server.close());

describe('staff sign-in rules: their own permission, four eyes for weakening', () => {
  it('gives the seeded administrator (system role) staff.security, and staff.edit no longer includes it', async () => {
    expect(ALL_PERMISSIONS).toContain('staff.security');
    expect(MONEY_PERMISSIONS).not.toContain('staff.security');
    const admin = await db()
      .selectFrom('staff')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const list = await first.data('adminstafflist');
    const system = list.roles.find((r: { isSystem: boolean }) => r.isSystem);
    expect(system.permissions).toContain('staff.security');
    expect(list.staff.find((s: { id: string }) => s.id === admin.id).isAdministrator).toBe(true);
    expect([...editor.permissions].sort()).toEqual(['staff.edit', 'staff.view']);
  });

  it('refuses staff holding only staff.view and staff.edit (-1009), whatever the change', async () => {
    const before = await settingsNow();
    for (const input of [
      { passwordMinLength: 5, moneyTwoFactor: false },
      { passwordMinLength: 20, moneyTwoFactor: true },
    ]) {
      const answer = await editor.call('adminstaffsettings', input);
      expect(answer.status).toBe(403);
      expect(answer.body.errorCode).toBe(-1009);
    }
    for (const name of [
      'adminstaffsettingsapprove',
      'adminstaffsettingsreject',
      'adminstaffsettingscancel',
    ] as const)
      expect((await editor.call(name, { id: 'anything' })).body.errorCode, name).toBe(-1009);
    expect(await settingsNow()).toEqual(before);
    // They still read the rules.
    expect((await editor.data('adminstafflist')).settings).toEqual(before);
  });

  it('applies a stronger rule at once for a holder of staff.security, audited', async () => {
    const before = await settingsNow();
    expect(before).toEqual({ passwordMinLength: 8, moneyTwoFactor: false });
    const longer = await officer.data('adminstaffsettings', { passwordMinLength: 10, moneyTwoFactor: false });
    expect(longer).toEqual({ settings: { passwordMinLength: 10, moneyTwoFactor: false }, request: null });
    const on = await officer.data('adminstaffsettings', { passwordMinLength: 10, moneyTwoFactor: true });
    expect(on.settings).toEqual({ passwordMinLength: 10, moneyTwoFactor: true });
    expect(await settingsNow()).toEqual({ passwordMinLength: 10, moneyTwoFactor: true });
    const saves = await auditOf('access.settings.save', tenantId);
    expect(saves).toHaveLength(2);
    expect(saves.every((e) => e.actor_id === ids.get('officer'))).toBe(true);
    // Nobody waits for anything after a stronger change.
    expect((await officer.data('adminstafflist')).policyRequest).toBeNull();
  });

  it('refuses a weaker rule to someone lacking the permissions it protects (-6021)', async () => {
    const lower = await officer.call('adminstaffsettings', { passwordMinLength: 8, moneyTwoFactor: true });
    expect(lower.status).toBe(403);
    expect(lower.body.errorCode).toBe(-6021);
    expect(lower.body.message).toBe(
      'This change weakens a protection of permissions you do not hold yourself, so you cannot ask for it or approve it.',
    );
    const off = await officer.call('adminstaffsettings', { passwordMinLength: 10, moneyTwoFactor: false });
    expect(off.body.errorCode).toBe(-6021);
    expect(await settingsNow()).toEqual({ passwordMinLength: 10, moneyTwoFactor: true });
    expect(await auditOf('access.settings.request')).toHaveLength(0);
  });

  it('keeps a weaker rule waiting until a different holder of staff.security approves it', async () => {
    const asked = await first.data('adminstaffsettings', { passwordMinLength: 6, moneyTwoFactor: true });
    expect(asked.settings).toEqual({ passwordMinLength: 10, moneyTwoFactor: true });
    expect(asked.request).toMatchObject({
      settings: { passwordMinLength: 6, moneyTwoFactor: true },
      status: 'pending',
      requestedBy: { id: ids.get('first'), username: 'first' },
      decidedBy: null,
    });
    const id = asked.request.id as string;
    expect(await settingsNow()).toEqual({ passwordMinLength: 10, moneyTwoFactor: true });
    // Everyone who reads the staff page sees it waiting.
    expect((await editor.data('adminstafflist')).policyRequest).toMatchObject({ id, status: 'pending' });
    // The rule in force still applies: a 7-character password is refused.
    expect(
      (
        await first.call('adminstaffcreate', {
          username: 'shortpw',
          displayName: 'Short',
          password: 'Abc-123',
          roleIds: [],
        })
      ).body.errorCode,
    ).toBe(-6006);

    // At most one request waits per broker: another weaker change is refused until this one is decided.
    const another = await second.call('adminstaffsettings', { passwordMinLength: 5, moneyTwoFactor: true });
    expect(another.status).toBe(409);
    expect(another.body.errorCode).toBe(-6020);
    // The requester cannot approve or reject their own request.
    const own = await first.call('adminstaffsettingsapprove', { id });
    expect(own.status).toBe(403);
    expect(own.body.errorCode).toBe(-6010);
    expect((await first.call('adminstaffsettingsreject', { id })).body.errorCode).toBe(-6010);
    // Only the requester withdraws it.
    expect((await second.call('adminstaffsettingscancel', { id })).body.errorCode).toBe(-1009);
    // A holder of staff.security lacking what a shorter minimum protects cannot approve it either.
    expect((await officer.call('adminstaffsettingsapprove', { id })).body.errorCode).toBe(-6021);
    expect((await editor.call('adminstaffsettingsapprove', { id })).body.errorCode).toBe(-1009);
    expect(await settingsNow()).toEqual({ passwordMinLength: 10, moneyTwoFactor: true });

    const approved = await second.data('adminstaffsettingsapprove', { id });
    expect(approved.settings).toEqual({ passwordMinLength: 6, moneyTwoFactor: true });
    expect(approved.request).toMatchObject({ id, status: 'approved', decidedBy: ids.get('second') });
    expect(await settingsNow()).toEqual({ passwordMinLength: 6, moneyTwoFactor: true });
    expect((await third.call('adminstaffsettingsapprove', { id })).body.errorCode).toBe(-6011);
    expect((await first.call('adminstaffsettingscancel', { id })).body.errorCode).toBe(-6011);
    expect((await second.data('adminstafflist')).policyRequest).toBeNull();

    const [request] = await auditOf('access.settings.request', id);
    expect(request?.actor_id).toBe(ids.get('first'));
    expect(request?.details).toMatchObject({
      before: { passwordMinLength: 10, moneyTwoFactor: true },
      proposed: { passwordMinLength: 6, moneyTwoFactor: true },
      weakens: ['passwordMinLength'],
    });
    const [approval] = await auditOf('access.settings.approve', id);
    expect(approval?.actor_id).toBe(ids.get('second'));
    expect(approval?.details).toMatchObject({
      requestedBy: ids.get('first'),
      before: { passwordMinLength: 10, moneyTwoFactor: true },
      after: { passwordMinLength: 6, moneyTwoFactor: true },
    });
  });

  it('leaves the rules as they are when a second person rejects, or the requester withdraws', async () => {
    const asked = await first.data('adminstaffsettings', { passwordMinLength: 6, moneyTwoFactor: false });
    expect(asked.request.status).toBe('pending');
    const rejected = await third.data('adminstaffsettingsreject', { id: asked.request.id });
    expect(rejected.request).toMatchObject({ status: 'rejected', decidedBy: ids.get('third') });
    expect(rejected.settings).toEqual({ passwordMinLength: 6, moneyTwoFactor: true });
    expect((await second.call('adminstaffsettingsapprove', { id: asked.request.id })).body.errorCode).toBe(
      -6011,
    );

    const again = await second.data('adminstaffsettings', { passwordMinLength: 5, moneyTwoFactor: true });
    const withdrawn = await second.data('adminstaffsettingscancel', { id: again.request.id });
    expect(withdrawn.request).toMatchObject({ status: 'cancelled', decidedBy: ids.get('second') });
    expect(await settingsNow()).toEqual({ passwordMinLength: 6, moneyTwoFactor: true });

    const [rejection] = await auditOf('access.settings.reject', asked.request.id);
    expect(rejection?.actor_id).toBe(ids.get('third'));
    expect(rejection?.details).toMatchObject({ requestedBy: ids.get('first') });
    const [cancellation] = await auditOf('access.settings.cancel', again.request.id);
    expect(cancellation?.actor_id).toBe(ids.get('second'));
    // Unknown ids and another broker's requests answer not found.
    expect((await second.call('adminstaffsettingsapprove', { id: 'no-such-request' })).body.errorCode).toBe(
      -6009,
    );
  });

  it('applies a request exactly once under 20 parallel approvals', async () => {
    const asked = await first.data('adminstaffsettings', { passwordMinLength: 5, moneyTwoFactor: false });
    const id = asked.request.id as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? second : third).call('adminstaffsettingsapprove', { id }),
      ),
    );
    const codes = answers.map((a) => (a.body.success ? 0 : a.body.errorCode));
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === -6011)).toHaveLength(19);
    expect(await auditOf('access.settings.approve', id)).toHaveLength(1);
    const row = await db()
      .selectFrom('access_policy_requests')
      .select(['status', 'decided_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('approved');
    expect([ids.get('second'), ids.get('third')]).toContain(row.decided_by);
    expect(await settingsNow()).toEqual({ passwordMinLength: 5, moneyTwoFactor: false });
  });

  it('lets only one of 20 parallel weaker requests wait', async () => {
    await first.data('adminstaffsettings', { passwordMinLength: 12, moneyTwoFactor: true });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        [first, second, third][i % 3]?.call('adminstaffsettings', {
          passwordMinLength: 6 + (i % 5),
          moneyTwoFactor: true,
        }),
      ),
    );
    const codes = answers.map((a) => (a?.body.success ? 0 : a?.body.errorCode));
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === -6020)).toHaveLength(19);
    const waiting = await db()
      .selectFrom('access_policy_requests')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'pending')
      .execute();
    expect(waiting).toHaveLength(1);
    expect(await settingsNow()).toEqual({ passwordMinLength: 12, moneyTwoFactor: true });
  });
});

describe('staff actions that weaken another member’s protection', () => {
  it('are refused (-1009) on a member holding permissions the actor lacks, money ones included', async () => {
    const cashierId = await staffWith('cashier', ['users.view', 'users.adjust']);
    const peerId = await staffWith('peer', ['staff.view']);
    // A lockout to end.
    await db()
      .updateTable('staff')
      .set({
        failed_attempts: 5,
        locked_until: new Date(Date.now() + 15 * 60_000),
        totp_secret: 'JBSWY3DPEHPK3PXP',
      })
      .where('id', 'in', [cashierId, peerId])
      .execute();
    for (const [name, input] of [
      ['adminstafftotpreset', { id: cashierId }],
      ['adminstaffpassword', { id: cashierId }],
      ['adminstaffpassword', { id: cashierId, password: 'Taken-Over-2026' }],
      ['adminstaffunlock', { id: cashierId }],
      ['adminstaffstatus', { id: cashierId, status: 'disabled' }],
    ] as const) {
      const answer = await editor.call(name, input);
      expect(answer.body.errorCode, name).toBe(-1009);
    }
    const cashier = await db()
      .selectFrom('staff')
      .select(['totp_secret', 'locked_until', 'status', 'password_hash'])
      .where('id', '=', cashierId)
      .executeTakeFirstOrThrow();
    expect(cashier.totp_secret).not.toBeNull();
    expect(cashier.locked_until).not.toBeNull();
    expect(cashier.status).toBe('active');
    expect(cashier.password_hash).toBe(passwordHash);
    // On a member holding nothing beyond the actor, the same actions go through.
    expect((await editor.data('adminstaffunlock', { id: peerId })).lockedUntil).toBeNull();
    expect((await editor.data('adminstafftotpreset', { id: peerId })).twoFactor).toBe(false);
    // Someone holding the money permissions may act on the cashier.
    expect((await first.data('adminstafftotpreset', { id: cashierId })).twoFactor).toBe(false);
  });
});
