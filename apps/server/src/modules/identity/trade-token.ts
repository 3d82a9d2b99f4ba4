import { createDecipheriv, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { SignJWT } from 'jose';
import type { TActor } from '../../actor';
import type { TSession } from './sessions';

/** What the trade-token request and the token use of a trader's session. */
type TTokenSession = Pick<TSession, 'subjectId' | 'tokenHash' | 'cipherKey'>;

export const TRADE_TOKEN_SECONDS = 30 * 60;
export const TRADE_TOKEN_REFRESH_AFTER_SECONDS = 20 * 60;

/**
 * Opens the trade-token request (spec 7.1): `cipher_text` is AES-256-GCM (tag appended) of the user
 * id followed by "trade", under the session's key with the 12-byte `iv_key`. A cipher text copied
 * into another session does not open under that session's key.
 */
export function openTradeRequest({
  session,
  cipherText,
  iv,
}: {
  session: Pick<TSession, 'subjectId' | 'cipherKey'>;
  cipherText: string;
  iv: string;
}): void {
  if (!session.cipherKey) throw new AppError(AppErrorCode.TOKEN_INVALID);
  try {
    const data = Buffer.from(cipherText, 'base64');
    const nonce = Buffer.from(iv, 'base64');
    if (nonce.length !== 12 || data.length < 17) throw new Error('shape');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(session.cipherKey, 'base64'), nonce);
    decipher.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([
      decipher.update(data.subarray(0, data.length - 16)),
      decipher.final(),
    ]).toString('utf8');
    if (plain !== `${session.subjectId}trade`) throw new Error('content');
  } catch {
    throw new AppError(AppErrorCode.TOKEN_INVALID);
  }
}

export async function issueTradeToken({
  secret,
  session,
  now = Date.now(),
}: {
  secret: Uint8Array;
  session: Pick<TSession, 'subjectId' | 'tokenHash'>;
  now?: number;
}) {
  const accessExpire = now + TRADE_TOKEN_SECONDS * 1000;
  const accessToken = await new SignJWT({ sid: session.tokenHash.slice(0, 24), typ: 'trade' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(session.subjectId)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(accessExpire / 1000))
    .sign(secret);
  return { accessToken, accessExpire, refreshAfter: now + TRADE_TOKEN_REFRESH_AFTER_SECONDS * 1000 };
}

/**
 * tradetoken (spec 7.1): the signed-in trader proves they hold their session's key and gets a trade
 * token bound to the session. `secret` is the server's HMAC key (the app secret).
 */
export async function tradeToken(
  ports: { secret: Uint8Array },
  { actor, cipherText, iv }: { actor: TActor; cipherText: string; iv: string },
) {
  if (!actor.session) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const session: TTokenSession = { subjectId: actor.id, ...actor.session };
  openTradeRequest({ session, cipherText, iv });
  return issueTradeToken({ secret: ports.secret, session });
}

/**
 * Checks a `tradetoken` header against the caller's session; trading calls use it. The HS256 JWT is
 * verified synchronously with node:crypto (WebCrypto's asynchronous HMAC cost more than the rest of
 * an order's request on the server thread): header alg HS256, signature, `exp`/`nbf`, and the
 * claims binding it to this session.
 */
export async function verifyTradeToken({
  secret,
  token,
  session,
  now = Date.now(),
}: {
  secret: Uint8Array;
  token: string;
  session: TSession;
  now?: number;
}): Promise<void> {
  if (!tradeTokenValid({ secret, token, session, now })) throw new AppError(AppErrorCode.TOKEN_INVALID);
}

/** The HMAC key object of the app secret, made once (making one per call cost more than the HMAC). */
const secretKeys = new WeakMap<Uint8Array, KeyObject>();
function secretKey(secret: Uint8Array): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    secretKeys.set(secret, key);
  }
  return key;
}

interface TTokenClaims {
  exp: number;
  nbf: number | null;
  typ: unknown;
  sub: unknown;
  sid: unknown;
}

/**
 * Tokens whose signature and header were already verified under a secret, with their claims: a
 * trader sends the same token with every order for up to 30 minutes. Bounded; emptied when full.
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, TTokenClaims>>();
const MAX_VERIFIED_TOKENS = 20_000;

/** The claims of a correctly signed HS256 token, or null. */
function signedClaims(secret: Uint8Array, token: string): TTokenClaims | null {
  let known = verifiedTokens.get(secret);
  const cached = known?.get(token);
  if (cached) return cached;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, body, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secretKey(secret)).update(`${header}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
  if (head.alg !== 'HS256') return null;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (typeof claims.exp !== 'number') return null;
  const verified: TTokenClaims = {
    exp: claims.exp,
    nbf: typeof claims.nbf === 'number' ? claims.nbf : null,
    typ: claims.typ,
    sub: claims.sub,
    sid: claims.sid,
  };
  if (!known) {
    known = new Map();
    verifiedTokens.set(secret, known);
  }
  if (known.size >= MAX_VERIFIED_TOKENS) known.clear();
  known.set(token, verified);
  return verified;
}

function tradeTokenValid({
  secret,
  token,
  session,
  now,
}: {
  secret: Uint8Array;
  token: string;
  session: TSession;
  now: number;
}): boolean {
  try {
    const claims = signedClaims(secret, token);
    if (!claims) return false;
    // Time and session binding are checked on every call, cached signature or not.
    const seconds = now / 1000;
    if (claims.exp <= seconds) return false;
    if (claims.nbf !== null && claims.nbf > seconds) return false;
    return (
      claims.typ === 'trade' &&
      claims.sub === session.subjectId &&
      claims.sid === session.tokenHash.slice(0, 24)
    );
  } catch {
    return false;
  }
}
