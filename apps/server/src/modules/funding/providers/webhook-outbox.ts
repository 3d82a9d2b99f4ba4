import { drawMs, type Timers, type TSandboxSettings } from './sandbox-runtime';
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signSandboxWebhook,
  type TSandboxWireEvent,
} from './webhook-signing';

/** What the outbox journals about its deliveries (in the provider's journal). */
export type TOutboxEntry =
  | { op: 'webhook.delivered'; eventId: string; at: number }
  | { op: 'webhook.attempt_failed'; eventId: string; attempt: number; error: string; at: number }
  | { op: 'webhook.abandoned'; eventId: string; attempts: number; at: number };

interface TDelivery {
  event: TSandboxWireEvent;
  body: string;
  /** The payment the event is about: deliveries of one payment are kept in (or out of) order. */
  payment: string;
  attempts: number;
  dueAt: number;
  sending: boolean;
}

const DELIVERY_TIMEOUT_MS = 10_000;
/** First sends of one payment are spaced at least this much, in order or (reordering) in reverse. */
const ORDER_GAP_MS = 5;

const paymentOf = (event: TSandboxWireEvent) =>
  'depositId' in event.data
    ? `deposit:${event.data.depositId}`
    : 'withdrawalId' in event.data
      ? `payout:${event.data.withdrawalId}`
      : `ref:${event.data.providerRef}`;

/**
 * Delivers a provider's events to its webhook URL as a real provider does: after a short delay,
 * signed, retried with exponential back-off on a non-2xx answer or a network error (at most
 * `maxAttempts` tries), now and then twice (`duplicateRate`), and, when asked, the events of one
 * payment that are due together in reverse order. Every event is journaled (by the provider, with
 * the change that made it) before it is handed here, and its delivery is journaled once answered
 * with 2xx: an event not known delivered is sent again after a restart (at least once, same id).
 */
export class WebhookOutbox {
  private readonly owed = new Map<string, TDelivery>();
  /** Per payment, the tail of its deliveries: one POST of a payment in flight at a time. */
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly o: {
      providerId: string;
      secret: string;
      settings: TSandboxSettings;
      timers: Timers;
      record: (entry: TOutboxEntry) => void;
    },
  ) {}

  /** While replaying the journal: an event was made. */
  restore(event: TSandboxWireEvent): void {
    this.owed.set(event.id, this.delivery(event));
  }

  /** While replaying the journal: what became of a delivery. */
  restoreOutcome(entry: TOutboxEntry): void {
    if (entry.op === 'webhook.attempt_failed') {
      const delivery = this.owed.get(entry.eventId);
      if (delivery) delivery.attempts = entry.attempt;
    } else this.owed.delete(entry.eventId);
  }

  /** After the replay: sends what is still owed, oldest first. */
  resume(): void {
    const owed = [...this.owed.values()].sort((a, b) => a.event.created - b.event.created);
    for (const delivery of owed) this.schedule(delivery, { first: delivery.attempts === 0 });
  }

  /** A new event, already journaled. */
  send(event: TSandboxWireEvent): void {
    const delivery = this.delivery(event);
    this.owed.set(event.id, delivery);
    this.schedule(delivery, { first: true });
  }

  /** Events not yet answered with 2xx. */
  get pendingCount(): number {
    return this.owed.size;
  }

  stop(): void {
    this.abort.abort();
  }

  private delivery(event: TSandboxWireEvent): TDelivery {
    return {
      event,
      body: JSON.stringify(event),
      payment: paymentOf(event),
      attempts: 0,
      dueAt: 0,
      sending: false,
    };
  }

  private schedule(delivery: TDelivery, how: { first: boolean; afterMs?: number }) {
    const { settings } = this.o;
    const now = settings.now();
    let dueAt = now + (how.afterMs ?? drawMs(settings, settings.webhookDelayMs));
    if (how.first) {
      // Other first sends of the same payment still waiting: go after them, or before when reordering.
      const waiting = [...this.owed.values()]
        .filter((d) => d !== delivery && d.payment === delivery.payment && d.attempts === 0 && !d.sending)
        .map((d) => d.dueAt);
      if (waiting.length > 0)
        dueAt = settings.reorder
          ? Math.max(now, Math.min(dueAt, Math.min(...waiting) - ORDER_GAP_MS))
          : Math.max(dueAt, Math.max(...waiting) + ORDER_GAP_MS);
    }
    delivery.dueAt = dueAt;
    this.o.timers.after(dueAt - now, () => this.deliver(delivery));
  }

  /**
   * Queues a try behind the payment's one in flight, so that the events of a payment arrive in the
   * order their timers fire (which the spacing in `schedule` sets), not in the order of a race.
   */
  private deliver(delivery: TDelivery): Promise<void> {
    const lane = (this.lanes.get(delivery.payment) ?? Promise.resolve()).then(() => this.attempt(delivery));
    this.lanes.set(delivery.payment, lane);
    const release = () => {
      if (this.lanes.get(delivery.payment) === lane) this.lanes.delete(delivery.payment);
    };
    lane.then(release, release);
    return lane;
  }

  private async attempt(delivery: TDelivery): Promise<void> {
    if (delivery.sending || this.owed.get(delivery.event.id) !== delivery) return;
    delivery.sending = true;
    const outcome = await this.post(delivery);
    delivery.sending = false;
    const { settings, timers } = this.o;
    if (timers.isStopped) return;
    const at = settings.now();
    if (outcome === 'ok') {
      this.owed.delete(delivery.event.id);
      this.o.record({ op: 'webhook.delivered', eventId: delivery.event.id, at });
      if (settings.random() < settings.duplicateRate)
        timers.after(drawMs(settings, settings.webhookDelayMs), async () => {
          await this.post(delivery);
        });
      return;
    }
    delivery.attempts += 1;
    if (delivery.attempts >= settings.maxAttempts) {
      this.owed.delete(delivery.event.id);
      this.o.record({ op: 'webhook.abandoned', eventId: delivery.event.id, attempts: delivery.attempts, at });
      settings.log?.warn(
        {
          provider: this.o.providerId,
          eventId: delivery.event.id,
          attempts: delivery.attempts,
          error: outcome,
        },
        'sandbox webhook abandoned after the last attempt',
      );
      return;
    }
    this.o.record({
      op: 'webhook.attempt_failed',
      eventId: delivery.event.id,
      attempt: delivery.attempts,
      error: outcome,
      at,
    });
    const backoff = Math.min(settings.retryBaseMs * 2 ** (delivery.attempts - 1), settings.retryCapMs);
    this.schedule(delivery, { first: false, afterMs: backoff });
  }

  /** One POST; answers 'ok' for a 2xx, else what went wrong. */
  private async post(delivery: TDelivery): Promise<'ok' | string> {
    const { settings } = this.o;
    try {
      const response = await fetch(settings.webhookUrl(this.o.providerId), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'SandboxPay-Webhooks/1.0',
          [SIGNATURE_HEADER]: signSandboxWebhook(this.o.secret, delivery.body, settings.now()),
          [EVENT_ID_HEADER]: delivery.event.id,
        },
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.ok ? 'ok' : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : 'network error';
    }
  }
}
