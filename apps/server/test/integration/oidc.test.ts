import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A browser stand-in for the provider's pages: keeps the provider's cookies, follows its redirects. */
class ProviderAgent {
  private readonly cookies = new Map<string, string>();
  private async request(url: string, init: RequestInit = {}) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      this.cookies.set(name, value.join('='));
    }
    return response;
  }

  /**
   * Signs in at the provider as `login` and consents; answers the address the provider sends the
   * browser back to (the portal's callback with code and state).
   */
  async authorize(url: string, login: string): Promise<string> {
    let next = url;
    for (let step = 0; step < 12; step++) {
      const response = await this.request(next);
      const location = response.headers.get('location');
      if (location) {
        const target = new URL(location, next).toString();
        if (target.startsWith(server.baseUrl)) return target;
        next = target;
        continue;
      }
      const html = await response.text();
      const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
      if (!action) throw new Error(`no form at ${next}: ${html.slice(0, 200)}`);
      const prompt = html.match(/name="prompt" value="([^"]+)"/)?.[1] ?? 'login';
      const form = new URLSearchParams({ prompt, login, password: 'anything' });
      const posted = await this.request(new URL(action, next).toString(), {
        method: 'POST',
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const after = posted.headers.get('location');
      if (!after) throw new Error(`form post at ${action} did not redirect (${posted.status})`);
      next = new URL(after, next).toString();
    }
    throw new Error('too many steps at the provider');
  }
}

async function start(api: ApiClient, mode: 'login' | 'bind', redirect: string) {
  const headers: Record<string, string> = api.cookies.get('csrf')
    ? { 'x-csrf-token': api.cookies.get('csrf') as string }
    : {};
  const answer = await api.post(
    '/api/v1/usercenter/unionstart',
    { slug: 'sandbox', mode, lang: 'en', redirect },
    headers,
  );
  expect(answer.body.success, answer.body.message).toBe(true);
  return answer.body.data.url as string;
}

