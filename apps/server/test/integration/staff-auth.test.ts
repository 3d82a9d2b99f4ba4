import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { ApiClient, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signedIn() {
  const api = new ApiClient(server.baseUrl);
  const answer = await api.post('/api/v1/admin/auth/login', {
    username: 'admin',
    password: TEST_ADMIN_PASSWORD,
  });
  expect(answer.body.success).toBe(true);
  return { api, answer };
}

describe('back-office sign-in', () => {
  it('signs the seeded administrator in with an HttpOnly SameSite session and every permission', async () => {
    const { api, answer } = await signedIn();
    expect(answer.body.data.staff.username).toBe('admin');
    expect(answer.body.data.staff.permissions).toContain('statistics.view');
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('admin_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const token = cookie.split(';')[0]!.split('=')[1]!;
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    const me = await api.post('/api/v1/admin/auth/me');
    expect(me.body.data.username).toBe('admin');
    const overview = await api.post('/api/v1/admin/statistics/overview');
    expect(overview.body.data.staff).toBe(1);
    // The token is stored hashed, never as is.
    const rows = await server.app.services.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it('refuses a state change without the CSRF token or from another origin', async () => {
    const { api, answer } = await signedIn();
    const missing = await api.post('/api/v1/admin/auth/logout');
    expect(missing.body.errorCode).toBe(-1010);
    expect(missing.status).toBe(403);
    const foreign = await api.post(
      '/api/v1/admin/auth/logout',
      {},
      { 'x-csrf-token': answer.body.data.csrfToken, origin: 'https://evil.example' },
    );
    expect(foreign.body.errorCode).toBe(-1010);
    const stillIn = await api.post('/api/v1/admin/auth/me');
    expect(stillIn.body.success).toBe(true);
    const ok = await api.post(
      '/api/v1/admin/auth/logout',
      {},
      { 'x-csrf-token': answer.body.data.csrfToken },
    );
    expect(ok.body.success).toBe(true);
    const after = await api.post('/api/v1/admin/auth/me');
    expect(after.body.errorCode).toBe(-1001);
  });

  it('answers a wrong password and an unknown user the same way, and locks out after five failures', async () => {
    const api = new ApiClient(server.baseUrl);
    await server.app.services.database.db
      .insertInto('staff')
      .values({
        id: 'victim',
        tenant_id: (
          await server.app.services.database.db
            .selectFrom('tenants')
            .select('id')
            .where('is_default', '=', true)
            .executeTakeFirstOrThrow()
        ).id,
        username: 'victim',
        password_hash: (
          await server.app.services.database.db
            .selectFrom('staff')
            .select('password_hash')
            .where('username', '=', 'admin')
            .executeTakeFirstOrThrow()
        ).password_hash,
        display_name: 'Victim',
        locked_until: null,
      })
      .execute();
    const unknown = await api.post(
      '/api/v1/admin/auth/login',
      { username: 'nobody', password: 'wrong-password' },
      { LanguageCode: 'en' },
    );
    const wrong = await api.post(
      '/api/v1/admin/auth/login',
      { username: 'victim', password: 'wrong-password' },
      { LanguageCode: 'en' },
    );
    expect(unknown.body.errorCode).toBe(-1002);
    expect(wrong.body.errorCode).toBe(-1002);
    expect(wrong.body.message).toBe(unknown.body.message);
    for (let i = 0; i < 3; i++)
      await api.post('/api/v1/admin/auth/login', { username: 'victim', password: 'wrong-password' });
    const locked = await api.post(
      '/api/v1/admin/auth/login',
      { username: 'victim', password: 'wrong-password' },
      { LanguageCode: 'en' },
    );
    expect(locked.body.errorCode).toBe(-1008);
    expect(locked.body.message).toContain('15 minutes');
    const evenRight = await api.post('/api/v1/admin/auth/login', {
      username: 'victim',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(evenRight.body.errorCode).toBe(-1008);
    const audit = await server.app.services.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('action', '=', 'staff.signin.failed')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(5);
  });

  it('keeps a session to its own broker', async () => {
    const { api } = await signedIn();
    await createTenant({ db: server.app.services.database.db, slug: 'other', name: 'Other' });
    const elsewhere = await api.post('/api/v1/admin/auth/me', { Hostspecific: 'other' });
    expect(elsewhere.body.errorCode).toBe(-1001);
  });
});

describe('trader sign-in', () => {
  it('signs the demo trader in and sets the token, CSRF and user-info cookies', async () => {
    const api = new ApiClient(server.baseUrl);
    const answer = await api.post('/api/v1/usercenter/login', {
      email: 'demo@example.com',
      password: 'Demo2026!',
    });
    expect(answer.body.success).toBe(true);
    expect(api.cookies.has('token')).toBe(true);
    expect(JSON.parse(decodeURIComponent(api.cookies.get('userInfo')!))).toEqual({ name: 'Demo Trader' });
    const info = await api.post('/api/v1/usercenter/userinfo');
    expect(info.body.data.email).toBe('demo@example.com');
    const out = await api.post('/api/v1/usercenter/logout', {}, { 'x-csrf-token': api.cookies.get('csrf')! });
    expect(out.body.success).toBe(true);
    expect(api.cookies.has('token')).toBe(false);
    expect(api.cookies.has('userInfo')).toBe(false);
    const after = await api.post('/api/v1/usercenter/userinfo');
    expect(after.body.errorCode).toBe(-1001);
  });

  it('signs in by phone number, and rejects a malformed number with "Phone format wrong"', async () => {
    const api = new ApiClient(server.baseUrl);
    const ok = await api.post('/api/v1/usercenter/login', {
      phone: { twoCharCode: 'US', number: '(202) 555-0123' },
      password: 'Demo2026!',
    });
    expect(ok.body.success).toBe(true);
    expect(ok.body.data.user.name).toBe('Demo Trader');
    const bad = await new ApiClient(server.baseUrl).post(
      '/api/v1/usercenter/login',
      { phone: { twoCharCode: 'US', number: '12' }, password: 'Demo2026!' },
      { LanguageCode: 'en' },
    );
    expect(bad.body.errorCode).toBe(-1005);
    expect(bad.body.message).toBe('Phone number format is wrong.');
    const otherCountry = await new ApiClient(server.baseUrl).post('/api/v1/usercenter/login', {
      phone: { twoCharCode: 'GB', number: '2025550123' },
      password: 'Demo2026!',
    });
    expect([-1002, -1005]).toContain(otherCountry.body.errorCode);
  });
});
