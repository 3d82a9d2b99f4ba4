import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId } from '../../../ids';
import { staffNames } from '../../access';
import { recordAudit } from '../../audit';
import { findUser, userNames } from '../../identity';
import {
  customerAccount,
  money,
  submitOrThrow,
  type TTradingPorts,
  thresholdFor,
  toScaled,
} from '../../trading';
import type { TAdjustmentStatus } from '../schema';
import { approvalThresholdUsdMinor } from '../threshold';

const WAITING: TAdjustmentStatus[] = ['pending', 'approving'];
const DECIDED: TAdjustmentStatus[] = ['approved', 'rejected', 'applied'];

function adjustmentQuery(db: TDb, tenantId: string) {
  return db.selectFrom('balance_adjustments as a').where('a.tenant_id', '=', tenantId);
}

type TAdjustmentRow = {
  id: string;
  user_id: string;
  account_id: string | number;
  amount: string | number;
  currency: string;
  reason: string;
  status: TAdjustmentStatus;
  requested_by: string;
  requested_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  reject_reason: string | null;
};

/**
 * The names the adjustments show, asked once for all of them: the customers' (identity) and the
 * requesting and deciding staff members' (access).
 */
async function namesOf(db: TDb, tenantId: string, rows: readonly TAdjustmentRow[]) {
  const [users, staff] = await Promise.all([
    userNames(db, { tenantId, ids: rows.map((r) => r.user_id) }),
    staffNames(db, {
      tenantId,
      ids: rows.flatMap((r) => (r.decided_by ? [r.requested_by, r.decided_by] : [r.requested_by])),
    }),
  ]);
  return { users, staff };
}

function adjustmentView(
  row: TAdjustmentRow,
  staffId: string,
  { users, staff }: Awaited<ReturnType<typeof namesOf>>,
) {
  return {
    id: row.id,
    userId: row.user_id,
    userName: users.get(row.user_id)?.name ?? '',
    accountId: Number(row.account_id),
    amount: money(Number(row.amount)),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    requestedBy: staff.get(row.requested_by)?.displayName ?? '',
    requestedAt: new Date(row.requested_at).toISOString(),
    decidedBy: row.decided_by ? (staff.get(row.decided_by)?.displayName ?? null) : null,
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    rejectReason: row.reject_reason,
    mine: row.requested_by === staffId,
  };
}

const COLUMNS = [
  'a.id',
  'a.user_id',
  'a.account_id',
  'a.amount',
  'a.currency',
  'a.reason',
  'a.status',
  'a.requested_by',
  'a.requested_at',
  'a.decided_by',
  'a.decided_at',
  'a.reject_reason',
] as const;

/** What the funding use cases work with: the engine (balances move through it) and the database. */
type TFundingPorts = TTradingPorts;

async function loadAdjustment(ports: TFundingPorts, actor: TActor, id: string) {
  const row = await adjustmentQuery(ports.db, actor.tenantId)
    .select(COLUMNS)
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return adjustmentView(row, actor.id, await namesOf(ports.db, actor.tenantId, [row]));
}

/** The broker's adjustments (waiting ones, decided ones, or all), newest first, with the threshold. */
export async function listAdjustments(
  ports: TFundingPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    status: 'pending' | 'decided' | 'all';
    userId?: string | undefined;
    page: number;
    size: number;
  },
) {
  const { db } = ports;
  let query = adjustmentQuery(db, actor.tenantId);
  if (input.status !== 'all')
    query = query.where('a.status', 'in', input.status === 'pending' ? WAITING : DECIDED);
  if (input.userId) query = query.where('a.user_id', '=', input.userId);
  const [count, rows, threshold] = await Promise.all([
    query.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    query
      .select(COLUMNS)
      .orderBy('a.requested_at', 'desc')
      .orderBy('a.id')
      .limit(input.size)
      .offset((input.page - 1) * input.size)
      .execute(),
    approvalThresholdUsdMinor(db, actor.tenantId),
  ]);
  const staffId = actor.id;
  const names = await namesOf(db, actor.tenantId, rows);
  return {
    items: rows.map((r) => adjustmentView(r, staffId, names)),
    total: Number(count.total),
    page: input.page,
    size: input.size,
    threshold: money(threshold),
  };
}

