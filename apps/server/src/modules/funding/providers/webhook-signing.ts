import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type TProviderEvent, WebhookRefused } from './types';

/**
 * The sandbox providers' webhook format, modelled on Stripe's: the body is a JSON event, signed over
 * `t + "." + rawBody` with HMAC-SHA256 under a secret of each provider's own. docs/funding-providers.md.
 */
export const SIGNATURE_HEADER = 'x-sandbox-signature';
export const EVENT_ID_HEADER = 'x-sandbox-event-id';
/** How far the signing time may be from ours, either way (replays of old deliveries are refused). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

const id = z.string().min(1).max(200);
const money = { amount: z.number().int(), currency: z.string().min(1).max(12) };
const envelope = {
  id: z.string().regex(/^evt_[0-9a-f]{8,64}$/),
  object: z.literal('event'),
  provider: z.string().min(1).max(64),
  /** Unix milliseconds the event happened at. */
  created: z.number().int().nonnegative(),
  sequence: z.number().int().nonnegative(),
  livemode: z.literal(false),
};
const payout = z.object({ withdrawalId: id, providerRef: id, reason: z.string().max(100).nullable() });

/** A webhook body as sent. */
export const ZSandboxWireEvent = z.discriminatedUnion('type', [
  z.object({
    ...envelope,
    type: z.literal('deposit.succeeded'),
    data: z.object({ depositId: id, providerRef: id, ...money }),
  }),
  z.object({
    ...envelope,
    type: z.literal('deposit.failed'),
    data: z.object({ depositId: id, providerRef: id, reason: z.string().min(1).max(100) }),
  }),
  z.object({
    ...envelope,
    type: z.literal('deposit.confirming'),
    data: z.object({ depositId: id, providerRef: id, ...money, confirmations: z.number().int().positive() }),
  }),
  z.object({
    ...envelope,
    type: z.literal('payment.unmatched'),
    data: z.object({ providerRef: id, reference: z.string().max(500), ...money }),
  }),
  z.object({ ...envelope, type: z.literal('payout.completed'), data: payout }),
  z.object({ ...envelope, type: z.literal('payout.failed'), data: payout }),
]);
export type TSandboxWireEvent = z.infer<typeof ZSandboxWireEvent>;

/** The webhook secret of one provider, derived from the sandbox's master secret. */
export function sandboxWebhookSecret(masterSecret: string, providerId: string): string {
  return createHmac('sha256', masterSecret).update(`sandbox-webhook:${providerId}`).digest('hex');
}

const hmac = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

/** The `x-sandbox-signature` value for a body signed at `t` (unix ms): `t=<t>,v1=<hex>`. */
export function signSandboxWebhook(secret: string, body: string, t: number): string {
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
};

/** The event a webhook body carries, in the funding module's terms. */
export function toProviderEvent(wire: TSandboxWireEvent): TProviderEvent {
  const common = { eventId: wire.id, sequence: wire.sequence, occurredAt: new Date(wire.created) };
  switch (wire.type) {
    case 'deposit.succeeded':
      return { type: wire.type, ...common, ...wire.data };
    case 'deposit.failed':
      return { type: wire.type, ...common, ...wire.data };
    case 'deposit.confirming':
      return { type: wire.type, ...common, ...wire.data };
    case 'payment.unmatched':
      return { type: wire.type, ...common, ...wire.data };
    case 'payout.completed':
    case 'payout.failed':
      return { type: wire.type, ...common, ...wire.data };
  }
}

/**
 * Checks one delivery: the signature header's shape, then the signature in constant time (any of
 * several `v1`, for a secret being rotated), then the signing time, then the body. Throws
 * `WebhookRefused` with `malformed`, `bad_signature` or `stale`.
 */
export function verifySandboxWebhook(input: {
  secret: string;
  providerId: string;
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  now: number;
}): TProviderEvent {
  const signature = header(input.headers, SIGNATURE_HEADER);
  if (!signature || signature.length > 1000) throw new WebhookRefused('malformed');
  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of signature.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,16}$/.test(value)) t = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (t === null || candidates.length === 0) throw new WebhookRefused('malformed');
  const expected = Buffer.from(hmac(input.secret, t, input.rawBody), 'hex');
  let matched = false;
  for (const candidate of candidates)
    matched = timingSafeEqual(expected, Buffer.from(candidate, 'hex')) || matched;
  if (!matched) throw new WebhookRefused('bad_signature');
  if (Math.abs(input.now - t) > SIGNATURE_TOLERANCE_MS) throw new WebhookRefused('stale');
  let body: unknown;
  try {
    body = JSON.parse(input.rawBody);
  } catch {
    throw new WebhookRefused('malformed');
  }
  const parsed = ZSandboxWireEvent.safeParse(body);
  if (!parsed.success || parsed.data.provider !== input.providerId) throw new WebhookRefused('malformed');
  const eventId = header(input.headers, EVENT_ID_HEADER);
  if (eventId !== undefined && eventId !== parsed.data.id) throw new WebhookRefused('malformed');
  return toProviderEvent(parsed.data);
}
