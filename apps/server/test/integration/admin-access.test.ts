import { ALL_PERMISSIONS, BROKER_PERMISSIONS, MONEY_PERMISSIONS } from '@broker/contracts/permissions';
import { routeCatalogue, type TRouteName } from '@broker/contracts/routes';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  // Each staff client comes through the test's proxy with an address of its own.
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => server.close());

const db = () => server.app.services.database.db;
const path = (name: TRouteName) => routeCatalogue[name].path;
const totp = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * 30_000,
  });
/** A six-digit code that is not valid now (nor one step either side). */
const wrongCode = (secret: string) => {
  const valid = new Set([totp(secret, -1), totp(secret), totp(secret, 1)]);
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
};

let browsers = 0;

/**
 * One back-office browser: keeps cookies, sends the CSRF token, optionally names its broker, and
 * comes from its own address (the sign-in rate limit counts per address).
 */
class Staff {
  readonly api: ApiClient;
  readonly ip = `10.1.${Math.floor(++browsers / 250)}.${(browsers % 250) + 1}`;
  constructor(readonly hostspecific?: string) {
    this.api = new ApiClient(server.baseUrl);
    this.api.cookies.set('lang', 'en');
  }
  call(name: TRouteName, body: Record<string, unknown> = {}) {
    return this.api.post(
      path(name),
      this.hostspecific ? { ...body, Hostspecific: this.hostspecific } : body,
      {
        'x-csrf-token': this.api.cookies.get('admin_csrf') ?? '',
        'x-forwarded-for': this.ip,
      },
    );
  }
  login(username: string, password: string, otp?: string) {
    return this.call('adminlogin', { username, password, ...(otp ? { otp } : {}) });
  }
  static async signedIn(username: string, password: string, hostspecific?: string) {
    const staff = new Staff(hostspecific);
    const answer = await staff.login(username, password);
    expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
    return staff;
  }
}

const admin = () => Staff.signedIn('admin', TEST_ADMIN_PASSWORD);

async function createRole(actor: Staff, name: string, permissions: string[], parentId: string | null = null) {
  const answer = await actor.call('adminrolesave', { name, parentId, permissions });
  expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
  return answer.body.data as { id: string; effective: string[] };
}

async function createStaff(actor: Staff, username: string, roleIds: string[], password = 'Staff-Pass-2026') {
  const answer = await actor.call('adminstaffcreate', { username, displayName: username, password, roleIds });
  expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
  return answer.body.data as { id: string };
}

let ruleKeeper: Staff | null = null;

/**
 * Saves the broker's sign-in rules as `actor`. A weaker change only waits for a second approver
 * (four eyes, `staff.security`), so a second holder of every permission approves it here.
 */
async function setRules(actor: Staff, settings: { passwordMinLength: number; moneyTwoFactor: boolean }) {
  const saved = await actor.call('adminstaffsettings', settings);
  expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
  if (!saved.body.data.request) return saved.body.data;
  if (!ruleKeeper) {
    const keepers = await createRole(actor, 'Rule keepers', [...ALL_PERMISSIONS]);
    await createStaff(actor, 'rulekeeper', [keepers.id]);
    // Money permissions need two-factor when the rule is on: give the approver an authenticator.
    const secret = new Secret({ size: 20 }).base32;
    await db()
      .updateTable('staff')
      .set({ totp_secret: secret })
      .where('username', '=', 'rulekeeper')
      .execute();
    ruleKeeper = new Staff();
    const signedIn = await ruleKeeper.login('rulekeeper', 'Staff-Pass-2026', totp(secret));
    expect(signedIn.body.success, JSON.stringify(signedIn.body)).toBe(true);
  }
  const approved = await ruleKeeper.call('adminstaffsettingsapprove', { id: saved.body.data.request.id });
  expect(approved.body.success, JSON.stringify(approved.body)).toBe(true);
  return approved.body.data;
}

async function auditActions(action: string) {
  return db()
    .selectFrom('audit_events')
    .select(['action', 'target', 'actor_id'])
    .where('action', '=', action)
    .execute();
}

