import { describe, expect, it } from 'vitest';
import { AUTH_COOKIE, HttpClient, type TCookieJar } from '../../src/lib/http';

function jar(): TCookieJar & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: (n) => values.get(n),
    set: (n, v) => values.set(n, v),
    remove: (n) => values.delete(n),
  };
}

/** A fake server: tokens t1, t2, … ; a data route that rejects the first token once it has "expired". */
function fakeServer() {
  let issued = 0;
  const live = new Set<string>();
  const seen: { path: string; headers: Record<string, string> }[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchImpl = (async (path: string | URL | Request, init?: RequestInit) => {
    const url = String(path);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    seen.push({ path: url, headers });
    await new Promise((r) => setTimeout(r, 5));
    if (url === '/oauth2/authorize') return json(200, { redirect_uri: '/oauth2/callback?code=abc' });
    if (url === '/oauth2/token') {
      const token = `t${++issued}`;
      live.add(token);
      return json(200, { access_token: token, token_type: 'bearer', expires_in: 1200, refresh_token: 'r' });
    }
    const bearer = headers.Authorization?.replace('Bearer ', '') ?? '';
    // Like the real gateway: no bearer is allowed, an unknown or expired one is not.
    if (headers.Authorization && !live.has(bearer))
      return new Response(
        JSON.stringify({
          code: -1001,
          success: false,
          data: null,
          errorCode: -1001,
          message: 'Token invalid',
        }),
        {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
        },
      );
    if (url === '/api/v1/account/jwt')
      return json(200, {
        code: 200,
        success: true,
        data: {
          accessToken: `trade-for-${bearer}`,
          accessExpire: Date.now() + 1_800_000,
          refreshAfter: Date.now() + 1_200_000,
        },
        errorCode: 200,
        message: 'OK',
      });
    return json(200, {
      code: 200,
      success: true,
      data: { echo: bearer, trade: headers.tradetoken ?? null },
      errorCode: 200,
      message: 'OK',
    });
  }) as typeof fetch;
  return { fetchImpl, live, seen, issued: () => issued };
}

function client(
  server: ReturnType<typeof fakeServer>,
  cookies = jar(),
  extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {},
) {
  return new HttpClient({
    fetch: server.fetchImpl,
    cookies,
    lang: () => 'ja',
    preferredLanguage: () => 'ja-JP',
    countryCode: () => '392',
    deviceType: () => 'desktop',
    fingerprint: () => 'fp-1',
    userId: () => 'user-1',
    cipherKey: () => btoa(String.fromCharCode(...new Uint8Array(32))),
    webTest: false,
    ...extra,
  });
}

describe('client HTTP layer (spec 7 and 8)', () => {
  it('gets an anonymous bearer once, sends every common header, and keeps the token in the auth cookie', async () => {
    const server = fakeServer();
    const cookies = jar();
    const http = client(server, cookies);
    const answers = await Promise.all([
      http.call('localelist', {}),
      http.call('localelist', {}),
      http.call('localelist', {}),
    ]);
    expect(answers.every((a) => a.succeed && a.ErrorCode === 200)).toBe(true);
    expect(http.stats.exchanges).toBe(1);
    expect(cookies.values.get(AUTH_COOKIE)).toBe('t1');
    const sent = server.seen.find((s) => s.path === '/api/v1/common/localelist')!.headers;
    expect(sent).toMatchObject({
      LanguageCode: 'ja',
      PreferredLanguageCode: 'ja-JP',
      CountryCode: '392',
      'web-version': '1',
      Authorization: 'Bearer t1',
    });
    expect(JSON.parse(sent.BasicData as string)).toEqual({
      deviceType: 'desktop',
      appType: 'web',
      fingerprint: 'fp-1',
    });
    expect(sent.WebTest).toBeUndefined();
  });

  it('refreshes exactly once when several concurrent calls meet a 401, and every call succeeds', async () => {
    const server = fakeServer();
    const http = client(server);
    await http.call('localelist', {}, { trade: true });
    expect(http.stats.tradeTokens).toBe(1);
    server.live.clear(); // the bearer expired on the server
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => http.call('localelist', {}, { trade: true })),
    );
    expect(answers.every((a) => a.succeed)).toBe(true);
    expect(http.stats.refreshes).toBe(1);
    expect(server.issued()).toBe(2);
    expect(http.stats.tradeTokens).toBe(2);
    expect(answers.every((a) => (a.Data as unknown as { echo: string }).echo === 't2')).toBe(true);
    expect(answers.every((a) => (a.Data as unknown as { trade: string }).trade === 'trade-for-t2')).toBe(
      true,
    );
  });

  it('does not refresh or resend on a 401 that is not about the token (a wrong password)', async () => {
    let logins = 0;
    const server = fakeServer();
    const base = server.fetchImpl;
    const fetchImpl = (async (path: string | URL | Request, init?: RequestInit) => {
      if (String(path) === '/api/v1/usercenter/login') {
        logins++;
        return new Response(
          JSON.stringify({ code: -1002, success: false, data: null, errorCode: -1002, message: 'wrong' }),
          { status: 401, headers: { 'content-type': 'application/json' } },
        );
      }
      return base(path, init);
    }) as typeof fetch;
    const http = client({ ...server, fetchImpl });
    const answer = await http.call('login', { email: 'a@b.cd', password: 'nope-nope' });
    expect(answer).toMatchObject({ succeed: false, ErrorCode: -1002 });
    expect(logins).toBe(1);
    expect(http.stats.refreshes).toBe(0);
  });

  it('skips the anonymous exchange in the test environment and sends WebTest', async () => {
    const server = fakeServer();
    const http = client(server, jar(), { webTest: true });
    await http.call('localelist', {});
    expect(http.stats.exchanges).toBe(0);
    expect(server.seen[0]?.headers.WebTest).toBe('1');
    expect(server.seen[0]?.headers.Authorization).toBeUndefined();
  });

  it('only logs a network error and answers with a translatable key', async () => {
    const logs: string[] = [];
    const http = client(
      {
        ...fakeServer(),
        fetchImpl: (async () => {
          throw new TypeError('Failed to fetch');
        }) as typeof fetch,
      },
      jar(),
      { webTest: true, log: (m) => logs.push(m) },
    );
    const answer = await http.call('localelist', {});
    expect(answer).toMatchObject({ succeed: false, messageKey: 'errors.network' });
    expect(logs).toEqual(['Network Error']);
  });
});
