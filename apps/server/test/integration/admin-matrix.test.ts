import { request } from 'node:http';
import { ALL_PERMISSIONS } from '@broker/contracts/permissions';
import { routeCatalogue, routeList, type TRouteDefinition, type TRouteName } from '@broker/contracts/routes';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  // Each staff client comes through the test's proxy with an address of its own.
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => server.close());

const totp = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

interface TAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the matrix reads answers of every route
  body: { success: boolean; errorCode: number; message: string; data: any };
}

let browsers = 0;

/**
 * One back-office browser over plain HTTP, so it can name the site it talks to in the Host header
 * (fetch cannot); it keeps cookies, sends the CSRF token and has its own address (the sign-in rate
 * limit counts per address). `hostspecific` names the broker in the body instead.
 */
class Browser {
  readonly cookies = new Map<string, string>();
  readonly ip = `10.2.${Math.floor(++browsers / 250)}.${(browsers % 250) + 1}`;
  constructor(readonly site: { host?: string; hostspecific?: string } = {}) {}

  post(path: string, input: Record<string, unknown> = {}): Promise<TAnswer> {
    const url = new URL(server.baseUrl);
    const body = JSON.stringify(
      this.site.hostspecific ? { ...input, Hostspecific: this.site.hostspecific } : input,
    );
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          headers: {
            host: this.site.host ?? url.host,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            'x-csrf-token': this.cookies.get('admin_csrf') ?? '',
            'x-forwarded-for': this.ip,
          },
        },
        (res) => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';');
            const [name = '', ...rest] = pair.split('=');
            const value = rest.join('=');
            if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
            else this.cookies.set(name, value);
          }
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  call(name: TRouteName, input: Record<string, unknown> = {}) {
    return this.post(routeCatalogue[name].path, input);
  }

  async signIn(username: string, password: string) {
    const answer = await this.call('adminlogin', { username, password });
    expect(answer.body.success, `${username}: ${JSON.stringify(answer.body)}`).toBe(true);
    return this;
  }
}

const staffRoutes = routeList.filter(
  (r): r is TRouteDefinition & { access: { kind: 'staff'; permission: string | null } } =>
    r.access.kind === 'staff',
);
const permissionOf = (route: (typeof staffRoutes)[number]) => route.access.permission;

async function hire(admin: Browser, username: string, permissions: string[]) {
  const role = await admin.call('adminrolesave', { name: `Role ${username}`, parentId: null, permissions });
  expect(role.body.success, JSON.stringify(role.body)).toBe(true);
  const staff = await admin.call('adminstaffcreate', {
    username,
    displayName: username,
    password: 'Matrix-Pass-2026',
    roleIds: [role.body.data.id],
  });
  expect(staff.body.success, JSON.stringify(staff.body)).toBe(true);
  return new Browser().signIn(username, 'Matrix-Pass-2026');
}

