import type { TEngineEvent } from '@broker/domain/trading/engine/events';
import { newId } from '../../ids';
import { submitOrThrow } from '../trading';
import type { TCopyPorts } from './ports';

/**
 * Leader fees (docs/copy-trading.md, "Leader fees"): the engine settles one copy at a time
 * (`settle_copy_fee`: the profit above the high-water mark times the fee locked at the start, as one
 * ledger transaction from the copy account to the leader's), keyed by the copy and the period so a
 * period settles once whatever is retried; this module records each settlement and runs them weekly,
 * on Sunday 00:00 GMT+8 (the spec's week), and when a copy stops.
 */

const WEEK_MS = 7 * 86_400_000;
/** Saturday 3 January 1970, 16:00 UTC: a Sunday 00:00 in GMT+8. */
const FIRST_WEEK_END = Date.UTC(1970, 0, 3, 16);

/** The latest period end at or before `now`: Sunday 00:00 GMT+8, or a multiple of `periodMs` when set (tests, demos). */
export function lastPeriodEnd(now: number, periodMs: number | null = null): number {
  if (periodMs !== null) return Math.floor(now / periodMs) * periodMs;
  return FIRST_WEEK_END + Math.floor((now - FIRST_WEEK_END) / WEEK_MS) * WEEK_MS;
}

export function nextPeriodEnd(now: number, periodMs: number | null = null): number {
  return lastPeriodEnd(now, periodMs) + (periodMs ?? WEEK_MS);
}

export interface TSettled {
  fee: number;
  credited: number;
  profit: number;
  markBefore: number;
  markAfter: number;
}

type TFeeEvent = Extract<TEngineEvent, { type: 'copy_fee_settled' }>;

/**
 * Records the fee settlements among committed engine events (a weekly one, or one made as a copy
 * stopped: by the follower, or by its own copy stop-loss or take-profit on a tick). A settlement that
 * moved nothing and left the mark is not recorded (most weeks of a losing copy). The period key is
 * the event's reason and time, so the use case that made it and the event listener write it once.
 */
export async function recordSettlements(ports: TCopyPorts, events: readonly TEngineEvent[]): Promise<void> {
  for (const event of events) {
    if (event.type !== 'copy_fee_settled') continue;
    if (event.fee === 0 && event.markAfter === event.markBefore) continue;
    const follower = ports.host.ownerOf(event.accountId);
    const leader = ports.host.ownerOf(event.leaderAccountId);
    if (!follower) continue;
    await ports.db
      .insertInto('copy_fee_settlements')
      .values({
        id: newId(),
        tenant_id: follower.tenantId,
        copy_account_id: event.accountId,
        leader_account_id: event.leaderAccountId,
        follower_user_id: follower.userId,
        leader_user_id: leader?.userId ?? '',
        kind: event.reason === 'period' ? 'weekly' : 'stop',
        period_key: `${event.reason}:${event.time}`,
        profit: event.profit,
        mark_before: event.markBefore,
        mark_after: event.markAfter,
        fee: event.fee,
        currency: ports.host.core.account(event.accountId)?.currency ?? '',
        credited: event.credited,
        leader_currency: ports.host.core.account(event.leaderAccountId)?.currency ?? '',
        ledger_tx_id: event.ledgerTxId,
      })
      .onConflict((oc) => oc.columns(['copy_account_id', 'period_key']).doNothing())
      .execute();
  }
}

export const settledOf = (events: readonly TEngineEvent[]): TSettled | undefined => {
  const event = events.find((e): e is TFeeEvent => e.type === 'copy_fee_settled');
  return event
    ? {
        fee: event.fee,
        credited: event.credited,
        profit: event.profit,
        markBefore: event.markBefore,
        markAfter: event.markAfter,
      }
    : undefined;
};

/**
 * Settles one running copy's fee for one period (`periodKey`: a repeat answers the first settlement)
 * and records it. Undefined when the copy has no running relation.
 */
export async function settleCopyFee(
  ports: TCopyPorts,
  input: { copyAccountId: number; periodKey: string },
): Promise<TSettled | undefined> {
  if (!ports.host.core.copyRelation(input.copyAccountId)) return undefined;
  const result = await submitOrThrow(ports.host, {
    type: 'settle_copy_fee',
    clientKey: `copyfee:${input.periodKey}`,
    time: Date.now(),
    accountId: input.copyAccountId,
  });
  await recordSettlements(ports, result.events);
  return settledOf(result.events);
}

/**
 * Keeps the settlement record of fees the engine charges on its own (a copy stop-loss or take-profit
 * reached on a tick ends the relation and settles it): a listener on the committed events.
 */
export function recordFeesAsTheyHappen(ports: TCopyPorts): () => void {
  return ports.host.onEvents((events) => {
    if (!events.some((e) => e.type === 'copy_fee_settled')) return;
    recordSettlements(ports, events).catch((error: unknown) =>
      ports.log?.warn({ err: error }, 'copy fee settlement not recorded'),
    );
  });
}

/**
 * Settles every running copy that started before the period end `at`. Each copy is its own engine
 * command: one that fails (no price for a conversion) is logged and settled at the next period.
 */
export async function settlePeriod(
  ports: TCopyPorts,
  at: number,
): Promise<{ settled: number; fees: number }> {
  const periodKey = new Date(at).toISOString();
  let settled = 0;
  let fees = 0;
  for (const id of ports.host.core.accountIds()) {
    const relation = ports.host.core.copyRelation(id);
    if (!relation || relation.createdAt >= at) continue;
    const owner = ports.host.ownerOf(id);
    if (!owner) continue;
    try {
      const result = await settleCopyFee(ports, { copyAccountId: id, periodKey: `${id}:${periodKey}` });
      if (result) {
        settled++;
        if (result.fee > 0) fees++;
      }
    } catch (error) {
      ports.log?.warn({ err: error, copyAccountId: id }, 'copy fee settlement failed');
    }
  }
  return { settled, fees };
}

/**
 * Runs the weekly settlement at each period end, and at start the last one a stopped server may
 * have missed (the keys make a repeat a no-op). `periodMs` shortens the week for tests and demos.
 */
export class CopyFeeSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly ports: TCopyPorts,
    private readonly periodMs: number | null = null,
  ) {}

  private unlisten: (() => void) | null = null;

  async start(): Promise<void> {
    this.stopped = false;
    this.unlisten = recordFeesAsTheyHappen(this.ports);
    this.running = settlePeriod(this.ports, lastPeriodEnd(Date.now(), this.periodMs));
    await this.running;
    this.arm();
  }

  private arm(): void {
    if (this.stopped) return;
    const at = nextPeriodEnd(Date.now(), this.periodMs);
    // a timer holds at most ~24.8 days; a week fits
    this.timer = setTimeout(
      () => {
        this.running = settlePeriod(this.ports, at).finally(() => this.arm());
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }
}
