import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../../db/database';
import type { TAdjustmentStatus } from '../../../db/schema-customers';
import type { TCallContext } from '../../../http/context';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import { money, toScaled } from '../../trading/units';
import {
  approvalThresholdUsdMinor,
  customerAccount,
  findCustomer,
  staffOf,
  thresholdFor,
} from './customer-accounts';

const WAITING: TAdjustmentStatus[] = ['pending', 'approving'];
const DECIDED: TAdjustmentStatus[] = ['approved', 'rejected', 'applied'];

function adjustmentQuery(db: TDb, tenantId: string) {
  return db
    .selectFrom('balance_adjustments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('staff as r', 'r.id', 'a.requested_by')
    .leftJoin('staff as d', 'd.id', 'a.decided_by')
    .where('a.tenant_id', '=', tenantId);
}

type TAdjustmentRow = {
  id: string;
  user_id: string;
  user_name: string;
  account_id: string | number;
  amount: string | number;
  currency: string;
  reason: string;
  status: TAdjustmentStatus;
  requested_by: string;
  requester: string;
  requested_at: Date;
  decider: string | null;
  decided_at: Date | null;
  reject_reason: string | null;
};

function adjustmentView(row: TAdjustmentRow, staffId: string) {
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    accountId: Number(row.account_id),
    amount: money(Number(row.amount)),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requester,
    requestedAt: new Date(row.requested_at).toISOString(),
    decidedBy: row.decider,
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    rejectReason: row.reject_reason,
    mine: row.requested_by === staffId,
  };
}

const COLUMNS = [
  'a.id',
  'a.user_id',
  'u.display_name as user_name',
  'a.account_id',
  'a.amount',
  'a.currency',
  'a.reason',
  'a.status',
  'a.requested_by',
  'r.display_name as requester',
  'a.requested_at',
  'd.display_name as decider',
  'a.decided_at',
  'a.reject_reason',
] as const;

async function loadAdjustment(ctx: TCallContext, id: string) {
  const row = await adjustmentQuery(ctx.services.database.db, ctx.tenant.id)
    .select(COLUMNS)
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return adjustmentView(row, staffOf(ctx).staffId);
}