describe('permission matrix over the whole route catalogue', () => {
  it('covers the back office: every staff route is under /api/v1/admin/ and names a known permission or none', () => {
    expect(staffRoutes.length).toBeGreaterThan(20);
    for (const route of staffRoutes) {
      expect(route.path.startsWith('/api/v1/admin/'), route.name).toBe(true);
      const permission = permissionOf(route);
      if (permission !== null) expect(ALL_PERMISSIONS, route.name).toContain(permission);
    }
  });

  it('refuses every guarded route (403, -1009) to staff whose role has no permissions', async () => {
    const admin = await new Browser().signIn('admin', TEST_ADMIN_PASSWORD);
    const nobody = await hire(admin, 'nobody', []);
    expect((await nobody.call('adminme')).body.data.permissions).toEqual([]);
    for (const route of staffRoutes) {
      const answer = await nobody.post(route.path, {});
      if (permissionOf(route) === null) {
        expect([-1009, -1001], `${route.name} is open to every signed-in staff member`).not.toContain(
          answer.body.errorCode,
        );
      } else {
        expect(answer.status, route.name).toBe(403);
        expect(answer.body.errorCode, route.name).toBe(-1009);
      }
    }
    // Without a session at all, every staff route answers that a sign-in is needed.
    const anonymous = new Browser();
    for (const route of staffRoutes)
      expect((await anonymous.post(route.path, {})).body.errorCode, route.name).toBe(-1001);
  });

  it('lets staff holding exactly one permission through its routes and nowhere else', async () => {
    const admin = await new Browser().signIn('admin', TEST_ADMIN_PASSWORD);
    const permissions = [...new Set(staffRoutes.map(permissionOf).filter((p): p is string => p !== null))];
    expect(permissions).toContain('roles.edit');
    for (const [index, permission] of permissions.entries()) {
      const member = await hire(admin, `single${index}`, [permission]);
      const held = (await member.call('adminme')).body.data.permissions as string[];
      expect(held).toEqual([permission]);
      for (const route of staffRoutes.filter((r) => permissionOf(r) === permission)) {
        const answer = await member.post(route.path, {});
        expect(answer.body.errorCode, `${permission} -> ${route.name}`).not.toBe(-1009);
        expect(answer.body.errorCode, `${permission} -> ${route.name}`).not.toBe(-1001);
      }
      const elsewhere = staffRoutes.find((r) => permissionOf(r) !== null && permissionOf(r) !== permission);
      if (!elsewhere) continue;
      const refused = await member.post(elsewhere.path, {});
      expect(refused.status, `${permission} -> ${elsewhere.name}`).toBe(403);
      expect(refused.body.errorCode).toBe(-1009);
    }
  });
});

