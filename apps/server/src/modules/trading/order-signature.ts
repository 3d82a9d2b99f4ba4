import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';

const NONCE_WINDOW_MS = 60_000;

/** Order-signing keys by session cipher key (base64), made once per session rather than per order. */
const signingKeys = new Map<string, KeyObject>();
function signingKey(cipherKey: string): KeyObject {
  let key = signingKeys.get(cipherKey);
  if (!key) {
    if (signingKeys.size >= 10_000) signingKeys.clear();
    key = createSecretKey(Buffer.from(cipherKey, 'base64'));
    signingKeys.set(cipherKey, key);
  }
  return key;
}

/** The text signed by an opening order (spec 7.9); the portal builds the same. */
export function orderSigningMessage(o: {
  openLot: string;
  side: string;
  accountId: number;
  leverage: number;
  symbol: string;
  nonce: string;
}): string {
  return `${o.openLot}|${o.side}|${o.accountId}|${o.leverage}|${o.symbol}|${o.nonce}`;
}

/**
 * Spec 7.9: an opening order from a trader's session carries an HMAC-SHA256 under the session's
 * cipher key over open_lot, side, account_id, leverage, symbol_id and a nonce of the last 60 s.
 * Answers the nonce's key (single use, claimed by the caller). A user actor without a session
 * cannot open orders; other actors (system, API key, bridge) are authenticated otherwise and sign
 * nothing: undefined.
 */
export function checkOrderSignature(
  actor: TActor,
  view: TAccountView,
  input: {
    volume: string;
    side: string;
    symbol: string;
    nonce?: string | undefined;
    signature?: string | undefined;
  },
  now: number,
): string | undefined {
  if (actor.kind !== 'user') return undefined;
  const key = actor.session?.cipherKey;
  if (!actor.session || !key || !input.nonce || !input.signature)
    throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
  const message = orderSigningMessage({
    openLot: input.volume,
    side: input.side,
    accountId: view.accountId,
    leverage: view.leverage,
    symbol: input.symbol.toUpperCase(),
    nonce: input.nonce,
  });
  const expected = createHmac('sha256', signingKey(key)).update(message).digest();
  const given = Buffer.from(input.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
  const stamp = Number(input.nonce.slice(0, 13));
  if (Math.abs(now - stamp) > NONCE_WINDOW_MS) throw new AppError(AppErrorCode.ORDER_SIGNATURE_INVALID);
  return `${actor.session.tokenHash.slice(0, 16)}:${input.nonce}`;
}