/**
 * Writes an adjustment to the ledger through the engine. The command's key is the adjustment id, so
 * a retry (or a second approver racing the first) can never apply it twice. On a refusal the row goes
 * back to where it was: a direct adjustment disappears, an approval returns to pending.
 */
async function applyAdjustment(
  ports: TFundingPorts,
  row: { id: string; account_id: string | number; amount: string | number },
  done: 'applied' | 'approved',
) {
  const { db } = ports;
  let txId: number | null = null;
  try {
    const result = await submitOrThrow(ports.host, {
      type: 'adjust_balance',
      clientKey: `staff-adjust:${row.id}`,
      time: Date.now(),
      accountId: Number(row.account_id),
      amount: Number(row.amount),
    });
    for (const event of result.events) if (event.type === 'ledger') txId = event.txId;
  } catch (error) {
    if (done === 'applied')
      await db
        .deleteFrom('balance_adjustments')
        .where('id', '=', row.id)
        .where('status', '=', 'approving')
        .execute();
    else
      await db
        .updateTable('balance_adjustments')
        .set({ status: 'pending', decided_by: null, decided_at: null })
        .where('id', '=', row.id)
        .where('status', '=', 'approving')
        .execute();
    throw error;
  }
  await db
    .updateTable('balance_adjustments')
    .set({ status: done, ledger_tx_id: txId })
    .where('id', '=', row.id)
    .where('status', '=', 'approving')
    .execute();
  return txId;
}

/**
 * A staff adjustment of a trading account's balance, with a reason. At or under the broker's
 * threshold (in the account currency) it is applied at once; above it, it waits for another staff
 * member. A negative adjustment may not take the balance below zero (-4001). The idempotency key is
 * per staff member: the same key answers the first adjustment (and finishes it if it was cut short).
 */
export async function requestAdjustment(
  ports: TFundingPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    userId: string;
    accountId: number;
    amount: string;
    reason: string;
    idempotencyKey: string;
  },
) {
  const { db } = ports;
  const user = await findUser(db, { tenantId: actor.tenantId, id: input.userId });
  const view = customerAccount(ports, actor, user.id, input.accountId);
  const amount = toScaled(input.amount, 2, 'amount', 'amountFormat');
  if (amount === 0) throw AppError.invalid({ amount: 'invalid' });
  const key = `${actor.id}:${input.idempotencyKey}`;
  const repeat = async () => {
    const existing = await db
      .selectFrom('balance_adjustments')
      .selectAll()
      .where('tenant_id', '=', actor.tenantId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (!existing) return null;
    if (
      existing.user_id !== user.id ||
      Number(existing.account_id) !== view.accountId ||
      Number(existing.amount) !== amount ||
      existing.reason !== input.reason
    )
      throw new AppError(AppErrorCode.IDEMPOTENCY_CONFLICT);
    if (existing.status === 'approving' && existing.decided_by === null)
      await applyAdjustment(ports, existing, 'applied');
    return loadAdjustment(ports, actor, existing.id);
  };
  const earlier = await repeat();
  if (earlier) return earlier;
  if (view.closed) throw new AppError(AppErrorCode.ACCOUNT_CLOSED);
  if (amount < 0 && view.balance + amount < 0) throw new AppError(AppErrorCode.INSUFFICIENT_FUNDS);
  const threshold = thresholdFor(ports.host, view, await approvalThresholdUsdMinor(db, actor.tenantId));
  const needsApproval = threshold !== null && Math.abs(amount) > threshold;
  const row = {
    id: newId(),
    tenant_id: actor.tenantId,
    user_id: user.id,
    account_id: view.accountId,
    amount,
    currency: view.currency,
    reason: input.reason,
    status: needsApproval ? ('pending' as const) : ('approving' as const),
    idempotency_key: key,
    requested_by: actor.id,
  };
  const inserted = await db
    .insertInto('balance_adjustments')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  // The same key arrived twice at once: the first one's row answers both.
  if (!inserted) return (await repeat()) ?? loadAdjustment(ports, actor, row.id);
  const audit = (action: string, txId: number | null) =>
    recordAudit(db, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action,
      target: String(view.accountId),
      ip: actor.ip,
      details: {
        adjustmentId: row.id,
        userId: user.id,
        amount: money(amount),
        currency: view.currency,
        reason: input.reason,
        ledgerTx: txId,
        threshold: threshold === null ? null : money(threshold),
      },
    });
  if (needsApproval) await audit('customers.adjust.request', null);
  else await audit('customers.adjust', await applyAdjustment(ports, row, 'applied'));
  return loadAdjustment(ports, actor, row.id);
}