describe("tenant isolation: one broker's staff never reach another broker's data", () => {
  let platform: Browser;
  let isolated: Browser;
  let platformRoleId: string;
  let platformStaffId: string;

  it('creates a second broker and signs its administrator in on its own host name', async () => {
    platform = await new Browser().signIn('admin', TEST_ADMIN_PASSWORD);
    const created = await platform.call('adminbrokercreate', {
      name: 'Isolated Broker',
      slug: 'isolated',
      hosts: ['isolated.example'],
      adminUsername: 'isoadmin',
      adminPassword: 'Isolated-Admin-2026',
    });
    expect(created.body.success, JSON.stringify(created.body)).toBe(true);
    isolated = new Browser({ host: 'isolated.example:8443' });
    // The new broker requires two-factor for its administrator's money permissions.
    expect(
      (await isolated.call('adminlogin', { username: 'isoadmin', password: 'Isolated-Admin-2026' })).body
        .errorCode,
    ).toBe(-6007);
    const secret = (await isolated.call('adminenrolstart')).body.data.secret;
    const signedIn = await isolated.call('adminenrolconfirm', { code: totp(secret) });
    expect(signedIn.body.success).toBe(true);
    expect(signedIn.body.data.staff.tenantId).toBe(created.body.data.id);
    // The platform's administrator is not known on the other broker's host, nor the other way round.
    expect(
      (
        await new Browser({ host: 'isolated.example' }).call('adminlogin', {
          username: 'admin',
          password: TEST_ADMIN_PASSWORD,
        })
      ).body.errorCode,
    ).toBe(-1002);
    expect(
      (await new Browser().call('adminlogin', { username: 'isoadmin', password: 'Isolated-Admin-2026' })).body
        .errorCode,
    ).toBe(-1002);

    const role = await platform.call('adminrolesave', {
      name: 'Platform desk',
      parentId: null,
      permissions: ['users.view'],
    });
    platformRoleId = role.body.data.id;
    const staff = await platform.call('adminstaffcreate', {
      username: 'platformdesk',
      displayName: 'Platform desk',
      password: 'Platform-Desk-2026',
      roleIds: [platformRoleId],
    });
    platformStaffId = staff.body.data.id;
  });

  it("lists only the own broker's roles and staff", async () => {
    const roles = (await isolated.call('adminrolelist')).body.data.roles as { id: string; name: string }[];
    expect(roles.map((r) => r.name)).toEqual(['Administrator']);
    expect(roles.map((r) => r.id)).not.toContain(platformRoleId);
    const staff = (await isolated.call('adminstafflist')).body.data.staff as {
      id: string;
      username: string;
    }[];
    expect(staff.map((s) => s.username)).toEqual(['isoadmin']);
    const platformStaff = (await platform.call('adminstafflist')).body.data.staff as { username: string }[];
    expect(platformStaff.map((s) => s.username)).not.toContain('isoadmin');
    const platformRoles = (await platform.call('adminrolelist')).body.data.roles as { id: string }[];
    expect(platformRoles.map((r) => r.id)).not.toContain(roles[0]?.id);
    // The dashboard's head counts: a broker counts itself, the platform every broker.
    expect((await isolated.call('adminoverview')).body.data).toMatchObject({ tenants: 1, staff: 1 });
    expect((await platform.call('adminoverview')).body.data.tenants).toBeGreaterThanOrEqual(2);
  });

  it("answers not found to every change of another broker's role or staff member by id", async () => {
    const byId = [
      ['adminrolesave', { id: platformRoleId, name: 'Taken over', parentId: null, permissions: [] }],
      ['adminroledelete', { id: platformRoleId }],
      ['adminrolesave', { name: 'Child of foreign', parentId: platformRoleId, permissions: [] }],
      ['adminstaffupdate', { id: platformStaffId, displayName: 'Taken over', roleIds: [] }],
      ['adminstaffstatus', { id: platformStaffId, status: 'disabled' }],
      ['adminstaffunlock', { id: platformStaffId }],
      ['adminstaffpassword', { id: platformStaffId, password: 'Taken-Over-2026' }],
      ['adminstafftotpreset', { id: platformStaffId }],
      [
        'adminstaffcreate',
        { username: 'intruder', displayName: 'x', password: 'Intruder-2026', roleIds: [platformRoleId] },
      ],
    ] as const;
    for (const [name, input] of byId) {
      const answer = await isolated.call(name, input);
      expect(answer.body.errorCode, name).toBe(-6009);
      expect(answer.status, name).toBe(404);
    }
    // Nothing changed on the platform broker.
    const desk = (await platform.call('adminstafflist')).body.data.staff.find(
      (s: { id: string }) => s.id === platformStaffId,
    );
    expect(desk).toMatchObject({
      displayName: 'Platform desk',
      status: 'active',
      roles: [{ id: platformRoleId }],
    });
    await new Browser().signIn('platformdesk', 'Platform-Desk-2026');
    // Broker management stays with the platform.
    expect((await isolated.call('adminbrokerlist')).body.errorCode).toBe(-1009);
  });

  it("does not accept one broker's staff session on another broker's host", async () => {
    expect((await isolated.call('adminme')).body.data.username).toBe('isoadmin');
    const platformCookies = new Browser({ host: 'isolated.example' });
    for (const [k, v] of platform.cookies) platformCookies.cookies.set(k, v);
    expect((await platformCookies.call('adminme')).body.errorCode).toBe(-1001);
    expect((await platformCookies.call('adminrolelist')).body.errorCode).toBe(-1001);
    const bySlug = new Browser({ hostspecific: 'isolated' });
    for (const [k, v] of platform.cookies) bySlug.cookies.set(k, v);
    expect((await bySlug.call('adminstafflist')).body.errorCode).toBe(-1001);
    const isolatedOnPlatform = new Browser();
    for (const [k, v] of isolated.cookies) isolatedOnPlatform.cookies.set(k, v);
    expect((await isolatedOnPlatform.call('adminme')).body.errorCode).toBe(-1001);
    expect((await isolatedOnPlatform.call('adminstafflist')).body.errorCode).toBe(-1001);
  });
});
