import { newId } from '../../ids';
import { confirmingDeposit, creditDeposit, failDeposit } from './deposits';
import type { TFundingPorts } from './ports';
import { type TProviderEvent, WebhookRefused } from './providers/types';
import { payoutResult } from './withdrawals';

export type TWebhookAnswer = { status: number; outcome: string };

/**
 * One webhook delivery: verified by its provider (signature over the raw body, timestamp window),
 * recorded once per provider event id (so duplicates and retries change nothing), then applied.
 * A forged, stale or malformed delivery is refused with 400 and recorded; an unknown provider is 404.
 * A failure while applying answers 500 and forgets the event, so the provider's retry applies it.
 */
export async function receiveWebhook(
  ports: TFundingPorts,
  input: {
    providerId: string;
    rawBody: string;
    headers: Record<string, string | string[] | undefined>;
    ip: string | null;
  },
): Promise<TWebhookAnswer> {
  const { db } = ports;
  const provider = ports.providers.get(input.providerId);
  const refuse = async (reason: string, status: number) => {
    await db
      .insertInto('webhook_refusals')
      .values({
        id: newId(),
        provider: input.providerId.slice(0, 64),
        reason,
        ip: input.ip,
        body_excerpt: input.rawBody.slice(0, 500),
      })
      .execute();
    ports.log?.warn({ provider: input.providerId, reason, ip: input.ip }, 'webhook refused');
    return { status, outcome: reason };
  };
  if (!provider) return refuse('unknown_provider', 404);
  let event: TProviderEvent;
  try {
    event = provider.verifyWebhook(input.rawBody, input.headers);
  } catch (error) {
    if (error instanceof WebhookRefused) return refuse(error.reason, 400);
    return refuse('malformed', 400);
  }
  const recorded = await db
    .insertInto('webhook_events')
    .values({
      provider: provider.id,
      event_id: event.eventId,
      event_type: event.type,
      payload: JSON.stringify(event),
      outcome: 'applying',
    })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  if (!recorded) return { status: 200, outcome: 'duplicate' };
  try {
    const outcome = await applyEvent(ports, provider.id, event);
    await db
      .updateTable('webhook_events')
      .set({ outcome })
      .where('provider', '=', provider.id)
      .where('event_id', '=', event.eventId)
      .execute();
    return { status: 200, outcome };
  } catch (error) {
    ports.log?.error({ err: error, provider: provider.id, event: event.eventId }, 'webhook apply failed');
    await db
      .deleteFrom('webhook_events')
      .where('provider', '=', provider.id)
      .where('event_id', '=', event.eventId)
      .execute();
    return { status: 500, outcome: 'retry' };
  }
}

async function applyEvent(ports: TFundingPorts, providerId: string, event: TProviderEvent): Promise<string> {
  switch (event.type) {
    case 'deposit.succeeded':
      return creditDeposit(ports, event);
    case 'deposit.confirming':
      return confirmingDeposit(ports, event);
    case 'deposit.failed':
      return failDeposit(ports, event);
    case 'payout.completed':
    case 'payout.failed':
      return payoutResult(ports, {
        withdrawalId: event.withdrawalId,
        providerRef: event.providerRef,
        completed: event.type === 'payout.completed',
        reason: event.reason,
      });
    case 'payment.unmatched':
      return unmatchedPayment(ports, providerId, event);
  }
}

/** Money without a matching deposit: kept for staff, with the likeliest deposit suggested. */
async function unmatchedPayment(
  ports: TFundingPorts,
  providerId: string,
  event: Extract<TProviderEvent, { type: 'payment.unmatched' }>,
) {
  const { db } = ports;
  // An address or reference we issued tells the broker, and suggests that trader's latest deposit.
  const match = await db
    .selectFrom('deposits')
    .select(['id', 'tenant_id', 'method'])
    .where((eb) => eb.or([eb('address', '=', event.reference), eb('reference', '=', event.reference)]))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  await db
    .insertInto('unmatched_payments')
    .values({
      id: newId(),
      tenant_id: match?.tenant_id ?? null,
      provider: providerId,
      method:
        match?.method ??
        (providerId === 'sandboxbank'
          ? 'bank'
          : event.reference.startsWith('0x')
            ? 'usdt_erc20'
            : event.reference.startsWith('T')
              ? 'usdt_trc20'
              : 'card'),
      amount: event.amount,
      currency: event.currency,
      reference: event.reference,
      provider_ref: event.providerRef,
      suggested_deposit_id: match?.id ?? null,
    })
    .onConflict((oc) => oc.columns(['provider', 'provider_ref']).doNothing())
    .execute();
  return 'unmatched';
}
