import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from '../../src/modules/identity/captcha';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signIn() {
  const api = new ApiClient(server.baseUrl);
  api.cookies.set('lang', 'en');
  const answer = await api.post('/api/v1/usercenter/login', {
    email: 'demo@example.com',
    password: 'Demo2026!',
  });
  expect(answer.body.success).toBe(true);
  return { api, csrf: { 'x-csrf-token': api.cookies.get('csrf') as string } };
}

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
const MP4 = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0]);
const GIF = new TextEncoder().encode('GIF89a-not-an-accepted-image');

describe('profile, avatar, contacts, feedback, push and hand-off', () => {
  it('answers the Simple user with masked email and phone and the phone area', async () => {
    const { api } = await signIn();
    const profile = (await api.post('/api/v1/usercenter/profile')).body.data;
    expect(profile).toMatchObject({
      nick: 'Demo Trader',
      email: 'de**@example.com',
      sex: 0,
      avatar: null,
      areaCode: '001',
      wechat: '',
    });
    // +12025550123: the first 3 characters, stars, then from the 9th on.
    expect(profile.phone).toBe('+12*****0123');
    expect(profile.areaFlag).toMatch(/us\.svg$/);
  });

  it('saves nick, sex, profile text and contact links, and refuses bad values without changing anything', async () => {
    const { api, csrf } = await signIn();
    const saved = await api.post(
      '/api/v1/usercenter/saveprofile',
      { nick: 'Marta', sex: 2, profile: 'Swing trader, EURUSD and gold.', twitter: '@marta', qq: '12345' },
      csrf,
    );
    expect(saved.body.data).toMatchObject({
      nick: 'Marta',
      sex: 2,
      twitter: '@marta',
      qq: '12345',
      wechat: '',
    });
    const bad = await api.post('/api/v1/usercenter/saveprofile', { nick: 'x'.repeat(25), sex: 1 }, csrf);
    expect(bad.body.errorCode).toBe(-9001);
    expect(bad.body.fields).toEqual({ nick: 'The nickname can have at most 24 characters.' });
    expect((await api.post('/api/v1/usercenter/profile')).body.data).toMatchObject({ nick: 'Marta', sex: 2 });
    // The header's display name follows the nick.
    expect((await api.post('/api/v1/usercenter/userinfo')).body.data.name).toBe('Marta');
    await api.post('/api/v1/usercenter/saveprofile', { nick: 'Demo Trader', sex: 0, profile: '' }, csrf);
  });

  it('takes JPG and PNG avatars by content, refuses other content whatever its name, and enforces the size limit', async () => {
    const { api, csrf } = await signIn();
    const png = await api.upload('/api/v1/account/golbal/upload?purpose=avatar', PNG, {
      'content-type': 'image/gif',
      'x-file-name': 'me.gif',
    });
    expect(png.body.data).toMatchObject({ mime: 'image/png', size: PNG.length });
    const jpeg = await api.upload('/api/v1/account/golbal/upload?purpose=avatar', JPEG);
    expect(jpeg.body.data.mime).toBe('image/jpeg');
    const gif = await api.upload('/api/v1/account/golbal/upload?purpose=avatar', GIF, {
      'content-type': 'image/png',
    });
    expect(gif.status).toBe(415);
    expect(gif.body.errorCode).toBe(-9007);
    const video = await api.upload('/api/v1/account/golbal/upload?purpose=avatar', MP4);
    expect(video.body.errorCode).toBe(-9007);
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(PNG);
    const tooBig = await api.upload('/api/v1/account/golbal/upload?purpose=avatar', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errorCode).toBe(-9006);
    // Without the CSRF token, or without a session, nothing is stored.
    const forged = await api.upload('/api/v1/account/golbal/upload?purpose=avatar', PNG, {
      'x-csrf-token': 'nope',
    });
    expect(forged.body.errorCode).toBe(-1010);
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.upload('/api/v1/account/golbal/upload?purpose=avatar', PNG)).body.errorCode).toBe(
      -1001,
    );

    const saved = await api.post('/api/v1/usercenter/saveprofile', { avatarFileId: png.body.data.id }, csrf);
    expect(saved.body.data.avatar).toBe(`/files/avatar/${png.body.data.id}`);
    const served = await api.get(saved.body.data.avatar);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // Another trader's file cannot become my avatar.
    const other = await registerTrader('avatar.thief@example.com');
    const stolen = await other.api.post(
      '/api/v1/usercenter/saveprofile',
      { avatarFileId: jpeg.body.data.id },
      other.csrf,
    );
    expect(stolen.body.fields).toEqual({ attachments: 'An attached file was not found. Upload it again.' });
  });

  it('stores feedback with a contact method and attachments once per idempotency key', async () => {
    const { api, csrf } = await signIn();
    const noContact = await api.post(
      '/api/v1/usercenter/feedback',
      { text: 'The chart is great', contacts: { email: '' }, idempotencyKey: 'fb-00000001' },
      csrf,
    );
    expect(noContact.body.fields).toEqual({ contacts: 'Give at least one way to contact you.' });
    const tooLong = await api.post(
      '/api/v1/usercenter/feedback',
      { text: 'x'.repeat(501), contacts: { wechat: 'me' }, idempotencyKey: 'fb-00000002' },
      csrf,
    );
    expect(tooLong.body.fields).toEqual({ text: 'Feedback can have at most 500 characters.' });
    const image = await api.upload('/api/v1/account/golbal/upload?purpose=feedback', JPEG);
    const video = await api.upload('/api/v1/account/golbal/upload?purpose=feedback', MP4);
    expect(video.body.data.mime).toBe('video/mp4');
    const body = {
      text: 'x'.repeat(500),
      contacts: { email: 'demo@example.com' },
      attachments: [image.body.data.id, video.body.data.id],
      idempotencyKey: 'fb-00000003',
    };
    const first = await api.post('/api/v1/usercenter/feedback', body, csrf);
    const again = await api.post('/api/v1/usercenter/feedback', body, csrf);
    expect(first.body.success).toBe(true);
    expect(again.body.data.id).toBe(first.body.data.id);
    const rows = await server.app.services.database.db.selectFrom('feedback').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body).toHaveLength(500);
    const empty = await api.post(
      '/api/v1/usercenter/feedback',
      { text: '', contacts: { telegram: '@demo' }, idempotencyKey: 'fb-00000004' },
      csrf,
    );
    expect(empty.body.success).toBe(true);
  });

  it('keeps Web Push subscriptions: insert (once per endpoint), get, delete', async () => {
    const { api, csrf } = await signIn();
    const key = (await api.post('/api/v1/usercenter/pushkey')).body.data.publicKey as string;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const subscription = {
      endpoint: 'https://push.example.net/send/abc123',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'c2VjcmV0LWF1dGg' },
    };
    const a = await api.post('/api/v1/usercenter/pushinsert', subscription, csrf);
    const b = await api.post('/api/v1/usercenter/pushinsert', subscription, csrf);
    expect(b.body.data.id).toBe(a.body.data.id);
    const insecure = await api.post(
      '/api/v1/usercenter/pushinsert',
      { ...subscription, endpoint: 'http://push.example.net/x' },
      csrf,
    );
    expect(insecure.body.fields).toEqual({ endpoint: 'This push subscription address is not valid.' });
    expect((await api.post('/api/v1/usercenter/pushget')).body.data).toHaveLength(1);
    expect(
      (await api.post('/api/v1/usercenter/pushdelete', { endpoint: subscription.endpoint }, csrf)).body.data
        .deleted,
    ).toBe(1);
    expect((await api.post('/api/v1/usercenter/pushget')).body.data).toHaveLength(0);
  });

  it('binds a new email with a code sent to it, and refuses an address another trader has', async () => {
    const fresh = await registerTrader('binder@example.com');
    const target = 'binder.new@example.com';
    const sent = await fresh.api.post(
      '/api/v1/usercenter/sendcode',
      { email: target, purpose: 'bind', captcha: await captcha(fresh.api) },
      fresh.csrf,
    );
    expect(sent.body.success).toBe(true);
    const wrong = await fresh.api.post(
      '/api/v1/usercenter/bindcontact',
      { email: target, code: '0000' },
      fresh.csrf,
    );
    expect(wrong.body.errorCode).toBe(-1007);
    const bound = await fresh.api.post(
      '/api/v1/usercenter/bindcontact',
      { email: target, code: await codeFor(target) },
      fresh.csrf,
    );
    expect(bound.body.data.email).toBe('bi********@example.com');
    const taken = await fresh.api.post(
      '/api/v1/usercenter/sendcode',
      { email: 'demo@example.com', purpose: 'bind', captcha: await captcha(fresh.api) },
      fresh.csrf,
    );
    expect(taken.body.errorCode).toBe(-1003);
    const audit = await server.app.services.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('action', '=', 'user.email.change')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('hands a session to another origin once, only from the same device fingerprint', async () => {
    const { api, csrf } = await signIn();
    const token = 'handoffTOKEN_0123456789abcdef';
    const parked = await api.post('/api/v1/account/save_token', { token, finger_key: 'fp-device-1' }, csrf);
    expect(parked.body.data.expiresAt).toBeGreaterThan(Date.now());
    const elsewhere = new ApiClient(server.baseUrl);
    const wrongDevice = await elsewhere.post('/api/v1/account/trans_token', {
      accessToken: token,
      finger_key: 'fp-other',
    });
    expect(wrongDevice.body.errorCode).toBe(-1021);
    const ok = await elsewhere.post('/api/v1/account/trans_token', {
      accessToken: token,
      finger_key: 'fp-device-1',
    });
    expect(ok.body.data.user.email).toBe('demo@example.com');
    expect(elsewhere.cookies.get('token')).toBeTruthy();
    const replay = await new ApiClient(server.baseUrl).post('/api/v1/account/trans_token', {
      accessToken: token,
      finger_key: 'fp-device-1',
    });
    expect(replay.body.errorCode).toBe(-1021);
  });

  it('userlogin records language and country for the signed-in user only', async () => {
    const { api, csrf } = await signIn();
    const me = (await api.post('/api/v1/usercenter/userinfo')).body.data;
    const ok = await api.post(
      '/api/v1/account/userlogin',
      { user_id: me.userId, languageCode: 'de', countryCode: 'DE' },
      csrf,
    );
    expect(ok.body.data.userId).toBe(me.userId);
    // Spec 7.2's form: the ISO numeric code as a padded string.
    const numeric = await api.post(
      '/api/v1/account/userlogin',
      { user_id: me.userId, languageCode: 'zh-CN', countryCode: '156' },
      csrf,
    );
    expect(numeric.body.success, JSON.stringify(numeric.body)).toBe(true);
    const unknown = await api.post(
      '/api/v1/account/userlogin',
      { user_id: me.userId, languageCode: 'en', countryCode: '999' },
      { ...csrf, 'accept-language': 'en' },
    );
    expect(unknown.body.errorCode).toBe(-9001);
    expect(unknown.body.fields?.countryCode).toBe('No country has this code.');
    const db = server.app.services.database.db;
    const stored = await db
      .selectFrom('users')
      .select('country_code')
      .where('id', '=', me.userId)
      .executeTakeFirst();
    // The first country a client reports is kept (Germany, 276); later ones do not overwrite it.
    expect(stored?.country_code).toBe('276');
    // The next sign-in hands the portal its CountryCode header value in the country cookie.
    const again = await signIn();
    expect(again.api.cookies.get('country')).toBe('276');
    const other = await api.post(
      '/api/v1/account/userlogin',
      { user_id: 'someone-else', languageCode: 'de' },
      csrf,
    );
    expect(other.body.errorCode).toBe(-1009);
  });
});

async function captcha(api: ApiClient) {
  const challenge = (await api.post('/api/v1/usercenter/captcha')).body.data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  return { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
}

async function codeFor(to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const box = (await (
      await fetch(`${server.baseUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`)
    ).json()) as {
      mails: { text: string }[];
    };
    const code = box.mails[0]?.text.match(/\b(\d{4})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code for ${to}`);
}

async function registerTrader(email: string) {
  const api = new ApiClient(server.baseUrl);
  api.cookies.set('lang', 'en');
  await api.post('/api/v1/usercenter/sendcode', { email, purpose: 'register', captcha: await captcha(api) });
  const answer = await api.post('/api/v1/usercenter/register', {
    email,
    code: await codeFor(email),
    password: 'Trader2026!',
    confirmPassword: 'Trader2026!',
  });
  expect(answer.body.success).toBe(true);
  return { api, csrf: { 'x-csrf-token': api.cookies.get('csrf') as string } };
}
