import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signIn(password = 'Demo2026!', userAgent = 'Mozilla/5.0 (Windows NT 10.0) Chrome/140.0') {
  const api = new ApiClient(server.baseUrl);
  const answer = await api.post(
    '/api/v1/usercenter/login',
    { email: 'demo@example.com', password },
    { 'user-agent': userAgent },
  );
  expect(answer.body.success).toBe(true);
  return { api, csrf: { 'x-csrf-token': api.cookies.get('csrf') as string } };
}

describe('sessions, password change and settings', () => {
  it('lists sessions with their device, signs out one or all others', async () => {
    const a = await signIn();
    const b = await signIn('Demo2026!', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1');
    const c = await signIn();
    const list = (await a.api.post('/api/v1/usercenter/sessionlist')).body.data as {
      id: string;
      device: string;
      current: boolean;
    }[];
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.map((s) => s.device)).toEqual(
      expect.arrayContaining(['Chrome on Windows', 'Safari on iPhone']),
    );
    const bId = (
      (await b.api.post('/api/v1/usercenter/sessionlist')).body.data as { id: string; current: boolean }[]
    ).find((s) => s.current)!.id;
    expect(
      (await a.api.post('/api/v1/usercenter/sessionrevoke', { id: bId }, a.csrf)).body.data.revoked,
    ).toBe(1);
    expect((await b.api.post('/api/v1/usercenter/userinfo')).body.errorCode).toBe(-1001);
    expect((await c.api.post('/api/v1/usercenter/userinfo')).body.success).toBe(true);
    expect(
      (await a.api.post('/api/v1/usercenter/sessionrevoke', { allOthers: true }, a.csrf)).body.data.revoked,
    ).toBeGreaterThanOrEqual(1);
    expect((await c.api.post('/api/v1/usercenter/userinfo')).body.errorCode).toBe(-1001);
    expect((await a.api.post('/api/v1/usercenter/userinfo')).body.success).toBe(true);
  });

  it('keeps settings with defaults and sets the theme and kline colour cookies', async () => {
    const { api, csrf } = await signIn();
    const defaults = (await api.post('/api/v1/usercenter/settings')).body.data;
    // The demo trader's phone is from the US: rising is green (1).
    expect(defaults).toEqual({
      notification: {
        createOrder: true,
        closeOrder: true,
        pendingOrder: true,
        ringsOpen: false,
        alertPush: true,
        alertEmail: true,
      },
      klineColor: 1,
      display: { floatLayer: true, currentOrder: true, positionCost: true, historyOrder: true },
      theme: 'navy',
    });
    const saved = await api.post(
      '/api/v1/usercenter/savesettings',
      { theme: 'white', klineColor: 0, notification: { ringsOpen: true } },
      csrf,
    );
    expect(saved.body.data).toMatchObject({
      theme: 'white',
      klineColor: 0,
      notification: { ringsOpen: true, createOrder: true },
    });
    expect(api.cookies.get('theme')).toBe('white');
    expect(api.cookies.get('klineColor')).toBe('0');
    expect((await api.post('/api/v1/usercenter/savesettings', { theme: 'pink' }, csrf)).body.errorCode).toBe(
      -9001,
    );
    expect((await api.post('/api/v1/usercenter/settings')).body.data.theme).toBe('white');

    // Switches flipped at once (three quick clicks) all survive: no patch overwrites another.
    await Promise.all([
      api.post('/api/v1/usercenter/savesettings', { notification: { createOrder: false } }, csrf),
      api.post('/api/v1/usercenter/savesettings', { notification: { closeOrder: false } }, csrf),
      api.post('/api/v1/usercenter/savesettings', { display: { historyOrder: false } }, csrf),
      api.post('/api/v1/usercenter/savesettings', { display: { floatLayer: false } }, csrf),
    ]);
    const merged = (await api.post('/api/v1/usercenter/settings')).body.data;
    expect(merged.notification).toMatchObject({ createOrder: false, closeOrder: false, ringsOpen: true });
    expect(merged.display).toMatchObject({ historyOrder: false, floatLayer: false, currentOrder: true });
  });

  it('changes the password only with the old one, to a different one, and ends every session', async () => {
    const { api, csrf } = await signIn();
    const other = await signIn();
    const wrongOld = await api.post(
      '/api/v1/usercenter/changepassword',
      { oldPassword: 'nope-nope', password: 'Demo2027!', confirmPassword: 'Demo2027!' },
      { ...csrf, LanguageCode: 'en' },
    );
    expect(wrongOld.body.fields).toEqual({ oldPassword: 'The current password is wrong.' });
    const same = await api.post(
      '/api/v1/usercenter/changepassword',
      { oldPassword: 'Demo2026!', password: 'Demo2026!', confirmPassword: 'Demo2026!' },
      csrf,
    );
    expect(Object.keys(same.body.fields ?? {})).toEqual(['password']);
    const changed = await api.post(
      '/api/v1/usercenter/changepassword',
      { oldPassword: 'Demo2026!', password: 'Demo2027!', confirmPassword: 'Demo2027!' },
      csrf,
    );
    expect(changed.body.success).toBe(true);
    expect((await api.post('/api/v1/usercenter/userinfo')).body.errorCode).toBe(-1001);
    expect((await other.api.post('/api/v1/usercenter/userinfo')).body.errorCode).toBe(-1001);
    await signIn('Demo2027!');
  });
});
