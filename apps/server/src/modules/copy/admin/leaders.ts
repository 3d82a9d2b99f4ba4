import type { TAdminLeader } from '@broker/contracts/admin/copy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import { serverTranslator } from '../../../i18n';
import { staffNames } from '../../access';
import { recordAudit } from '../../audit';
import { userNames } from '../../identity';
import { money, submitOrThrow } from '../../trading';
import { bpPercent, earnedOf, followingOf, leaderRow, leaderStats, type TLeaderRow } from '../leaders';
import type { TCopyPorts } from '../ports';
import type { TLeaderStatus } from '../schema';

async function adminViews(
  ports: TCopyPorts,
  tenantId: string,
  rows: readonly TLeaderRow[],
): Promise<TAdminLeader[]> {
  const names = await userNames(ports.db, { tenantId, ids: rows.map((r) => r.userId) });
  // reviewers by name (an automatic approval by the broker's rules is `rules`)
  const reviewers = await staffNames(ports.db, {
    tenantId,
    ids: rows.map((r) => r.reviewedBy).filter((id): id is string => id !== null && id !== 'rules'),
  });
  const fees = await earnedOf(
    ports,
    tenantId,
    rows.map((r) => r.accountId),
  );
  const out: TAdminLeader[] = [];
  for (const row of rows) {
    const view = ports.host.core.account(row.accountId);
    if (!view) continue;
    const { stats } = await leaderStats(ports, view);
    const following = followingOf(ports, view);
    const user = names.get(row.userId);
    out.push({
      leader_id: row.accountId,
      userId: row.userId,
      nick: user?.name ?? '',
      email: user?.email ?? null,
      status: row.status,
      reason: row.reason,
      accountType: view.accountType,
      tradeType: view.tradeType,
      currency: view.currency,
      equity: money(view.equity),
      feePercent: bpPercent(row.feeBp),
      minCopyAmount: money(row.minCopyAmount),
      followersPaused: view.followersPaused,
      followers: following.followers,
      copiedAssets: money(following.copiedAssets),
      earned: money(fees.get(row.accountId) ?? 0),
      stats,
      appliedAt: row.appliedAt.toISOString(),
      reviewedAt: row.reviewedAt?.toISOString() ?? null,
      reviewedBy:
        row.reviewedBy === null ? null : (reviewers.get(row.reviewedBy)?.displayName ?? row.reviewedBy),
    });
  }
  return out;
}

/** admincopyleaders: leaders and applications by state, with counts per state. */
export async function adminLeaders(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    status?: TLeaderStatus | undefined;
    search?: string | undefined;
    page: number;
    size: number;
  },
) {
  const tenantId = input.actor.tenantId;
  const all = (
    await ports.db.selectFrom('copy_leaders').selectAll().where('tenant_id', '=', tenantId).execute()
  ).map(leaderRow);
  const counts: Record<string, number> = { pending: 0, approved: 0, rejected: 0, suspended: 0 };
  for (const r of all) counts[r.status] = (counts[r.status] ?? 0) + 1;
  let rows = input.status ? all.filter((r) => r.status === input.status) : all;
  if (input.search) {
    const text = input.search.toLowerCase();
    const names = await userNames(ports.db, { tenantId, ids: rows.map((r) => r.userId) });
    rows = rows.filter((r) => {
      const user = names.get(r.userId);
      return (
        String(r.accountId) === text ||
        r.userId === input.search ||
        user?.name.toLowerCase().includes(text) ||
        user?.email?.toLowerCase().includes(text)
      );
    });
  }
  rows.sort((a, b) => b.appliedAt.getTime() - a.appliedAt.getTime() || b.accountId - a.accountId);
  const start = (input.page - 1) * input.size;
  return {
    items: await adminViews(ports, tenantId, rows.slice(start, start + input.size)),
    total: rows.length,
    counts,
  };
}