/** The broker's adjustments (waiting ones, decided ones, or all), newest first, with the threshold. */
export async function listAdjustments(
  ctx: TCallContext,
  input: { status: 'pending' | 'decided' | 'all'; userId?: string | undefined; page: number; size: number },
) {
  const db = ctx.services.database.db;
  let query = adjustmentQuery(db, ctx.tenant.id);
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
    approvalThresholdUsdMinor(db, ctx.tenant.id),
  ]);
  const staffId = staffOf(ctx).staffId;
  return {
    items: rows.map((r) => adjustmentView(r, staffId)),
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
  ctx: TCallContext,
  row: { id: string; account_id: string | number; amount: string | number },
  done: 'applied' | 'approved',
) {
  const db = ctx.services.database.db;
  let txId: number | null = null;
  try {
    const result = await ctx.services.trading.apply({
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
  ctx: TCallContext,
  input: { userId: string; accountId: number; amount: string; reason: string; idempotencyKey: string },
) {
  const staff = staffOf(ctx);
  const db = ctx.services.database.db;
  const user = await findCustomer(ctx, input.userId);
  const view = customerAccount(ctx, user.id, input.accountId);
  const amount = toScaled(input.amount, 2, 'amount', 'amountFormat');
  if (amount === 0) throw AppError.invalid({ amount: 'invalid' });
  const key = `${staff.staffId}:${input.idempotencyKey}`;
  const repeat = async () => {
    const existing = await db
      .selectFrom('balance_adjustments')
      .selectAll()
      .where('tenant_id', '=', ctx.tenant.id)
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
      await applyAdjustment(ctx, existing, 'applied');
    return loadAdjustment(ctx, existing.id);
  };
  const earlier = await repeat();
  if (earlier) return earlier;
  if (view.closed) throw new AppError(AppErrorCode.ACCOUNT_CLOSED);
  if (amount < 0 && view.balance + amount < 0) throw new AppError(AppErrorCode.INSUFFICIENT_FUNDS);
  const threshold = thresholdFor(
    ctx.services.engine,
    view,
    await approvalThresholdUsdMinor(db, ctx.tenant.id),
  );
  const needsApproval = threshold !== null && Math.abs(amount) > threshold;
  const row = {
    id: newId(),
    tenant_id: ctx.tenant.id,
    user_id: user.id,
    account_id: view.accountId,
    amount,
    currency: view.currency,
    reason: input.reason,
    status: needsApproval ? ('pending' as const) : ('approving' as const),
    idempotency_key: key,
    requested_by: staff.staffId,
  };
  const inserted = await db
    .insertInto('balance_adjustments')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  // The same key arrived twice at once: the first one's row answers both.
  if (!inserted) return (await repeat()) ?? loadAdjustment(ctx, row.id);
  const audit = (action: string, txId: number | null) =>
    recordAudit(db, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staff.staffId,
      action,
      target: String(view.accountId),
      ip: ctx.ip,
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
  else await audit('customers.adjust', await applyAdjustment(ctx, row, 'applied'));
  return loadAdjustment(ctx, row.id);
}

async function decisionRow(ctx: TCallContext, id: string) {
  const row = await ctx.services.database.db
    .selectFrom('balance_adjustments')
    .selectAll()
    .where('tenant_id', '=', ctx.tenant.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return row;
}

/**
 * Approves a waiting adjustment and applies it. Never by its requester (-6010); only while it waits
 * (-6011). The row is claimed ('approving') before the engine runs, so a rejection cannot slip in.
 */
export async function approveAdjustment(ctx: TCallContext, id: string) {
  const staff = staffOf(ctx);
  const db = ctx.services.database.db;
  const row = await decisionRow(ctx, id);
  if (row.requested_by === staff.staffId) throw new AppError(AppErrorCode.APPROVAL_BY_REQUESTER);
  // An approval of this staff member that was cut short (crash) may be finished: the key is the id.
  const resuming = row.status === 'approving' && row.decided_by === staff.staffId;
  if (!resuming) {
    if (row.status !== 'pending') throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    const claimed = await db
      .updateTable('balance_adjustments')
      .set({ status: 'approving', decided_by: staff.staffId, decided_at: new Date() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  }
  const view = ctx.services.engine.core.account(Number(row.account_id));
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
  const txId = await applyAdjustment(ctx, row, 'approved');
  await recordAudit(db, {
    tenantId: ctx.tenant.id,
    actorKind: 'staff',
    actorId: staff.staffId,
    action: 'customers.adjust.approve',
    target: String(row.account_id),
    ip: ctx.ip,
    details: {
      adjustmentId: row.id,
      userId: row.user_id,
      amount: money(amount),
      currency: row.currency,
      requestedBy: row.requested_by,
      ledgerTx: txId,
    },
  });
  return loadAdjustment(ctx, row.id);
}

/**
 * Rejects a waiting adjustment with a short reason (at most 20 characters, as for rejected reviews,
 * spec 5). Its requester may withdraw it this way: a rejection moves no money.
 */
export async function rejectAdjustment(ctx: TCallContext, input: { id: string; reason: string }) {
  const staff = staffOf(ctx);
  const db = ctx.services.database.db;
  const row = await decisionRow(ctx, input.id);
  await db.transaction().execute(async (trx) => {
    const rejected = await trx
      .updateTable('balance_adjustments')
      .set({
        status: 'rejected',
        decided_by: staff.staffId,
        decided_at: new Date(),
        reject_reason: input.reason,
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(rejected.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staff.staffId,
      action: 'customers.adjust.reject',
      target: String(row.account_id),
      ip: ctx.ip,
      details: {
        adjustmentId: row.id,
        userId: row.user_id,
        amount: money(Number(row.amount)),
        reason: input.reason,
      },
    });
  });
  return loadAdjustment(ctx, row.id);
}

/** Sets the broker's approval threshold (US dollars). */
export async function saveThreshold(ctx: TCallContext, amount: string) {
  const staff = staffOf(ctx);
  const minor = toScaled(amount, 2, 'amount', 'amountFormat');
  const db = ctx.services.database.db;
  const before = await approvalThresholdUsdMinor(db, ctx.tenant.id);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('customer_settings')
      .values({ tenant_id: ctx.tenant.id, approval_threshold_usd_minor: minor, updated_by: staff.staffId })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          approval_threshold_usd_minor: minor,
          updated_by: staff.staffId,
          updated_at: new Date(),
        }),
      )
      .execute();
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staff.staffId,
      action: 'customers.threshold',
      target: ctx.tenant.id,
      ip: ctx.ip,
      details: { before: money(before), after: money(minor), currency: 'USD' },
    });
  });
  return { threshold: money(minor) };
}
