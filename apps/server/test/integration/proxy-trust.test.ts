import { AppErrorCode } from '@broker/domain/result-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

/**
 * Issue 15, finding 3: the client address of rate limits and of the audit trail comes from the
 * socket unless TRUST_PROXY names the proxy; a forged X-Forwarded-For changes nothing by default.
 */
const DEMO = { email: 'demo@example.com', password: 'Demo2026!' };
const FORGED = '203.0.113.77';

/** 30 wrong sign-ins from this test's one address, each naming a different forged address. */
async function signInBurst(server: TTestServer, tag: string) {
  const api = new ApiClient(server.baseUrl);
  const codes: number[] = [];
  for (let i = 0; i < 30; i++) {
    const { body } = await api.post(
      '/api/v1/usercenter/login',
      { email: `nobody-${tag}-${i}@example.com`, password: 'wrong-password' },
      { 'x-forwarded-for': `198.51.100.${i + 1}` },
    );
    codes.push(body.code);
  }
  return codes;
}

/** The address the audit trail recorded for the demo trader's last sign-in. */
async function signInAddress(server: TTestServer) {
  const api = new ApiClient(server.baseUrl);
  const { body } = await api.post('/api/v1/usercenter/login', DEMO, { 'x-forwarded-for': FORGED });
  expect(body.success).toBe(true);
  const audit = await server.app.services.database.db
    .selectFrom('audit_events')
    .select('ip')
    .where('action', '=', 'user.signin')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const session = await server.app.services.database.db
    .selectFrom('sessions')
    .select('ip')
    .where('subject_kind', '=', 'user')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return { audit: audit.ip, session: session.ip };
}

describe('proxy trust (TRUST_PROXY)', () => {
  describe('by default (off)', () => {
    let server: TTestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => server?.close());

    it('records the socket address, not the forged one, in the audit trail and the session', async () => {
      expect(await signInAddress(server)).toEqual({ audit: '127.0.0.1', session: '127.0.0.1' });
    });

    it('ignores a forged X-Forwarded-For: the per-address sign-in limit still holds', async () => {
      const codes = await signInBurst(server, 'off');
      expect(codes[0]).toBe(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
      // One address for all 30 (and the sign-in before): the limit (20 a minute) refuses the rest.
      expect(codes.filter((c) => c === AppErrorCode.RATE_LIMITED).length).toBeGreaterThanOrEqual(10);
      expect(codes.at(-1)).toBe(AppErrorCode.RATE_LIMITED);
    });
  });

  describe('with TRUST_PROXY=127.0.0.1 (the test client is the proxy)', () => {
    let server: TTestServer;
    beforeAll(async () => {
      server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(async () => server?.close());

    it('uses the forwarded address: the audit trail and the session record it', async () => {
      expect(await signInAddress(server)).toEqual({ audit: FORGED, session: FORGED });
    });

    it('counts each forwarded address on its own', async () => {
      const codes = await signInBurst(server, 'trusted');
      expect(codes.every((c) => c === AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG)).toBe(true);
    });
  });
});
