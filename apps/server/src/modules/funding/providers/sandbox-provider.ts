import { join } from 'node:path';
import { Journal } from './journal';
import { drawMs, randomHex, Timers, type TSandboxSettings } from './sandbox-runtime';
import type {
  TDepositStart,
  TDepositStarted,
  TPaymentProvider,
  TPayoutStart,
  TProviderEvent,
  TProviderKind,
  TProviderRecord,
} from './types';
import { type TOutboxEntry, WebhookOutbox } from './webhook-outbox';
import { sandboxWebhookSecret, type TSandboxWireEvent, verifySandboxWebhook } from './webhook-signing';

/** A payout as the sandbox keeps it. */
export interface TSandboxPayout {
  withdrawalId: string;
  tenantId: string;
  userId: string;
  amount: number;
  currency: string;
  destination: string;
  sourceRef: string | null;
  network: 'trc20' | 'erc20' | null;
  providerRef: string;
  createdAt: number;
  dueAt: number;
  status: 'pending' | 'completed' | 'failed';
  reason: string | null;
  finishedAt: number | null;
}

/** Journal lines every provider writes; a provider's own lines must not start with `payout.` or `webhook.`. */
type TBaseEntry =
  | TOutboxEntry
  | { op: 'payout.started'; payout: TSandboxPayout }
  | {
      op: 'payout.finished';
      withdrawalId: string;
      status: 'completed' | 'failed';
      reason: string | null;
      at: number;
      events: TSandboxWireEvent[];
    };

/** A journal line: one change and the events it makes, written together (one fsync'd line). */
export interface TProviderEntry {
  op: string;
  events?: TSandboxWireEvent[];
}

type TEventEnvelope = 'id' | 'object' | 'provider' | 'created' | 'livemode';
/** An event before the provider stamps its id, time and name on it. */
export type TEventDraft = TSandboxWireEvent extends infer E
  ? E extends TSandboxWireEvent
    ? Omit<E, TEventEnvelope>
    : never
  : never;

const DAY_MS = 86_400_000;

/** A positive whole number of minor units, or a programming error. */
export function assertMinorUnits(amount: number, what = 'amount'): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new Error(`${what} must be a positive whole number of minor units, got ${amount}`);
}

/**
 * What the four sandbox providers share: their journal (`<dataDir>/sandbox-payments/<id>.jsonl`),
 * replayed at creation through the same `apply` that live changes go through, so a provider after a
 * restart is the provider before it; their webhook outbox; idempotent payouts, finished after
 * `payoutDelayMs`; and their records for reconciliation. A concrete provider calls `load()` last in
 * its constructor.
 */
export abstract class SandboxProvider<TEntry extends TProviderEntry> implements TPaymentProvider {
  abstract readonly kind: TProviderKind;
  abstract readonly methods: readonly string[];
  abstract readonly currency: string;

  protected readonly timers: Timers;
  protected readonly payouts = new Map<string, TSandboxPayout>();
  private readonly outbox: WebhookOutbox;
  private readonly journal: Journal<TEntry | TBaseEntry>;
  private replaying: (TEntry | TBaseEntry)[];
  private readonly secret: string;
  private readonly booked: TProviderRecord[] = [];

  constructor(
    readonly id: string,
    protected readonly settings: TSandboxSettings,
  ) {
    this.secret = sandboxWebhookSecret(settings.secret, id);
    this.timers = new Timers(settings.log);
    const opened = Journal.open<TEntry | TBaseEntry>(
      join(settings.dataDir, 'sandbox-payments', `${id}.jsonl`),
      settings.log,
    );
    this.journal = opened.journal;
    this.replaying = opened.entries;
    this.outbox = new WebhookOutbox({
      providerId: id,
      secret: this.secret,
      settings,
      timers: this.timers,
      record: (entry) => {
        if (!this.journal.closed) this.journal.append(entry);
      },
    });
  }

  abstract startDeposit(input: TDepositStart): Promise<TDepositStarted>;

  /** Applies one of the provider's own journal lines to its state (live and on replay alike). */
  protected abstract apply(entry: TEntry): void;
  /** After the replay: re-arms the provider's own timers (expiries, credits, blocks). */
  protected abstract resume(): void;
  /** The provider's reference for a new payout. */
  protected abstract payoutRef(payout: TPayoutStart): string;
  /** Why the payout fails (a documented test destination, an unusable source), or null. */
  protected abstract payoutFailure(payout: TSandboxPayout): string | null;

  verifyWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): TProviderEvent {
    return verifySandboxWebhook({
      secret: this.secret,
      providerId: this.id,
      rawBody,
      headers,
      now: this.settings.now(),
    });
  }

  async startPayout(input: TPayoutStart): Promise<{ providerRef: string }> {
    assertMinorUnits(input.amount);
    if (!input.withdrawalId) throw new Error('withdrawalId is required');
    const known = this.payouts.get(input.withdrawalId);
    if (known) {
      if (
        known.amount !== input.amount ||
        known.currency !== input.currency ||
        known.destination !== input.destination
      )
        throw new Error(`${this.id}: payout ${input.withdrawalId} was already started with other details`);
      return { providerRef: known.providerRef };
    }
    const now = this.settings.now();
    const payout: TSandboxPayout = {
      withdrawalId: input.withdrawalId,
      tenantId: input.tenantId,
      userId: input.userId,
      amount: input.amount,
      currency: input.currency,
      destination: input.destination,
      sourceRef: input.sourceRef,
      network: input.network ?? null,
      providerRef: this.payoutRef(input),
      createdAt: now,
      dueAt: now + drawMs(this.settings, this.settings.payoutDelayMs),
      status: 'pending',
      reason: null,
      finishedAt: null,
    };
    this.commit({ op: 'payout.started', payout });
    this.armPayout(payout);
    return { providerRef: payout.providerRef };
  }

  async records(day: string): Promise<TProviderRecord[]> {
    const start = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN;
    if (Number.isNaN(start)) throw new Error(`records: a UTC day as YYYY-MM-DD, got ${day}`);
    return this.booked
      .filter((record) => record.at.getTime() >= start && record.at.getTime() < start + DAY_MS)
      .map((record) => ({ ...record, at: new Date(record.at) }));
  }

  /** Webhook events made and not yet answered with 2xx. */
  get pendingWebhooks(): number {
    return this.outbox.pendingCount;
  }

  stop(): void {
    this.timers.stop();
    this.outbox.stop();
    this.journal.close();
  }

  /** Replays the journal, then resumes timers, unfinished payouts and undelivered webhooks. */
  protected load(): void {
    for (const entry of this.replaying) this.applyEntry(entry, false);
    this.replaying = [];
    this.resume();
    for (const payout of this.payouts.values()) if (payout.status === 'pending') this.armPayout(payout);
    this.outbox.resume();
  }

  /** Journals a change with its events (one synced line), applies it, and sends the events. */
  protected commit(entry: TEntry | TBaseEntry): void {
    if (this.timers.isStopped) throw new Error(`${this.id} is stopped`);
    this.journal.append(entry);
    this.applyEntry(entry, true);
  }

  /** An event of this provider, stamped now. */
  protected event(draft: TEventDraft): TSandboxWireEvent {
    return {
      ...draft,
      id: `evt_${randomHex(12)}`,
      object: 'event',
      provider: this.id,
      created: this.settings.now(),
      livemode: false,
    } as TSandboxWireEvent;
  }

  private applyEntry(entry: TEntry | TBaseEntry, live: boolean): void {
    const base = entry as TBaseEntry;
    switch (base.op) {
      case 'webhook.delivered':
      case 'webhook.attempt_failed':
      case 'webhook.abandoned':
        if (!live) this.outbox.restoreOutcome(base);
        return;
      case 'payout.started':
        this.payouts.set(base.payout.withdrawalId, { ...base.payout });
        break;
      case 'payout.finished': {
        const payout = this.payouts.get(base.withdrawalId);
        if (payout) Object.assign(payout, { status: base.status, reason: base.reason, finishedAt: base.at });
        break;
      }
      default:
        this.apply(entry as TEntry);
    }
    for (const event of (entry as TProviderEntry).events ?? []) {
      this.record(event);
      if (live) this.outbox.send(event);
      else this.outbox.restore(event);
    }
  }

  /** Completed money in and out, for `records`. */
  private record(event: TSandboxWireEvent): void {
    if (event.type === 'deposit.succeeded')
      this.booked.push({
        reference: event.data.depositId,
        direction: 'in',
        amount: event.data.amount,
        currency: event.data.currency,
        at: new Date(event.created),
      });
    else if (event.type === 'payout.completed') {
      const payout = this.payouts.get(event.data.withdrawalId);
      if (payout)
        this.booked.push({
          reference: payout.withdrawalId,
          direction: 'out',
          amount: payout.amount,
          currency: payout.currency,
          at: new Date(event.created),
        });
    }
  }

  private armPayout(payout: TSandboxPayout): void {
    this.timers.after(payout.dueAt - this.settings.now(), () => this.finishPayout(payout.withdrawalId));
  }

  private finishPayout(withdrawalId: string): void {
    const payout = this.payouts.get(withdrawalId);
    if (payout?.status !== 'pending') return;
    const reason = this.payoutFailure(payout);
    this.commit({
      op: 'payout.finished',
      withdrawalId,
      status: reason ? 'failed' : 'completed',
      reason,
      at: this.settings.now(),
      events: [
        this.event({
          type: reason ? 'payout.failed' : 'payout.completed',
          sequence: 1,
          data: { withdrawalId, providerRef: payout.providerRef, reason },
        }),
      ],
    });
  }
}