async function decisionRow(ports: TFundingPorts, actor: TActor, id: string) {
  const row = await ports.db
    .selectFrom('balance_adjustments')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return row;
}

/**
 * Approves a waiting adjustment and applies it. Never by its requester (-6010); only while it waits
 * (-6011). The row is claimed ('approving') before the engine runs, so a rejection cannot slip in.
 */
export async function approveAdjustment(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  const { db } = ports;
  const row = await decisionRow(ports, actor, id);
  if (row.requested_by === actor.id) throw new AppError(AppErrorCode.APPROVAL_BY_REQUESTER);
  // An approval of this staff member that was cut short (crash) may be finished: the key is the id.
  const resuming = row.status === 'approving' && row.decided_by === actor.id;
  if (!resuming) {
    if (row.status !== 'pending') throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    const claimed = await db
      .updateTable('balance_adjustments')
      .set({ status: 'approving', decided_by: actor.id, decided_at: new Date() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  }
  const view = ports.host.core.account(Number(row.account_id));
  const amount = Number(row.amount);
  if (view && amount < 0 && view.balance + amount < 0 && !resuming) {
    await db
      .updateTable('balance_adjustments')
      .set({ status: 'pending', decided_by: null, decided_at: null })
      .where('id', '=', row.id)
      .where('status', '=', 'approving')
      .execute();
    throw new AppError(AppErrorCode.INSUFFICIENT_FUNDS);
  }
  const txId = await applyAdjustment(ports, row, 'approved');
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'customers.adjust.approve',
    target: String(row.account_id),
    ip: actor.ip,
    details: {
      adjustmentId: row.id,
      userId: row.user_id,
      amount: money(amount),
      currency: row.currency,
      requestedBy: row.requested_by,
      ledgerTx: txId,
    },
  });
  return loadAdjustment(ports, actor, row.id);
}

/**
 * Rejects a waiting adjustment with a short reason (at most 20 characters, as for rejected reviews,
 * spec 5). Its requester may withdraw it this way: a rejection moves no money.
 */
export async function rejectAdjustment(
  ports: TFundingPorts,
  { actor, ...input }: { actor: TActor; id: string; reason: string },
) {
  const { db } = ports;
  const row = await decisionRow(ports, actor, input.id);
  await db.transaction().execute(async (trx) => {
    const rejected = await trx
      .updateTable('balance_adjustments')
      .set({
        status: 'rejected',
        decided_by: actor.id,
        decided_at: new Date(),
        reject_reason: input.reason,
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(rejected.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'customers.adjust.reject',
      target: String(row.account_id),
      ip: actor.ip,
      details: {
        adjustmentId: row.id,
        userId: row.user_id,
        amount: money(Number(row.amount)),
        reason: input.reason,
      },
    });
  });
  return loadAdjustment(ports, actor, row.id);
}

/** Sets the broker's approval threshold (US dollars). */
export async function saveThreshold(
  ports: TFundingPorts,
  { actor, amount }: { actor: TActor; amount: string },
) {
  const minor = toScaled(amount, 2, 'amount', 'amountFormat');
  const { db } = ports;
  const before = await approvalThresholdUsdMinor(db, actor.tenantId);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('customer_settings')
      .values({ tenant_id: actor.tenantId, approval_threshold_usd_minor: minor, updated_by: actor.id })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          approval_threshold_usd_minor: minor,
          updated_by: actor.id,
          updated_at: new Date(),
        }),
      )
      .execute();
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'customers.threshold',
      target: actor.tenantId,
      ip: actor.ip,
      details: { before: money(before), after: money(minor), currency: 'USD' },
    });
  });
  return { threshold: money(minor) };
}