async function mailLeader(
  ports: TCopyPorts,
  tenantId: string,
  userIds: readonly string[],
  key: string,
  reason: string,
) {
  if (!ports.mailer || userIds.length === 0) return;
  const users = await userNames(ports.db, { tenantId, ids: userIds });
  const t = serverTranslator('en');
  const brand = t('brand.name');
  for (const user of users.values()) {
    if (!user.email) continue;
    try {
      await ports.mailer.send({
        to: user.email,
        subject: t(`mail.copy.${key}.subject`, { brand }),
        text: t(`mail.copy.${key}.body`, { brand, reason }),
      });
    } catch (error) {
      ports.log?.warn({ err: error }, 'copy trading mail not delivered');
    }
  }
}

async function oneLeader(ports: TCopyPorts, tenantId: string, accountId: number) {
  const row = await ports.db
    .selectFrom('copy_leaders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new AppError(AppErrorCode.LEADER_NOT_FOUND);
  return leaderRow(row);
}

/** admincopyreview: decides a pending application (one decision wins a race); the trader is told. */
export async function reviewLeader(
  ports: TCopyPorts,
  input: { actor: TActor; leader_id: number; approve: boolean; reason?: string | undefined },
): Promise<TAdminLeader> {
  const { actor } = input;
  const reason = input.reason?.trim() || null;
  if (!input.approve && !reason) throw AppError.invalid({ reason: 'required' });
  await oneLeader(ports, actor.tenantId, input.leader_id);
  const decided = await ports.db
    .updateTable('copy_leaders')
    .set({
      status: input.approve ? 'approved' : 'rejected',
      reason: input.approve ? null : reason,
      reviewed_at: new Date(),
      reviewed_by: actor.id,
    })
    .where('tenant_id', '=', actor.tenantId)
    .where('account_id', '=', input.leader_id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!decided) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: input.approve ? 'copy.leader.approve' : 'copy.leader.reject',
    target: String(input.leader_id),
    ip: actor.ip,
    details: { reason },
  });
  await mailLeader(
    ports,
    actor.tenantId,
    [decided.user_id],
    input.approve ? 'approved' : 'rejected',
    reason ?? '',
  );
  const [view] = await adminViews(ports, actor.tenantId, [leaderRow(decided)]);
  return view!;
}

/**
 * admincopysuspend: a suspended leader takes no new followers and nothing new is copied from it
 * (its followers' open copies still follow its closes); the leader and its followers are told.
 * Reinstating makes it an approved leader again.
 */
export async function suspendLeader(
  ports: TCopyPorts,
  input: { actor: TActor; leader_id: number; suspend: boolean; reason?: string | undefined },
): Promise<TAdminLeader> {
  const { actor } = input;
  const reason = input.reason?.trim() || null;
  if (input.suspend && !reason) throw AppError.invalid({ reason: 'required' });
  await oneLeader(ports, actor.tenantId, input.leader_id);
  const changed = await ports.db
    .updateTable('copy_leaders')
    .set({ status: input.suspend ? 'suspended' : 'approved', reason: input.suspend ? reason : null })
    .where('tenant_id', '=', actor.tenantId)
    .where('account_id', '=', input.leader_id)
    .where('status', '=', input.suspend ? 'approved' : 'suspended')
    .returningAll()
    .executeTakeFirst();
  if (!changed) throw new AppError(AppErrorCode.APPROVAL_NOT_PENDING);
  const view = ports.host.core.account(input.leader_id);
  await submitOrThrow(ports.host, {
    type: 'set_leader',
    clientKey: `suspend:${input.leader_id}:${crypto.randomUUID()}`,
    time: Date.now(),
    accountId: input.leader_id,
    followersPaused: view?.followersPaused ?? false,
    suspended: input.suspend,
  });
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: input.suspend ? 'copy.leader.suspend' : 'copy.leader.reinstate',
    target: String(input.leader_id),
    ip: actor.ip,
    details: { reason },
  });
  const followers = ports.host.core
    .followersOf(input.leader_id)
    .map((id) => ports.host.ownerOf(id)?.userId)
    .filter((u): u is string => u !== undefined);
  await mailLeader(
    ports,
    actor.tenantId,
    [changed.user_id],
    input.suspend ? 'suspended' : 'reinstated',
    reason ?? '',
  );
  if (input.suspend)
    await mailLeader(ports, actor.tenantId, [...new Set(followers)], 'leaderSuspended', reason ?? '');
  const [out] = await adminViews(ports, actor.tenantId, [leaderRow(changed)]);
  return out!;
}
