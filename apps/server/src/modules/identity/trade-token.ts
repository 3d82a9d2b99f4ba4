import { createDecipheriv, randomBytes } from 'node:crypto';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { jwtVerify, SignJWT } from 'jose';
import type { TSession } from './sessions';

export const TRADE_TOKEN_SECONDS = 30 * 60;
export const TRADE_TOKEN_REFRESH_AFTER_SECONDS = 20 * 60;

/** A fresh AES-256 key for a session (base64). */
export const newCipherKey = (): string => randomBytes(32).toString('base64');

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
  session: TSession;
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
  session: TSession;
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

/** Checks a `tradetoken` header against the caller's session; trading calls use it. */
export async function verifyTradeToken({
  secret,
  token,
  session,
}: {
  secret: Uint8Array;
  token: string;
  session: TSession;
}): Promise<void> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (
      payload.typ !== 'trade' ||
      payload.sub !== session.subjectId ||
      payload.sid !== session.tokenHash.slice(0, 24)
    )
      throw new Error('claims');
  } catch {
    throw new AppError(AppErrorCode.TOKEN_INVALID);
  }
}
