import type { TAdminWithdrawal } from '@broker/contracts/admin/funding-routes';
import type { TDeposit } from '@broker/contracts/funding-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { staffNames } from '../../access';
import { recordAudit } from '../../audit';
import { customerBriefs } from '../../identity';
import { money } from '../../trading';
import { minor } from '../amounts';
import { depositView } from '../deposits';
import type { TFundingPorts } from '../ports';
import { fundingSettings } from '../settings';
import {
  loadWithdrawal,
  moveWithdrawal,
  releaseHold,
  sendPayout,
  type TWithdrawalRow,
  withdrawalView,
} from '../withdrawals';

type TBrief = TAdminWithdrawal['customer'];

function briefsOf(db: TDb, tenantId: string, ids: string[]): Promise<Map<string, TBrief>> {
  return customerBriefs(db, { tenantId, ids }) as Promise<Map<string, TBrief>>;
}

const noBrief = (userId: string): TBrief => ({
  userId,
  name: '',
  email: null,
  country: null,
  kyc: 'none',
  createdAt: new Date(0).toISOString(),
});

async function adminWithdrawals(
  db: TDb,
  tenantId: string,
  rows: TWithdrawalRow[],
): Promise<TAdminWithdrawal[]> {
  const [briefs, staff] = await Promise.all([
    briefsOf(
      db,
      tenantId,
      rows.map((r) => r.user_id),
    ),
    staffNames(db, {
      tenantId,
      ids: rows.flatMap((r) => [r.first_approved_by, r.decided_by].filter((v): v is string => v !== null)),
    }),
  ]);
  return rows.map((r) => ({
    ...withdrawalView(r),
    customer: briefs.get(r.user_id) ?? noBrief(r.user_id),
    flags: (typeof r.flags === 'string' ? JSON.parse(r.flags) : r.flags) as TAdminWithdrawal['flags'],
    destinationFull: r.destination,
    firstApprovedBy: r.first_approved_by
      ? (staff.get(r.first_approved_by)?.displayName ?? r.first_approved_by)
      : null,
    decidedBy: r.decided_by ? (staff.get(r.decided_by)?.displayName ?? r.decided_by) : null,
    amountUsd: money(Number(r.amount_usd)),
  }));
}

