import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadingZeroBits, powDigest, solveChallenge } from '../../src/modules/identity/captcha';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function captcha(api: ApiClient) {
  const challenge = (await api.post('/api/v1/usercenter/captcha')).body.data as {
    id: string;
    salt: string;
    difficulty: number;
  };
  return { id: challenge.id, nonce: solveChallenge(challenge.salt, challenge.difficulty) };
}

/** Reads the newest code sent to an address from the developer mailbox (mail went over SMTP). */
async function codeFor(to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const box = (await (
      await fetch(`${server.baseUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`)
    ).json()) as {
      mails: { text: string }[];
      texts: { body: string }[];
    };
    const text = box.mails[0]?.text ?? box.texts[0]?.body;
    const code = text?.match(/\b(\d{4})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code for ${to}`);
}

describe('registration and password reset', () => {
  it('registers by email with a code delivered over SMTP, then signs in', async () => {
    const api = new ApiClient(server.baseUrl);
    const email = 'new.trader@example.com';
    expect((await api.post('/api/v1/usercenter/emailregistered', { email })).body.data.registered).toBe(
      false,
    );
    const sent = await api.post('/api/v1/usercenter/sendcode', {
      email,
      purpose: 'register',
      captcha: await captcha(api),
    });
    expect(sent.body.data).toMatchObject({
      sentTo: 'ne********@example.com',
      channel: 'email',
      resendAfterSeconds: 60,
      expiresInSeconds: 600,
    });
    const code = await codeFor(email);
    const weak = await api.post('/api/v1/usercenter/register', {
      email,
      code,
      password: '密码 12',
      confirmPassword: 'x',
    });
    expect(weak.body.errorCode).toBe(-9001);
    expect(Object.keys(weak.body.fields ?? {}).sort()).toEqual(['confirmPassword', 'password']);
    const done = await api.post('/api/v1/usercenter/register', {
      email,
      code,
      password: 'Str0ngPass',
      confirmPassword: 'Str0ngPass',
      nick: 'Nova',
    });
    expect(done.body.success).toBe(true);
    expect(done.body.data.user).toMatchObject({ name: 'Nova', email });
    expect(api.cookies.has('token')).toBe(true);
    // The code is single use, and the address is now taken.
    const again = await api.post(
      '/api/v1/usercenter/register',
      { email, code, password: 'Str0ngPass', confirmPassword: 'Str0ngPass' },
      { 'x-csrf-token': api.cookies.get('csrf') as string },
    );
    expect(again.body.errorCode).toBe(-1003);
    const signIn = await new ApiClient(server.baseUrl).post('/api/v1/usercenter/login', {
      email,
      password: 'Str0ngPass',
    });
    expect(signIn.body.success).toBe(true);
  });

  it('refuses a code request without a solved captcha, and more than one a minute', async () => {
    const api = new ApiClient(server.baseUrl);
    const email = 'captcha.check@example.com';
    const challenge = (await api.post('/api/v1/usercenter/captcha')).body.data as {
      id: string;
      salt: string;
      difficulty: number;
    };
    // A nonce that really misses the target (a random one would pass 1 time in 2^difficulty).
    let wrong = 0;
    while (leadingZeroBits(powDigest(challenge.salt, String(wrong))) >= challenge.difficulty) wrong++;
    const unsolved = await api.post(
      '/api/v1/usercenter/sendcode',
      { email, purpose: 'register', captcha: { id: challenge.id, nonce: String(wrong) } },
      { LanguageCode: 'en' },
    );
    expect(unsolved.body.errorCode).toBe(-1006);
    const solved = await captcha(api);
    expect(
      (await api.post('/api/v1/usercenter/sendcode', { email, purpose: 'register', captcha: solved })).body
        .success,
    ).toBe(true);
    const reused = await api.post('/api/v1/usercenter/sendcode', {
      email,
      purpose: 'register',
      captcha: solved,
    });
    expect(reused.body.errorCode).toBe(-1006);
    const tooSoon = await api.post('/api/v1/usercenter/sendcode', {
      email,
      purpose: 'register',
      captcha: await captcha(api),
    });
    expect(tooSoon.body.errorCode).toBe(-1012);
  });

  it('kills a code after 5 wrong tries', async () => {
    const api = new ApiClient(server.baseUrl);
    const email = 'five.tries@example.com';
    await api.post('/api/v1/usercenter/sendcode', {
      email,
      purpose: 'register',
      captcha: await captcha(api),
    });
    const code = await codeFor(email);
    const wrong = code === '0000' ? '1111' : '0000';
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        (
          await api.post('/api/v1/usercenter/register', {
            email,
            code: wrong,
            password: 'Str0ngPass',
            confirmPassword: 'Str0ngPass',
          })
        ).body.errorCode,
      );
    }
    expect(answers).toEqual([-1007, -1007, -1007, -1007, -1013]);
    const right = await api.post('/api/v1/usercenter/register', {
      email,
      code,
      password: 'Str0ngPass',
      confirmPassword: 'Str0ngPass',
    });
    expect(right.body.errorCode).toBe(-1013);
  });

  it('registers by phone through the SMS sandbox and signs in with a code', async () => {
    const api = new ApiClient(server.baseUrl);
    const phone = { twoCharCode: 'GB', number: '07911 123456' };
    expect(
      (
        await api.post('/api/v1/usercenter/sendcode', {
          phone: { twoCharCode: 'GB', number: '123' },
          purpose: 'register',
          captcha: await captcha(api),
        })
      ).body.errorCode,
    ).toBe(-1005);
    const sent = await api.post('/api/v1/usercenter/sendcode', {
      phone,
      purpose: 'register',
      captcha: await captcha(api),
    });
    expect(sent.body.data).toMatchObject({ channel: 'sms', sentTo: '+44*****23456' });
    const registered = await api.post('/api/v1/usercenter/register', {
      phone,
      code: await codeFor('+447911123456'),
      password: 'Phone-Pass1',
      confirmPassword: 'Phone-Pass1',
    });
    expect(registered.body.data.user.phone).toBe('+447911123456');
    const quick = new ApiClient(server.baseUrl);
    await new Promise((r) => setTimeout(r, 10));
    await quick.post('/api/v1/usercenter/sendcode', {
      phone,
      purpose: 'login',
      channel: 'whatsapp',
      captcha: await captcha(quick),
    });
    const box = (await (await fetch(`${server.baseUrl}/dev/mailbox.json?to=%2B447911123456`)).json()) as {
      texts: { channel: string; body: string }[];
    };
    expect(box.texts[0]?.channel).toBe('whatsapp');
    const code = box.texts[0]?.body.match(/\b(\d{4})\b/)?.[1] as string;
    const signedIn = await quick.post('/api/v1/usercenter/phonelogin', { phone, code });
    expect(signedIn.body.data.user.phone).toBe('+447911123456');
    // An unroutable number fails like a real gateway would.
    const failing = await quick.post(
      '/api/v1/usercenter/sendcode',
      {
        phone: { twoCharCode: 'US', number: '2025550000' },
        purpose: 'register',
        captcha: await captcha(quick),
      },
      { 'x-csrf-token': quick.cookies.get('csrf') as string },
    );
    expect(failing.body.errorCode).toBe(-1014);
  });

  it('resets a forgotten password, refuses the old one, and ends every session', async () => {
    const email = 'demo@example.com';
    const signedIn = new ApiClient(server.baseUrl);
    expect(
      (await signedIn.post('/api/v1/usercenter/login', { email, password: 'Demo2026!' })).body.success,
    ).toBe(true);
    const api = new ApiClient(server.baseUrl);
    expect(
      (
        await api.post('/api/v1/usercenter/sendcode', {
          email: 'nobody@example.com',
          purpose: 'reset',
          captcha: await captcha(api),
        })
      ).body.errorCode,
    ).toBe(-1004);
    await api.post('/api/v1/usercenter/sendcode', { email, purpose: 'reset', captcha: await captcha(api) });
    const code = await codeFor(email);
    const same = await api.post('/api/v1/usercenter/forgetpassword', {
      email,
      code,
      password: 'Demo2026!',
      confirmPassword: 'Demo2026!',
    });
    expect(same.body.errorCode).toBe(-9001);
    expect(Object.keys(same.body.fields ?? {})).toEqual(['password']);
    // A form error keeps the code usable.
    const reset = await api.post('/api/v1/usercenter/forgetpassword', {
      email,
      code,
      password: 'Demo-New-2027',
      confirmPassword: 'Demo-New-2027',
    });
    expect(reset.body.success).toBe(true);
    expect((await signedIn.post('/api/v1/usercenter/userinfo')).body.errorCode).toBe(-1001);
    expect(
      (await new ApiClient(server.baseUrl).post('/api/v1/usercenter/login', { email, password: 'Demo2026!' }))
        .body.errorCode,
    ).toBe(-1002);
    expect(
      (
        await new ApiClient(server.baseUrl).post('/api/v1/usercenter/login', {
          email,
          password: 'Demo-New-2027',
        })
      ).body.success,
    ).toBe(true);
  });
});