describe('roles', () => {
  it('lists the system Administrator role holding every permission the broker may grant', async () => {
    const a = await admin();
    const list = await a.call('adminrolelist');
    expect(list.body.data.grantable.sort()).toEqual([...ALL_PERMISSIONS].sort());
    const system = list.body.data.roles.find((r: { isSystem: boolean }) => r.isSystem);
    expect(system.name).toBe('Administrator');
    expect(system.effective.sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(system.staffCount).toBe(1);
    // The stored row does not list permissions: the flag stands for all of them, as the map grows.
    const row = await db()
      .selectFrom('roles')
      .select(['permissions', 'is_system'])
      .where('id', '=', system.id)
      .executeTakeFirstOrThrow();
    expect(row.is_system).toBe(true);
    const me = await a.call('adminme');
    expect(me.body.data.permissions.sort()).toEqual([...ALL_PERMISSIONS].sort());
  });

  it('inherits the permissions of the parent role and shows own and effective permissions apart', async () => {
    const a = await admin();
    const parent = await createRole(a, 'Support', ['users.view']);
    const child = await createRole(a, 'Senior support', ['users.note'], parent.id);
    expect(child.effective).toEqual(['users.note', 'users.view']);
    const list = await a.call('adminrolelist');
    const listed = list.body.data.roles.find((r: { id: string }) => r.id === child.id);
    expect(listed.permissions).toEqual(['users.note']);
    expect(listed.parentId).toBe(parent.id);
    const parentListed = list.body.data.roles.find((r: { id: string }) => r.id === parent.id);
    expect(parentListed.childCount).toBe(1);
    // A staff member of the child role holds both.
    await createStaff(a, 'senior1', [child.id]);
    const senior = await Staff.signedIn('senior1', 'Staff-Pass-2026');
    expect((await senior.call('adminme')).body.data.permissions).toEqual(['users.note', 'users.view']);
    // Changing the parent changes what the child's staff hold at once.
    await a.call('adminrolesave', {
      id: parent.id,
      name: 'Support',
      parentId: null,
      permissions: ['users.view', 'users.restrict'],
    });
    expect((await senior.call('adminme')).body.data.permissions).toEqual([
      'users.note',
      'users.restrict',
      'users.view',
    ]);
    expect((await auditActions('access.role.create')).length).toBeGreaterThanOrEqual(2);
    expect((await auditActions('access.role.update')).some((e) => e.target === parent.id)).toBe(true);
  });

  it('refuses a parent loop, a taken name, an unknown permission, and changes to the system role', async () => {
    const a = await admin();
    const top = await createRole(a, 'Loop top', ['users.view']);
    const middle = await createRole(a, 'Loop middle', [], top.id);
    const bottom = await createRole(a, 'Loop bottom', [], middle.id);
    const loop = await a.call('adminrolesave', {
      id: top.id,
      name: 'Loop top',
      parentId: bottom.id,
      permissions: [],
    });
    expect(loop.body.errorCode).toBe(-6003);
    expect(loop.body.message).toBe('A role cannot inherit from itself or from a role below it.');
    const self = await a.call('adminrolesave', {
      id: top.id,
      name: 'Loop top',
      parentId: top.id,
      permissions: [],
    });
    expect(self.body.errorCode).toBe(-6003);
    const taken = await a.call('adminrolesave', { name: 'loop TOP', parentId: null, permissions: [] });
    expect(taken.body.errorCode).toBe(-6002);
    expect(taken.status).toBe(409);
    const unknown = await a.call('adminrolesave', {
      name: 'Odd',
      parentId: null,
      permissions: ['nope.view'],
    });
    expect(unknown.body.errorCode).toBe(-6004);
    const missingParent = await a.call('adminrolesave', {
      name: 'Orphan',
      parentId: 'no-such-role',
      permissions: [],
    });
    expect(missingParent.body.errorCode).toBe(-6009);
    const system = (await a.call('adminrolelist')).body.data.roles.find(
      (r: { isSystem: boolean }) => r.isSystem,
    );
    const edit = await a.call('adminrolesave', {
      id: system.id,
      name: 'Renamed',
      parentId: null,
      permissions: [],
    });
    expect(edit.body.errorCode).toBe(-1009);
    expect((await a.call('adminroledelete', { id: system.id })).body.errorCode).toBe(-1009);
  });

  it('deletes a role only when no staff member and no child role uses it', async () => {
    const a = await admin();
    const parent = await createRole(a, 'Desk', ['market.view']);
    const child = await createRole(a, 'Desk junior', [], parent.id);
    const withChild = await a.call('adminroledelete', { id: parent.id });
    expect(withChild.body.errorCode).toBe(-6005);
    const member = await createStaff(a, 'deskjunior', [child.id]);
    expect((await a.call('adminroledelete', { id: child.id })).body.errorCode).toBe(-6005);
    await a.call('adminstaffupdate', { id: member.id, displayName: 'Desk junior', roleIds: [] });
    expect((await a.call('adminroledelete', { id: child.id })).body.success).toBe(true);
    expect((await a.call('adminroledelete', { id: parent.id })).body.success).toBe(true);
    const names = (await a.call('adminrolelist')).body.data.roles.map((r: { name: string }) => r.name);
    expect(names).not.toContain('Desk');
    expect((await auditActions('access.role.delete')).some((e) => e.target === parent.id)).toBe(true);
    expect((await a.call('adminroledelete', { id: parent.id })).body.errorCode).toBe(-6009);
  });

  it('does not let anyone grant a permission they do not hold themselves', async () => {
    const a = await admin();
    const editors = await createRole(a, 'Role editors', [
      'roles.view',
      'roles.edit',
      'users.view',
      'staff.view',
      'staff.edit',
    ]);
    await createStaff(a, 'roleeditor', [editors.id]);
    const editor = await Staff.signedIn('roleeditor', 'Staff-Pass-2026');
    const within = await editor.call('adminrolesave', {
      name: 'Viewers',
      parentId: null,
      permissions: ['users.view'],
    });
    expect(within.body.success).toBe(true);
    const beyond = await editor.call('adminrolesave', {
      name: 'Adjusters',
      parentId: null,
      permissions: ['users.adjust'],
    });
    expect(beyond.body.errorCode).toBe(-6004);
    const system = (await a.call('adminrolelist')).body.data.roles.find(
      (r: { isSystem: boolean }) => r.isSystem,
    );
    const viaParent = await editor.call('adminrolesave', {
      name: 'Sneaky',
      parentId: system.id,
      permissions: [],
    });
    expect(viaParent.body.errorCode).toBe(-6004);
    // Nor hand out a role above their own, or act on staff above them.
    const hire = await editor.call('adminstaffcreate', {
      username: 'sneakyadmin',
      displayName: 'Sneaky',
      password: 'Staff-Pass-2026',
      roleIds: [system.id],
    });
    expect(hire.body.errorCode).toBe(-6004);
    const adminId = (
      await db().selectFrom('staff').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    ).id;
    expect((await editor.call('adminstaffpassword', { id: adminId })).body.errorCode).toBe(-1009);
    expect((await editor.call('adminstaffstatus', { id: adminId, status: 'disabled' })).body.errorCode).toBe(
      -1009,
    );
  });
});

describe('staff', () => {
  it('creates staff with a username of letters and digits and a password meeting the broker minimum', async () => {
    const a = await admin();
    const roles = (await a.call('adminrolelist')).body.data.roles;
    const support = roles.find((r: { name: string }) => r.name === 'Support');
    const badName = await a.call('adminstaffcreate', {
      username: 'bad name',
      displayName: 'x',
      password: 'Staff-Pass-2026',
      roleIds: [],
    });
    expect(badName.body.errorCode).toBe(-9001);
    expect(badName.body.fields?.username).toBe('Use 3 to 32 letters and digits only.');
    const tooShortForSpec = await a.call('adminstaffcreate', {
      username: 'shorty',
      displayName: 'x',
      password: '1234',
      roleIds: [],
    });
    expect(tooShortForSpec.body.errorCode).toBe(-9001);
    // Five characters meet spec 5 but not this broker's minimum (8 by default).
    const weak = await a.call('adminstaffcreate', {
      username: 'shorty',
      displayName: 'x',
      password: '12345',
      roleIds: [],
    });
    expect(weak.body.errorCode).toBe(-6006);
    const settings = await a.call('adminstaffsettings', { passwordMinLength: 12, moneyTwoFactor: false });
    expect(settings.body.data).toEqual({
      settings: { passwordMinLength: 12, moneyTwoFactor: false },
      request: null,
    });
    expect(
      (await a.call('adminstaffsettings', { passwordMinLength: 4, moneyTwoFactor: false })).body.errorCode,
    ).toBe(-9001);
    expect(
      (await a.call('adminstaffsettings', { passwordMinLength: 33, moneyTwoFactor: false })).body.errorCode,
    ).toBe(-9001);
    const elevenChars = await a.call('adminstaffcreate', {
      username: 'shorty',
      displayName: 'x',
      password: 'Abcdefgh123',
      roleIds: [],
    });
    expect(elevenChars.body.errorCode).toBe(-6006);
    const created = await a.call('adminstaffcreate', {
      username: 'Agent7',
      displayName: 'Agent Seven',
      password: 'Abcdefgh1234',
      roleIds: [support.id],
    });
    expect(created.body.data).toMatchObject({
      username: 'Agent7',
      displayName: 'Agent Seven',
      status: 'active',
      roles: [{ id: support.id, name: 'Support' }],
      twoFactor: false,
      lastSignInAt: null,
      lockedUntil: null,
      isAdministrator: false,
    });
    const taken = await a.call('adminstaffcreate', {
      username: 'agent7',
      displayName: 'x',
      password: 'Abcdefgh1234',
      roleIds: [],
    });
    expect(taken.body.errorCode).toBe(-6001);
    // A shorter minimum is weaker: it applies once a second person approves it.
    await setRules(a, { passwordMinLength: 8, moneyTwoFactor: false });
    await Staff.signedIn('Agent7', 'Abcdefgh1234');
    const listed = (await a.call('adminstafflist')).body.data.staff.find(
      (s: { username: string }) => s.username === 'Agent7',
    );
    expect(listed.lastSignInAt).not.toBeNull();
    expect((await auditActions('access.staff.create')).some((e) => e.target === created.body.data.id)).toBe(
      true,
    );
    expect((await auditActions('access.settings.save')).length).toBeGreaterThanOrEqual(1);
    expect((await auditActions('access.settings.request')).length).toBeGreaterThanOrEqual(1);
    expect((await auditActions('access.settings.approve')).length).toBeGreaterThanOrEqual(1);
  });

  it('edits roles and name, disables (ending the sessions) and enables, but never oneself', async () => {
    const a = await admin();
    const viewers = await createRole(a, 'Market viewers', ['market.view']);
    const member = await createStaff(a, 'marketguy', []);
    const updated = await a.call('adminstaffupdate', {
      id: member.id,
      displayName: 'Market Guy',
      roleIds: [viewers.id],
    });
    expect(updated.body.data.displayName).toBe('Market Guy');
    expect(updated.body.data.roles).toEqual([{ id: viewers.id, name: 'Market viewers' }]);
    const guy = await Staff.signedIn('marketguy', 'Staff-Pass-2026');
    expect((await guy.call('adminme')).body.data.permissions).toEqual(['market.view']);
    const disabled = await a.call('adminstaffstatus', { id: member.id, status: 'disabled' });
    expect(disabled.body.data.status).toBe('disabled');
    expect((await guy.call('adminme')).body.errorCode).toBe(-1001);
    expect((await new Staff().login('marketguy', 'Staff-Pass-2026')).body.errorCode).toBe(-1002);
    await a.call('adminstaffstatus', { id: member.id, status: 'active' });
    await Staff.signedIn('marketguy', 'Staff-Pass-2026');
    const selfId = (await a.call('adminme')).body.data.staffId;
    const self = await a.call('adminstaffstatus', { id: selfId, status: 'disabled' });
    expect(self.body.errorCode).toBe(-6008);
    expect(
      (await a.call('adminstaffupdate', { id: selfId, displayName: 'Admin', roleIds: [] })).body.errorCode,
    ).toBe(-6008);
    // The own display name may change, as long as the roles stay.
    const ownRoles = (await a.call('adminstafflist')).body.data.staff
      .find((s: { id: string }) => s.id === selfId)
      .roles.map((r: { id: string }) => r.id);
    const renamed = await a.call('adminstaffupdate', { id: selfId, displayName: 'Chief', roleIds: ownRoles });
    expect(renamed.body.data.displayName).toBe('Chief');
    const unknown = await a.call('adminstaffstatus', { id: 'no-such-staff', status: 'disabled' });
    expect(unknown.body.errorCode).toBe(-6009);
    const actions = (await auditActions('access.staff.disable')).concat(
      await auditActions('access.staff.enable'),
    );
    expect(actions.filter((e) => e.target === member.id)).toHaveLength(2);
  });

  it('keeps at least one active administrator', async () => {
    const a = await admin();
    const everything = await createRole(a, 'Everything', [...ALL_PERMISSIONS]);
    await createStaff(a, 'deputy', [everything.id]);
    const deputy = await Staff.signedIn('deputy', 'Staff-Pass-2026');
    const list = (await deputy.call('adminstafflist')).body.data;
    const adminRow = list.staff.find((s: { username: string }) => s.username === 'admin');
    const systemRole = list.roles.find((r: { isSystem: boolean }) => r.isSystem);
    expect(adminRow.isAdministrator).toBe(true);
    const disable = await deputy.call('adminstaffstatus', { id: adminRow.id, status: 'disabled' });
    expect(disable.body.errorCode).toBe(-6018);
    expect(disable.body.message).toBe('The broker must keep at least one active administrator.');
    const demote = await deputy.call('adminstaffupdate', {
      id: adminRow.id,
      displayName: 'Admin',
      roleIds: [],
    });
    expect(demote.body.errorCode).toBe(-6018);
    // With a second administrator the first can go.
    const boss = await createStaff(a, 'boss', [systemRole.id]);
    expect(
      (await deputy.call('adminstaffstatus', { id: adminRow.id, status: 'disabled' })).body.success,
    ).toBe(true);
    expect((await deputy.call('adminstaffstatus', { id: boss.id, status: 'disabled' })).body.errorCode).toBe(
      -6018,
    );
    expect((await deputy.call('adminstaffstatus', { id: adminRow.id, status: 'active' })).body.success).toBe(
      true,
    );
  });

  it('shows a lockout after repeated failures and lets an administrator end it', async () => {
    const a = await admin();
    const member = await createStaff(a, 'forgetful', []);
    const guest = new Staff();
    for (let i = 0; i < 5; i++) await guest.login('forgetful', 'wrong-password');
    const locked = await guest.login('forgetful', 'Staff-Pass-2026');
    expect(locked.body.errorCode).toBe(-1008);
    expect(locked.status).toBe(429);
    const row = (await a.call('adminstafflist')).body.data.staff.find(
      (s: { id: string }) => s.id === member.id,
    );
    expect(new Date(row.lockedUntil).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    const unlocked = await a.call('adminstaffunlock', { id: member.id });
    expect(unlocked.body.data.lockedUntil).toBeNull();
    expect((await guest.login('forgetful', 'Staff-Pass-2026')).body.success).toBe(true);
    expect((await auditActions('access.staff.unlock')).some((e) => e.target === member.id)).toBe(true);
  });

  it('resets a password to a generated one shown once, or to one the administrator sets', async () => {
    const a = await admin();
    const member = await createStaff(a, 'resetme', []);
    const session = await Staff.signedIn('resetme', 'Staff-Pass-2026');
    const generated = await a.call('adminstaffpassword', { id: member.id });
    const password = generated.body.data.generated as string;
    expect(password.length).toBeGreaterThanOrEqual(14);
    expect((await session.call('adminme')).body.errorCode).toBe(-1001);
    expect((await new Staff().login('resetme', 'Staff-Pass-2026')).body.errorCode).toBe(-1002);
    await Staff.signedIn('resetme', password);
    const set = await a.call('adminstaffpassword', { id: member.id, password: 'Chosen-2026' });
    expect(set.body.data.generated).toBeNull();
    await Staff.signedIn('resetme', 'Chosen-2026');
    expect((await a.call('adminstaffpassword', { id: member.id, password: 'short' })).body.errorCode).toBe(
      -6006,
    );
    const selfId = (await a.call('adminme')).body.data.staffId;
    expect((await a.call('adminstaffpassword', { id: selfId })).body.errorCode).toBe(-6008);
    const events = await auditActions('access.staff.password');
    expect(events.filter((e) => e.target === member.id)).toHaveLength(2);
    // The audit trail never holds the password.
    const details = await db()
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'access.staff.password')
      .execute();
    expect(JSON.stringify(details)).not.toContain(password);
  });

  it('lets staff change their own password, ending their other sessions', async () => {
    const a = await admin();
    await createStaff(a, 'selfchange', []);
    const first = await Staff.signedIn('selfchange', 'Staff-Pass-2026');
    const second = await Staff.signedIn('selfchange', 'Staff-Pass-2026');
    expect(
      (await first.call('adminmypassword', { oldPassword: 'wrong', password: 'New-Pass-2026' })).body
        .errorCode,
    ).toBe(-9001);
    expect(
      (await first.call('adminmypassword', { oldPassword: 'Staff-Pass-2026', password: 'short1' })).body
        .errorCode,
    ).toBe(-6006);
    expect(
      (await first.call('adminmypassword', { oldPassword: 'Staff-Pass-2026', password: 'New-Pass-2026' }))
        .body.success,
    ).toBe(true);
    expect((await first.call('adminme')).body.success).toBe(true);
    expect((await second.call('adminme')).body.errorCode).toBe(-1001);
    await Staff.signedIn('selfchange', 'New-Pass-2026');
  });
});

describe('staff two-factor sign-in', () => {
  it('turns on from the own security dialog, then asks for the code at sign-in and counts wrong ones', async () => {
    const a = await admin();
    await createStaff(a, 'careful', []);
    const careful = await Staff.signedIn('careful', 'Staff-Pass-2026');
    expect((await careful.call('adminmysecurity')).body.data).toEqual({
      twoFactor: false,
      twoFactorRequired: false,
      passwordMinLength: 8,
    });
    const begin = await careful.call('adminmytotpbegin');
    const secret = begin.body.data.secret as string;
    expect(begin.body.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*careful.*secret=[A-Z2-7]+/);
    expect((await careful.call('adminmytotpenable', { code: wrongCode(secret) })).body.errorCode).toBe(-1017);
    // Codes are single use: confirm with the previous step's code, sign in with this step's, turn off
    // with the next step's.
    expect((await careful.call('adminmytotpenable', { code: totp(secret, -1) })).body.data.twoFactor).toBe(
      true,
    );
    expect((await careful.call('adminme')).body.data.twoFactor).toBe(true);
    const row = (await a.call('adminstafflist')).body.data.staff.find(
      (s: { username: string }) => s.username === 'careful',
    );
    expect(row.twoFactor).toBe(true);

    const guest = new Staff();
    const ask = await guest.login('careful', 'Staff-Pass-2026');
    expect(ask.body.errorCode).toBe(-1016);
    expect(guest.api.cookies.has('admin_token')).toBe(false);
    const attempts = async () =>
      (
        await db()
          .selectFrom('staff')
          .select('failed_attempts')
          .where('username', '=', 'careful')
          .executeTakeFirstOrThrow()
      ).failed_attempts;
    expect(await attempts()).toBe(0);
    // A wrong password never reveals that two-factor is on.
    expect((await guest.login('careful', 'wrong-password')).body.errorCode).toBe(-1002);
    const wrong = await guest.login('careful', 'Staff-Pass-2026', wrongCode(secret));
    expect(wrong.body.errorCode).toBe(-1017);
    expect(await attempts()).toBe(2);
    const right = await guest.login('careful', 'Staff-Pass-2026', totp(secret));
    expect(right.body.success).toBe(true);
    expect(right.body.data.staff.twoFactor).toBe(true);
    expect(await attempts()).toBe(0);

    expect((await careful.call('adminmytotpdisable', { code: wrongCode(secret) })).body.errorCode).toBe(
      -1017,
    );
    // The code that signed in cannot be used again.
    expect((await guest.login('careful', 'Staff-Pass-2026', totp(secret))).body.errorCode).toBe(-1017);
    expect((await careful.call('adminmytotpdisable', { code: totp(secret, 1) })).body.data.twoFactor).toBe(
      false,
    );
    await Staff.signedIn('careful', 'Staff-Pass-2026');
    expect((await auditActions('staff.2fa.enable')).length).toBeGreaterThanOrEqual(1);
    expect((await auditActions('staff.2fa.disable')).length).toBeGreaterThanOrEqual(1);
  });

  it('makes staff who can move money set up two-factor before the session exists', async () => {
    const a = await admin();
    expect(MONEY_PERMISSIONS).toContain('users.adjust');
    const cashiers = await createRole(a, 'Cashiers', ['users.view', 'users.adjust']);
    const member = await createStaff(a, 'cashier', [cashiers.id]);
    // The platform broker starts with the rule off; this broker turns it on.
    await a.call('adminstaffsettings', { passwordMinLength: 8, moneyTwoFactor: true });
    const guest = new Staff();
    const refused = await guest.login('cashier', 'Staff-Pass-2026');
    expect(refused.body.errorCode).toBe(-6007);
    expect(refused.body.message).toBe('Staff who can move money must turn on two-factor sign-in first.');
    expect(guest.api.cookies.has('admin_token')).toBe(false);
    expect(guest.api.cookies.has('admin_enrol')).toBe(true);
    expect((await guest.call('adminme')).body.errorCode).toBe(-1001);
    // A wrong password does not start an enrolment.
    const stranger = new Staff();
    expect((await stranger.login('cashier', 'wrong-password')).body.errorCode).toBe(-1002);
    expect((await stranger.call('adminenrolstart')).body.errorCode).toBe(-1001);

    const start = await guest.call('adminenrolstart');
    expect(start.body.data.username).toBe('cashier');
    const secret = start.body.data.secret as string;
    expect(new Date(start.body.data.expiresAt).getTime()).toBeLessThanOrEqual(
      Date.now() + 10 * 60_000 + 1000,
    );
    expect((await guest.call('adminenrolconfirm', { code: wrongCode(secret) })).body.errorCode).toBe(-1017);
    const confirmed = await guest.call('adminenrolconfirm', { code: totp(secret, -1) });
    expect(confirmed.body.success).toBe(true);
    expect(confirmed.body.data.staff.permissions).toContain('users.adjust');
    expect(confirmed.body.data.staff.twoFactor).toBe(true);
    expect(guest.api.cookies.has('admin_enrol')).toBe(false);
    expect((await guest.call('adminme')).body.data.username).toBe('cashier');
    // The enrolment cannot be used twice.
    expect((await guest.call('adminenrolconfirm', { code: totp(secret) })).body.errorCode).toBe(-1001);
    // Required two-factor cannot be turned off by its owner.
    expect((await guest.call('adminmytotpdisable', { code: totp(secret) })).body.errorCode).toBe(-6007);
    // Next time the code is asked for like for anyone else.
    expect((await new Staff().login('cashier', 'Staff-Pass-2026')).body.errorCode).toBe(-1016);
    expect((await new Staff().login('cashier', 'Staff-Pass-2026', totp(secret))).body.success).toBe(true);

    // A lost phone: the administrator resets two-factor, the sessions end, and enrolment starts over.
    const reset = await a.call('adminstafftotpreset', { id: member.id });
    expect(reset.body.data.twoFactor).toBe(false);
    expect((await guest.call('adminme')).body.errorCode).toBe(-1001);
    expect((await new Staff().login('cashier', 'Staff-Pass-2026')).body.errorCode).toBe(-6007);
    await setRules(a, { passwordMinLength: 8, moneyTwoFactor: false });
  });

  it('holds back money permissions of a live session once the rule applies to it', async () => {
    const a = await admin();
    const payers = await createRole(a, 'Payers', ['users.view', 'users.approve']);
    await createStaff(a, 'payer', [payers.id]);
    const payer = await Staff.signedIn('payer', 'Staff-Pass-2026');
    expect((await payer.call('adminme')).body.data.permissions).toContain('users.approve');
    await a.call('adminstaffsettings', { passwordMinLength: 8, moneyTwoFactor: true });
    const me = (await payer.call('adminme')).body.data;
    expect(me.twoFactorRequired).toBe(true);
    expect(me.permissions).toEqual(['users.view']);
    const moneyRoute = Object.values(routeCatalogue).find(
      (r) => r.access.kind === 'staff' && r.access.permission === 'users.approve',
    );
    if (moneyRoute)
      expect(
        (
          await payer.api.post(
            moneyRoute.path,
            {},
            { 'x-csrf-token': payer.api.cookies.get('admin_csrf') ?? '' },
          )
        ).body.errorCode,
      ).toBe(-1009);
    // Setting two-factor up from the top bar gives them back.
    const secret = (await payer.call('adminmytotpbegin')).body.data.secret;
    await payer.call('adminmytotpenable', { code: totp(secret) });
    expect((await payer.call('adminme')).body.data.permissions).toContain('users.approve');
    await setRules(a, { passwordMinLength: 8, moneyTwoFactor: false });
  });
});

describe('menus', () => {
  it('arranges sections, order and hidden entries for everyone, filtered by each staff member', async () => {
    const a = await admin();
    const initial = (await a.call('adminmenuget')).body.data;
    expect(initial.sections).toHaveLength(1);
    expect(initial.sections[0].keys).toEqual(initial.entries);
    expect(initial.entries).toContain('brokers');
    const rest = initial.entries.filter(
      (k: string) => !['users', 'kyc', 'roles', 'staff', 'menus', 'dashboard'].includes(k),
    );
    const saved = await a.call('adminmenusave', {
      sections: [
        { title: null, keys: ['dashboard'] },
        { title: 'Customers', keys: ['kyc', 'users'] },
        { title: 'Access', keys: ['staff', 'roles', 'menus'] },
        // Entries left out join the last section.
        { title: 'Other', keys: rest.slice(0, 2) },
      ],
      hidden: ['kyc'],
    });
    expect(saved.body.success).toBe(true);
    expect(saved.body.data.sections[1]).toEqual({ title: 'Customers', keys: ['kyc', 'users'] });
    expect(saved.body.data.sections[3].keys).toEqual(rest);
    expect(saved.body.data.hidden).toEqual(['kyc']);
    const menu = (await a.call('adminme')).body.data.menu;
    expect(menu[0]).toEqual({ title: null, keys: ['dashboard'] });
    expect(menu[1]).toEqual({ title: 'Customers', keys: ['users'] });
    expect(menu[2]).toEqual({ title: 'Access', keys: ['staff', 'roles', 'menus'] });
    // A staff member sees the arrangement without what they may not open; empty sections drop out.
    const readers = await createRole(a, 'Menu readers', ['users.view', 'roles.view']);
    await createStaff(a, 'menureader', [readers.id]);
    const reader = await Staff.signedIn('menureader', 'Staff-Pass-2026');
    expect((await reader.call('adminme')).body.data.menu).toEqual([
      { title: 'Customers', keys: ['users'] },
      { title: 'Access', keys: ['roles'] },
    ]);
    expect(
      (await a.call('adminmenusave', { sections: [{ title: null, keys: ['nope'] }], hidden: [] })).body
        .errorCode,
    ).toBe(-6013);
    expect(
      (await a.call('adminmenusave', { sections: [{ title: null, keys: ['users', 'users'] }], hidden: [] }))
        .body.errorCode,
    ).toBe(-6013);
    expect(
      (await a.call('adminmenusave', { sections: [{ title: null, keys: [] }], hidden: ['menus'] })).body
        .errorCode,
    ).toBe(-6013);
    expect((await auditActions('access.menu.save')).length).toBe(1);
    // Back to the product's order.
    await a.call('adminmenusave', { sections: [{ title: null, keys: initial.entries }], hidden: [] });
  });
});

describe('brokers', () => {
  it('creates a broker with host names, instruments, default group and its first administrator', async () => {
    const a = await admin();
    const created = await a.call('adminbrokercreate', {
      name: 'Harbor FX',
      slug: 'harbor-fx',
      hosts: ['Harbor.example', 'www.harbor.example'],
      adminUsername: 'harboradmin',
      adminPassword: 'Harbor-Admin-2026',
    });
    expect(created.body.success, JSON.stringify(created.body)).toBe(true);
    expect(created.body.data).toMatchObject({
      name: 'Harbor FX',
      slug: 'harbor-fx',
      hosts: ['harbor.example', 'www.harbor.example'],
      status: 'active',
      isDefault: false,
      staffCount: 1,
      customerCount: 0,
    });
    const id = created.body.data.id as string;
    const instruments = await db()
      .selectFrom('instruments')
      .select('symbol')
      .where('tenant_id', '=', id)
      .execute();
    expect(instruments.map((i) => i.symbol)).toContain('BTCUSDT');
    const group = await db()
      .selectFrom('account_groups')
      .select('is_default')
      .where('tenant_id', '=', id)
      .execute();
    expect(group).toEqual([{ is_default: true }]);
    const roles = await db()
      .selectFrom('roles')
      .select(['name', 'is_system'])
      .where('tenant_id', '=', id)
      .execute();
    expect(roles).toEqual([{ name: 'Administrator', is_system: true }]);
    const list = (await a.call('adminbrokerlist')).body.data.brokers;
    expect(list[0].isDefault).toBe(true);
    expect(list.find((b: { id: string }) => b.id === id).hosts).toEqual([
      'harbor.example',
      'www.harbor.example',
    ]);
    expect((await auditActions('access.broker.create')).some((e) => e.target === id)).toBe(true);
  });

  it('refuses a taken short name or host, a bad short name, the own host and a weak password', async () => {
    const a = await admin();
    const base = { name: 'X', hosts: ['x.example'], adminUsername: 'xadmin', adminPassword: 'Xx-Admin-2026' };
    expect((await a.call('adminbrokercreate', { ...base, slug: 'harbor-fx' })).body.errorCode).toBe(-6016);
    expect((await a.call('adminbrokercreate', { ...base, slug: 'default' })).body.errorCode).toBe(-6016);
    expect(
      (await a.call('adminbrokercreate', { ...base, slug: 'x', hosts: ['harbor.example'] })).body.errorCode,
    ).toBe(-6016);
    expect((await a.call('adminbrokercreate', { ...base, slug: 'Bad_Slug' })).body.errorCode).toBe(-9001);
    expect((await a.call('adminbrokercreate', { ...base, slug: 'x', hosts: [] })).body.errorCode).toBe(-9001);
    expect(
      (await a.call('adminbrokercreate', { ...base, slug: 'x', hosts: ['127.0.0.1'] })).body.errorCode,
    ).toBe(-9001);
    expect(
      (await a.call('adminbrokercreate', { ...base, slug: 'x', adminPassword: '12345' })).body.errorCode,
    ).toBe(-6006);
    expect(
      await db().selectFrom('tenants').select('id').where('slug', '=', 'x').executeTakeFirst(),
    ).toBeUndefined();
  });

  it("gives the new broker's administrator every broker permission but no platform one, behind two-factor", async () => {
    const harbor = new Staff('harbor-fx');
    const refused = await harbor.login('harboradmin', 'Harbor-Admin-2026');
    // New brokers require two-factor for money permissions, which their administrator holds.
    expect(refused.body.errorCode).toBe(-6007);
    const secret = (await harbor.call('adminenrolstart')).body.data.secret;
    const signedIn = await harbor.call('adminenrolconfirm', { code: totp(secret, -1) });
    expect(signedIn.body.data.staff.permissions.sort()).toEqual([...BROKER_PERMISSIONS].sort());
    expect(signedIn.body.data.staff.menu.flatMap((s: { keys: string[] }) => s.keys)).not.toContain('brokers');
    const roles = (await harbor.call('adminrolelist')).body.data;
    expect(roles.grantable.sort()).toEqual([...BROKER_PERMISSIONS].sort());
    const platformOnly = await harbor.call('adminrolesave', {
      name: 'Brokers',
      parentId: null,
      permissions: ['brokers.view'],
    });
    expect(platformOnly.body.errorCode).toBe(-6004);
    expect((await harbor.call('adminbrokerlist')).body.errorCode).toBe(-1009);
    expect((await harbor.call('adminmenuget')).body.data.entries).not.toContain('brokers');
  });

  it('renames a broker, replaces its hosts, suspends it (ending its sessions) and reactivates it', async () => {
    const a = await admin();
    const harborId = (
      await db().selectFrom('tenants').select('id').where('slug', '=', 'harbor-fx').executeTakeFirstOrThrow()
    ).id;
    const harbor = new Staff('harbor-fx');
    const secret = (
      await db()
        .selectFrom('staff')
        .select('totp_secret')
        .where('username', '=', 'harboradmin')
        .executeTakeFirstOrThrow()
    ).totp_secret as string;
    expect((await harbor.login('harboradmin', 'Harbor-Admin-2026', totp(secret))).body.success).toBe(true);
    const updated = await a.call('adminbrokerupdate', {
      id: harborId,
      name: 'Harbor Markets',
      hosts: ['harbor.example'],
    });
    expect(updated.body.data).toMatchObject({ name: 'Harbor Markets', hosts: ['harbor.example'] });
    const suspended = await a.call('adminbrokerstatus', { id: harborId, status: 'suspended' });
    expect(suspended.body.data.status).toBe('suspended');
    expect((await harbor.call('adminme')).body.errorCode).toBe(-1001);
    await a.call('adminbrokerstatus', { id: harborId, status: 'active' });
    const defaultId = (
      await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
    ).id;
    expect((await a.call('adminbrokerstatus', { id: defaultId, status: 'suspended' })).body.errorCode).toBe(
      -6008,
    );
    expect((await auditActions('access.broker.suspend')).some((e) => e.target === harborId)).toBe(true);
  });
});
