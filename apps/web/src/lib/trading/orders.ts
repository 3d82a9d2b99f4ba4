import type { TRouteInput } from '@broker/contracts/routes';
import { callRoute } from '../api';
import { currentIdentity, ensureIdentity } from '../client';

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** A fresh idempotency key for one user action (a retry of the same action reuses it). */
export const newIdempotencyKey = () => crypto.randomUUID();

/**
 * Spec 7.9: an opening order is signed over open_lot, side, account_id, leverage, symbol_id and a
 * nonce, with HMAC-SHA256 under the session's cipher key (the server checks the same).
 */
export async function signOrder(o: {
  volume: string;
  side: 'buy' | 'sell';
  accountId: number;
  leverage: number;
  symbol: string;
}): Promise<{ nonce: string; signature: string }> {
  await ensureIdentity();
  const identity = currentIdentity();
  if (!identity) throw new Error('not signed in');
  const random = [...crypto.getRandomValues(new Uint8Array(8))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
  const nonce = `${Date.now()}-${random}`;
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(identity.cipherKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const message = `${o.volume}|${o.side}|${o.accountId}|${o.leverage}|${o.symbol}|${nonce}`;
  const signature = hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)));
  return { nonce, signature };
}

type TSendInput = Omit<TRouteInput<'ordersend'>, 'nonce' | 'signature' | 'idempotencyKey'> & {
  idempotencyKey?: string;
};

/** Sends a signed order (market or pending) with the trade token. */
export async function sendOrder(input: TSendInput, leverage: number, lang: string) {
  const signed = await signOrder({
    volume: input.volume,
    side: input.side,
    accountId: Number(input.account_id),
    leverage,
    symbol: input.symbol.toUpperCase(),
  });
  return callRoute(
    'ordersend',
    { ...input, idempotencyKey: input.idempotencyKey ?? newIdempotencyKey(), ...signed },
    lang,
    { trade: true },
  );
}
