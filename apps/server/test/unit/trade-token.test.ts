import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { TSession } from '../../src/modules/identity/sessions';
import { issueTradeToken, verifyTradeToken } from '../../src/modules/identity/trade-token';

const secret = new Uint8Array(32).fill(7);
const session = { subjectId: 'user-1', tokenHash: 'a'.repeat(64) } as TSession;
const other = { subjectId: 'user-1', tokenHash: 'b'.repeat(64) } as TSession;
const refused = (p: Promise<void>) => expect(p).rejects.toMatchObject({ code: -1001 });

describe('trade token verification', () => {
  it('accepts its own token and refuses it for another session, after expiry or once tampered', async () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    const { accessToken } = await issueTradeToken({ secret, session, now });
    await expect(
      verifyTradeToken({ secret, token: accessToken, session, now: now + 1000 }),
    ).resolves.toBeUndefined();
    await refused(verifyTradeToken({ secret, token: accessToken, session: other, now }));
    await refused(verifyTradeToken({ secret, token: accessToken, session, now: now + 31 * 60_000 }));
    const [h, p, s] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'user-2' })).toString('base64url');
    await refused(verifyTradeToken({ secret, token: `${h}.${forged}.${s}`, session, now }));
    await refused(verifyTradeToken({ secret: new Uint8Array(32), token: accessToken, session, now }));
    await refused(verifyTradeToken({ secret, token: 'not-a-token', session, now }));
  });

  it('refuses unsigned tokens and other algorithms', async () => {
    const now = Date.now();
    const claims = {
      sid: session.tokenHash.slice(0, 24),
      typ: 'trade',
      sub: 'user-1',
      exp: Math.floor(now / 1000) + 60,
    };
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    await refused(verifyTradeToken({ secret, token: none, session, now }));
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new Uint8Array(64).fill(7));
    await refused(verifyTradeToken({ secret, token: hs512, session, now }));
  });
});