/** Deposits or withdrawals of the broker by state, method and customer, with counts per state. */
export async function fundingQueue(
  ports: TFundingPorts,
  {
    actor,
    ...q
  }: {
    actor: TActor;
    kind: 'deposit' | 'withdrawal';
    status?: string | undefined;
    method?: string | undefined;
    userId?: string | undefined;
    page: number;
    size: number;
  },
) {
  const { db } = ports;
  const table = q.kind === 'deposit' ? 'deposits' : 'withdrawals';
  let base = db.selectFrom(table).where('tenant_id', '=', actor.tenantId);
  if (q.method) base = base.where('method', '=', q.method);
  if (q.userId) base = base.where('user_id', '=', q.userId);
  const counted = await base
    .select(['status', sql<string>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  let list = base;
  if (q.status) list = list.where('status', '=', q.status as never);
  const [total, rows] = await Promise.all([
    list.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    list
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute(),
  ]);
  const counts = Object.fromEntries(counted.map((c) => [c.status, Number(c.n)]));
  const briefs =
    q.kind === 'deposit'
      ? await briefsOf(
          db,
          actor.tenantId,
          rows.map((r) => r.user_id),
        )
      : new Map<string, TBrief>();
  return {
    deposits:
      q.kind === 'deposit'
        ? rows.map((r) => ({
            ...depositView(r as Parameters<typeof depositView>[0]),
            customer: briefs.get(r.user_id) ?? noBrief(r.user_id),
            providerRef: r.provider_ref,
          }))
        : [],
    withdrawals:
      q.kind === 'withdrawal' ? await adminWithdrawals(db, actor.tenantId, rows as TWithdrawalRow[]) : [],
    total: Number(total.n),
    counts,
    page: q.page,
    size: q.size,
  };
}

export async function depositForStaff(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  const row = await ports.db
    .selectFrom('deposits')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const briefs = await briefsOf(ports.db, actor.tenantId, [row.user_id]);
  return {
    ...(depositView(row as Parameters<typeof depositView>[0]) as TDeposit),
    customer: briefs.get(row.user_id) ?? noBrief(row.user_id),
    providerRef: row.provider_ref,
  };
}

/** One withdrawal for its reviewer, with the customer's recent money movements. */
export async function withdrawalReview(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  const { db } = ports;
  const row = await loadWithdrawal(db, actor.tenantId, id);
  const [withdrawal] = await adminWithdrawals(db, actor.tenantId, [row]);
  const recent = await sql<{ kind: string; amount: string; currency: string; at: Date }>`
    select * from (
      select 'deposit' as kind, credited as amount, account_currency as currency, updated_at as at
        from deposits where tenant_id = ${actor.tenantId} and user_id = ${row.user_id} and status = 'completed'
      union all
      select 'withdrawal', -amount, account_currency, created_at
        from withdrawals where tenant_id = ${actor.tenantId} and user_id = ${row.user_id} and id <> ${row.id}
    ) m order by at desc limit 10`.execute(db);
  return {
    withdrawal: withdrawal as TAdminWithdrawal,
    recent: recent.rows.map((r) => ({
      kind: r.kind,
      amount: money(Number(r.amount)),
      currency: r.currency,
      at: new Date(r.at).toISOString(),
    })),
  };
}

async function reviewAnswer(ports: TFundingPorts, actor: TActor, id: string) {
  const row = await loadWithdrawal(ports.db, actor.tenantId, id);
  return (await adminWithdrawals(ports.db, actor.tenantId, [row]))[0] as TAdminWithdrawal;
}

/**
 * Approves a withdrawal awaiting review. Above the broker's four-eyes threshold the first approval
 * is recorded and a second staff member must approve (never the same person, -4112). The approval
 * that decides moves it to processing in one conditional update and sends the payout.
 */
export async function approveWithdrawal(ports: TFundingPorts, { actor, id }: { actor: TActor; id: string }) {
  const { db } = ports;
  const row = await loadWithdrawal(db, actor.tenantId, id);
  if (row.status !== 'awaiting_review') throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  const { fourEyesUsd } = await fundingSettings(db, actor.tenantId);
  const needsTwo = Number(row.amount_usd) > minor(fourEyesUsd);
  const audit = (action: string) =>
    recordAudit(db, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action,
      target: String(row.account_id),
      ip: actor.ip,
      details: {
        withdrawalId: row.id,
        userId: row.user_id,
        amount: money(Number(row.amount)),
        currency: row.account_currency,
        firstApprovedBy: row.first_approved_by,
      },
    });
  if (needsTwo && row.first_approved_by === null) {
    const first = await db
      .updateTable('withdrawals')
      .set({ first_approved_by: actor.id, updated_at: new Date() })
      .where('id', '=', row.id)
      .where('status', '=', 'awaiting_review')
      .where('first_approved_by', 'is', null)
      .executeTakeFirst();
    if (Number(first.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
    await audit('funding.withdrawal.approve.first');
    return reviewAnswer(ports, actor, row.id);
  }
  if (needsTwo && row.first_approved_by === actor.id)
    throw new AppError(AppErrorCode.SECOND_APPROVER_REQUIRED);
  const moved = await moveWithdrawal(db, row.id, ['awaiting_review'], 'processing', { decided_by: actor.id });
  if (!moved) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  await audit('funding.withdrawal.approve');
  // The payout is sent now; if the provider cannot be reached it is sent again at the next start
  // (the provider answers the same payout for the same withdrawal, so it is never paid twice).
  await sendPayout(ports, row).catch((error) =>
    ports.log?.error({ err: error, withdrawalId: row.id }, 'payout not sent; retried at start'),
  );
  return reviewAnswer(ports, actor, row.id);
}

/** Rejects a withdrawal awaiting review with a short reason; the held amount goes back. */
export async function rejectWithdrawal(
  ports: TFundingPorts,
  { actor, id, reason }: { actor: TActor; id: string; reason: string },
) {
  const { db } = ports;
  const row = await loadWithdrawal(db, actor.tenantId, id);
  const moved = await moveWithdrawal(db, row.id, ['awaiting_review'], 'rejected', {
    reject_reason: reason,
    decided_by: actor.id,
  });
  if (!moved) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  await releaseHold(ports, row);
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'funding.withdrawal.reject',
    target: String(row.account_id),
    ip: actor.ip,
    details: { withdrawalId: row.id, userId: row.user_id, amount: money(Number(row.amount)), reason },
  });
  return reviewAnswer(ports, actor, row.id);
}
