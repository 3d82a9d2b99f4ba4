import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The code of the 30-second step `steps` away from now (the server accepts one step either side). */
const code = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
const login = (body: Record<string, unknown>) =>
  new ApiClient(server.baseUrl).post('/api/v1/usercenter/login', {
    email: 'demo@example.com',
    password: 'Demo2026!',
    ...body,
  });

describe('two-factor sign-in for traders', () => {
  it('enrols with a code from the app, then asks for it at every sign-in', async () => {
    const api = new ApiClient(server.baseUrl);
    await api.post('/api/v1/usercenter/login', { email: 'demo@example.com', password: 'Demo2026!' });
    const csrf = { 'x-csrf-token': api.cookies.get('csrf') as string };
    const setup = await api.post('/api/v1/usercenter/totpsetup', {}, csrf);
    const secret = setup.body.data.secret as string;
    expect(setup.body.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(
      (
        await api.post(
          '/api/v1/usercenter/totpenable',
          { code: '000000' === code(secret) ? '111111' : '000000' },
          csrf,
        )
      ).body.errorCode,
    ).toBe(-1017);
    // Codes are single use: enrol with the previous step's code, sign in with this step's, turn off
    // with the next step's.
    expect(
      (await api.post('/api/v1/usercenter/totpenable', { code: code(secret, -1) }, csrf)).body.success,
    ).toBe(true);
    expect((await api.post('/api/v1/usercenter/userinfo')).body.data.twoFactor).toBe(true);

    const withoutCode = await login({});
    expect(withoutCode.body.errorCode).toBe(-1016);
    expect(withoutCode.headers.getSetCookie().some((c) => c.startsWith('token='))).toBe(false);
    const wrongCode = await login({ otp: code(secret) === '123456' ? '654321' : '123456' });
    expect(wrongCode.body.errorCode).toBe(-1017);
    const wrongPasswordRightCode = await login({ password: 'not-it', otp: code(secret) });
    expect(wrongPasswordRightCode.body.errorCode).toBe(-1002);
    const ok = await login({ otp: code(secret) });
    expect(ok.body.success).toBe(true);
    // The same code (or an older one) does not sign in a second time within its window.
    expect((await login({ otp: code(secret) })).body.errorCode).toBe(-1017);
    expect((await login({ otp: code(secret, -1) })).body.errorCode).toBe(-1017);

    expect(
      (await api.post('/api/v1/usercenter/totpdisable', { code: code(secret, 1) }, csrf)).body.success,
    ).toBe(true);
    expect((await login({})).body.success).toBe(true);
  });
});