describe('third-party sign-in through OpenID Connect (local oidc-provider)', () => {
  it('lists the broker providers', async () => {
    const api = new ApiClient(server.baseUrl);
    expect((await api.post('/api/v1/usercenter/unionproviders')).body.data).toEqual([
      { slug: 'sandbox', name: 'Sandbox ID' },
    ]);
  });

  it('registers a new trader on first sign-in, and signs the same trader in the next time', async () => {
    const browser = new ApiClient(server.baseUrl);
    const url = await start(browser, 'login', '/en/markets');
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await new ProviderAgent().authorize(url, 'alice');
    const landed = await browser.get(callback.slice(server.baseUrl.length));
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe('/en/markets');
    const me = (await browser.post('/api/v1/usercenter/userinfo')).body.data;
    expect(me).toMatchObject({ name: 'alice', email: 'alice@sandbox.test' });

    const again = new ApiClient(server.baseUrl);
    const callback2 = await new ProviderAgent().authorize(await start(again, 'login', '/en'), 'alice');
    await again.get(callback2.slice(server.baseUrl.length));
    expect((await again.post('/api/v1/usercenter/userinfo')).body.data.userId).toBe(me.userId);

    // A used callback (same state) is refused.
    const replay = await new ApiClient(server.baseUrl).get(callback2.slice(server.baseUrl.length));
    expect(replay.headers.get('location')).toMatch(/unionError=-1013/);
  });

  it('does not take over an existing account by its email', async () => {
    const browser = new ApiClient(server.baseUrl);
    const callback = await new ProviderAgent().authorize(
      await start(browser, 'login', '/en'),
      'demo@example.com',
    );
    const landed = await browser.get(callback.slice(server.baseUrl.length));
    expect(landed.headers.get('location')).toBe('/en/login?unionError=-1003');
    expect(browser.cookies.get('token')).toBeUndefined();
  });

  it('binds, replaces and unbinds for a signed-in trader, and refuses an identity bound elsewhere', async () => {
    const demo = new ApiClient(server.baseUrl);
    await demo.post('/api/v1/usercenter/login', { email: 'demo@example.com', password: 'Demo2026!' });
    const csrf = { 'x-csrf-token': demo.cookies.get('csrf') as string };
    const anonymousBind = await new ApiClient(server.baseUrl).post('/api/v1/usercenter/unionstart', {
      slug: 'sandbox',
      mode: 'bind',
      lang: 'en',
      redirect: '/en',
    });
    expect(anonymousBind.body.errorCode).toBe(-1001);

    const bind = await new ProviderAgent().authorize(
      await start(demo, 'bind', '/en/personalCenter/setting/security'),
      'demo-google',
    );
    const bound = await demo.get(bind.slice(server.baseUrl.length));
    expect(bound.headers.get('location')).toBe('/en/personalCenter/setting/security?union=bound');
    let list = (await demo.post('/api/v1/usercenter/unionbindings')).body.data;
    expect(list).toEqual([
      expect.objectContaining({
        slug: 'sandbox',
        bound: expect.objectContaining({ email: 'demo-google@sandbox.test' }),
      }),
    ]);

    // Signing in with the bound identity opens the demo trader's session.
    const viaProvider = new ApiClient(server.baseUrl);
    const signIn = await new ProviderAgent().authorize(
      await start(viaProvider, 'login', '/en'),
      'demo-google',
    );
    await viaProvider.get(signIn.slice(server.baseUrl.length));
    expect((await viaProvider.post('/api/v1/usercenter/userinfo')).body.data.email).toBe('demo@example.com');

    // Replace-bind: another identity of the same provider takes the binding's place.
    const replace = await new ProviderAgent().authorize(await start(demo, 'bind', '/en/x'), 'demo-second');
    expect((await demo.get(replace.slice(server.baseUrl.length))).headers.get('location')).toBe(
      '/en/x?union=replaced',
    );
    list = (await demo.post('/api/v1/usercenter/unionbindings')).body.data;
    expect(list[0].bound.email).toBe('demo-second@sandbox.test');

    // An identity that belongs to another trader (alice, registered above) cannot be bound here.
    const taken = await new ProviderAgent().authorize(await start(demo, 'bind', '/en/x'), 'alice');
    expect((await demo.get(taken.slice(server.baseUrl.length))).headers.get('location')).toBe(
      '/en/x?unionError=-1019',
    );

    expect((await demo.post('/api/v1/usercenter/unionunbind', { slug: 'sandbox' }, csrf)).body.success).toBe(
      true,
    );
    list = (await demo.post('/api/v1/usercenter/unionbindings')).body.data;
    expect(list[0].bound).toBeNull();
    const actions = (
      await server.app.services.database.db
        .selectFrom('audit_events')
        .select('action')
        .where('action', 'like', 'user.identity.%')
        .execute()
    ).map((r) => r.action);
    expect(actions).toEqual(['user.identity.bind', 'user.identity.replace', 'user.identity.unbind']);
  });

  it('refuses to unbind the only way a provider-registered trader can sign in', async () => {
    const browser = new ApiClient(server.baseUrl);
    const callback = await new ProviderAgent().authorize(
      await start(browser, 'login', '/en'),
      'no-email-user@sandbox.test',
    );
    await browser.get(callback.slice(server.baseUrl.length));
    // Remove the email the provider gave, so the binding is the only way in.
    await server.app.services.database.db
      .updateTable('users')
      .set({ email: null })
      .where('email', '=', 'no-email-user@sandbox.test')
      .execute();
    const answer = await browser.post(
      '/api/v1/usercenter/unionunbind',
      { slug: 'sandbox' },
      { 'x-csrf-token': browser.cookies.get('csrf') as string },
    );
    expect(answer.body.errorCode).toBe(-1020);
  });
});
