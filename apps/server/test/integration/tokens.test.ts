import { createCipheriv, randomBytes } from 'node:crypto';
import { WEB_OAUTH_CLIENT } from '@broker/contracts/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession } from '../../src/modules/identity/sessions';
import { verifyTradeToken } from '../../src/modules/identity/trade-token';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function form(path: string, body: Record<string, string>) {
  const response = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function anonymousToken() {
  const authorize = await form('/oauth2/authorize', {
    response_type: 'code',
    scope: WEB_OAUTH_CLIENT.scope,
    client_id: WEB_OAUTH_CLIENT.clientId,
    provision_key: WEB_OAUTH_CLIENT.provisionKey,
    authenticated_userid: 'device-fingerprint-1',
  });
  const code = new URL(String(authorize.body.redirect_uri), 'http://x').searchParams.get('code') as string;
  const token = await form('/oauth2/token', {
    grant_type: 'authorization_code',
    client_id: WEB_OAUTH_CLIENT.clientId,
    client_secret: WEB_OAUTH_CLIENT.clientSecret,
    code,
  });
  return { authorize, code, token };
}

describe('anonymous bearer tokens (Kong-compatible OAuth2)', () => {
  it('answers authorize with a redirect carrying a code, and token with Kong shapes', async () => {
    const { authorize, token } = await anonymousToken();
    expect(authorize.status).toBe(200);
    expect(String(authorize.body.redirect_uri)).toMatch(/^\/oauth2\/callback\?code=[\w-]{22}$/);
    expect(token.status).toBe(200);
    expect(Object.keys(token.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
    expect(token.body).toMatchObject({ token_type: 'bearer', expires_in: 1200 });
  });

  it('uses a code once, and refuses a wrong provision key or client secret', async () => {
    const { code } = await anonymousToken();
    const again = await form('/oauth2/token', {
      grant_type: 'authorization_code',
      client_id: WEB_OAUTH_CLIENT.clientId,
      client_secret: WEB_OAUTH_CLIENT.clientSecret,
      code,
    });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const badKey = await form('/oauth2/authorize', {
      response_type: 'code',
      scope: 'x',
      client_id: WEB_OAUTH_CLIENT.clientId,
      provision_key: 'nope',
      authenticated_userid: 'd',
    });
    expect(badKey).toMatchObject({ status: 400, body: { error: 'invalid_provision_key' } });
    const badType = await form('/oauth2/authorize', {
      response_type: 'token',
      scope: 'x',
      client_id: WEB_OAUTH_CLIENT.clientId,
      provision_key: WEB_OAUTH_CLIENT.provisionKey,
      authenticated_userid: 'd',
    });
    expect(badType.body.error).toBe('unsupported_response_type');
    const badSecret = await form('/oauth2/token', {
      grant_type: 'authorization_code',
      client_id: WEB_OAUTH_CLIENT.clientId,
      client_secret: 'wrong',
      code: 'whatever',
    });
    expect(badSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('refreshes with the refresh token once', async () => {
    const { token } = await anonymousToken();
    const body = {
      grant_type: 'refresh_token',
      client_id: WEB_OAUTH_CLIENT.clientId,
      client_secret: WEB_OAUTH_CLIENT.clientSecret,
      refresh_token: String(token.body.refresh_token),
    };
    const refreshed = await form('/oauth2/token', body);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(token.body.access_token);
    expect((await form('/oauth2/token', body)).body.error).toBe('invalid_grant');
  });

  it('accepts a live bearer on gateway calls and answers 401 to an unknown or expired one', async () => {
    const { token } = await anonymousToken();
    const api = new ApiClient(server.baseUrl);
    const ok = await api.post(
      '/api/v1/common/localelist',
      {},
      { Authorization: `Bearer ${token.body.access_token}` },
    );
    expect(ok.body.success).toBe(true);
    const unknown = await api.post(
      '/api/v1/common/localelist',
      {},
      { Authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAA' },
    );
    expect(unknown).toMatchObject({ status: 401, body: { errorCode: -1001 } });
    await server.app.services.database.db
      .updateTable('oauth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('kind', '=', 'access')
      .execute();
    const expired = await api.post(
      '/api/v1/common/localelist',
      {},
      { Authorization: `Bearer ${token.body.access_token}` },
    );
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    // A user route without a session is also 401, but without the challenge: no token refresh.
    const noSession = await api.post('/api/v1/usercenter/userinfo');
    expect(noSession.status).toBe(401);
    expect(noSession.headers.get('www-authenticate')).toBeNull();
  });
});

describe('trade token (spec 7.1)', () => {
  function encrypt(plain: string, keyBase64: string) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return { cipher_text: data.toString('base64'), iv_key: iv.toString('base64') };
  }

  async function signIn() {
    const api = new ApiClient(server.baseUrl);
    const login = await api.post('/api/v1/usercenter/login', {
      email: 'demo@example.com',
      password: 'Demo2026!',
    });
    return {
      api,
      userId: login.body.data.user.userId as string,
      cipherKey: login.body.data.cipherKey as string,
    };
  }

  it('issues a trade token for the session that encrypted the request, and only for it', async () => {
    const { api, userId, cipherKey } = await signIn();
    const csrf = { 'x-csrf-token': api.cookies.get('csrf') as string };
    expect((await api.post('/api/v1/usercenter/userinfo')).body.data.cipherKey).toBe(cipherKey);
    const request = encrypt(`${userId}trade`, cipherKey);
    const answer = await api.post('/api/v1/account/jwt', request, csrf);
    expect(answer.body.errorCode).toBe(200);
    const { accessToken, accessExpire, refreshAfter } = answer.body.data;
    expect(accessExpire - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(refreshAfter).toBeLessThan(accessExpire);
    const session = await findSession({
      db: server.app.services.database.db,
      token: api.cookies.get('token') as string,
      subjectKind: 'user',
      tenantId: (await server.app.services.resolveTenant({ host: undefined, hostspecific: undefined })).id,
    });
    await expect(
      verifyTradeToken({ secret: server.app.services.appSecret, token: accessToken, session: session! }),
    ).resolves.toBeUndefined();

    // The same cipher text sent from another session of the same trader is refused.
    const other = await signIn();
    const copied = await other.api.post('/api/v1/account/jwt', request, {
      'x-csrf-token': other.api.cookies.get('csrf') as string,
    });
    expect(copied.body.errorCode).toBe(-1001);
    const wrongText = await api.post('/api/v1/account/jwt', encrypt('someone-else-trade', cipherKey), csrf);
    expect(wrongText.body.errorCode).toBe(-1001);
    const otherSession = await findSession({
      db: server.app.services.database.db,
      token: other.api.cookies.get('token') as string,
      subjectKind: 'user',
      tenantId: session!.tenantId,
    });
    await expect(
      verifyTradeToken({ secret: server.app.services.appSecret, token: accessToken, session: otherSession! }),
    ).rejects.toThrow();
  });

  it('needs a signed-in trader', async () => {
    const answer = await new ApiClient(server.baseUrl).post('/api/v1/account/jwt', {
      cipher_text: 'AAAAAAAAAAAA',
      iv_key: 'AAAAAAAAAAAAAAAA',
    });
    expect(answer.body.errorCode).toBe(-1001);
  });
});
