import type { TLeaderAccount, TLeaderProfile, TLeaderSummary } from '@broker/contracts/copy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { userNames } from '../identity';
import {
  accountDeals,
  accountLedger,
  fromScaled,
  mainAccount,
  money,
  submitOrThrow,
  toScaled,
  traderOf,
  unitsToLots,
} from '../trading';
import type { TCopyPorts } from './ports';
import type { TLeaderStatus } from './schema';
import { copyRules } from './settings';
import { computeStats, dayOf, dayText, type TIndexPoint } from './stats';

/** A leader row as the use cases read it. */
export interface TLeaderRow {
  accountId: number;
  tenantId: string;
  userId: string;
  status: TLeaderStatus;
  reason: string | null;
  feeBp: number;
  minCopyAmount: number;
  positionsDelayMinutes: number;
  bio: string;
  appliedAt: Date;
  reviewedAt: Date | null;
  reviewedBy: string | null;
}

type TDbLeader = {
  account_id: string | number;
  tenant_id: string;
  user_id: string;
  status: TLeaderStatus;
  reason: string | null;
  fee_bp: number;
  min_copy_amount: string | number;
  positions_delay_minutes: number;
  bio: string;
  applied_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
};

export const leaderRow = (r: TDbLeader): TLeaderRow => ({
  accountId: Number(r.account_id),
  tenantId: r.tenant_id,
  userId: r.user_id,
  status: r.status,
  reason: r.reason,
  feeBp: r.fee_bp,
  minCopyAmount: Number(r.min_copy_amount),
  positionsDelayMinutes: r.positions_delay_minutes,
  bio: r.bio,
  appliedAt: new Date(r.applied_at),
  reviewedAt: r.reviewed_at ? new Date(r.reviewed_at) : null,
  reviewedBy: r.reviewed_by,
});

/** Basis points as a percent text: 2,000 → "20.00". */
export const bpPercent = (bp: number) => fromScaled(bp, 2);
/** A percent text ("12.5") as basis points, refused (field `field`) unless within 0..max. */
export function percentBp(text: string, field: string, max: number): number {
  const bp = toScaled(text, 2, field, 'percentFormat');
  if (bp < 0 || bp > max) throw AppError.invalid({ [field]: 'percentRange' });
  return bp;
}

export async function findLeader(ports: TCopyPorts, tenantId: string, accountId: number) {
  const row = await ports.db
    .selectFrom('copy_leaders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? leaderRow(row) : undefined;
}

/** An approved leader of the broker, else -5108. */
export async function approvedLeader(ports: TCopyPorts, tenantId: string, accountId: number) {
  const leader = await findLeader(ports, tenantId, accountId);
  if (leader?.status !== 'approved') throw new AppError(AppErrorCode.LEADER_NOT_FOUND);
  const view = ports.host.core.account(accountId);
  if (!view || view.closed) throw new AppError(AppErrorCode.LEADER_NOT_FOUND);
  return { leader, view };
}

// ------------------------------------------------------------------ statistics (cached briefly)

const STATS_TTL_MS = 15_000;
const statsCache = new Map<number, { at: number; stats: ReturnType<typeof computeStats> }>();

/** The leader account's statistics and return index, computed at most every 15 s per account. */
export async function leaderStats(ports: TCopyPorts, view: TAccountView) {
  const cached = statsCache.get(view.accountId);
  const now = Date.now();
  if (cached && now - cached.at < STATS_TTL_MS) return cached.stats;
  const [ledger, deals] = await Promise.all([
    accountLedger(ports.db, view.accountId),
    accountDeals(ports.db, view.accountId),
  ]);
  const stats = computeStats({
    ledger,
    deals,
    floating: view.equity - view.balance,
    leverage: view.leverage,
    now,
  });
  statsCache.set(view.accountId, { at: now, stats });
  if (statsCache.size > 5_000) statsCache.delete(statsCache.keys().next().value as number);
  return stats;
}

/** Forgets cached statistics (tests, and a leader whose history was just written). */
export function forgetLeaderStats(accountId?: number) {
  if (accountId === undefined) statsCache.clear();
  else statsCache.delete(accountId);
}

/** Followers (running and paused copies) and the equity they hold, in the leader's currency. */
export function followingOf(ports: TCopyPorts, leader: TAccountView) {
  const copies = ports.host.core.followersOf(leader.accountId);
  let assets = 0;
  for (const id of copies) {
    const view = ports.host.core.account(id);
    // copies in another currency are counted only when it is the same (no rate here): documented
    if (view && view.currency === leader.currency) assets += Math.max(0, view.equity);
  }
  return { followers: copies.length, copiedAssets: assets };
}

async function summaries(ports: TCopyPorts, tenantId: string, rows: readonly TLeaderRow[]) {
  const names = await userNames(ports.db, { tenantId, ids: rows.map((r) => r.userId) });
  const out: { summary: TLeaderSummary; points: TIndexPoint[]; row: TLeaderRow; view: TAccountView }[] = [];
  for (const row of rows) {
    const view = ports.host.core.account(row.accountId);
    if (!view || view.closed) continue;
    const { stats, points } = await leaderStats(ports, view);
    const { followers, copiedAssets } = followingOf(ports, view);
    out.push({
      row,
      view,
      points,
      summary: {
        leader_id: row.accountId,
        nick: names.get(row.userId)?.name ?? '',
        avatar: null,
        accountType: view.accountType,
        tradeType: view.tradeType,
        currency: view.currency,
        stats,
        followers,
        copiedAssets: money(copiedAssets),
        feePercent: bpPercent(row.feeBp),
        minCopyAmount: money(row.minCopyAmount),
        followersPaused: view.followersPaused || view.leaderSuspended || followers >= 1_000,
        since: (row.reviewedAt ?? row.appliedAt).toISOString(),
      },
    });
  }
  return out;
}

const num = (text: string | null) => (text === null ? Number.NEGATIVE_INFINITY : Number(text));

/** followleaders: approved leaders, sorted and filtered (public). */
export async function listLeaders(
  ports: TCopyPorts,
  input: {
    tenantId: string;
    sort: string;
    accountType?: number | undefined;
    tradeType?: number | undefined;
    maxRisk?: number | undefined;
    maxDrawdown?: number | undefined;
    search?: string | undefined;
    page: number;
    size: number;
  },
) {
  const rows = await ports.db
    .selectFrom('copy_leaders')
    .selectAll()
    .where('tenant_id', '=', input.tenantId)
    .where('status', '=', 'approved')
    .execute();
  let items = (await summaries(ports, input.tenantId, rows.map(leaderRow))).map((x) => x.summary);
  if (input.accountType !== undefined) items = items.filter((s) => s.accountType === input.accountType);
  if (input.tradeType !== undefined) items = items.filter((s) => s.tradeType === input.tradeType);
  if (input.maxRisk !== undefined) items = items.filter((s) => s.stats.riskScore <= (input.maxRisk ?? 10));
  if (input.maxDrawdown !== undefined)
    items = items.filter((s) => Number(s.stats.maxDrawdown) <= (input.maxDrawdown ?? 100));
  const search = input.search?.toLowerCase();
  if (search)
    items = items.filter((s) => s.nick.toLowerCase().includes(search) || String(s.leader_id) === search);
  const key: Record<string, (s: TLeaderSummary) => number> = {
    return30d: (s) => num(s.stats.return30d),
    return90d: (s) => num(s.stats.return90d),
    returnAll: (s) => num(s.stats.returnAll),
    drawdown: (s) => -Number(s.stats.maxDrawdown),
    risk: (s) => -s.stats.riskScore,
    followers: (s) => s.followers,
    assets: (s) => Number(s.copiedAssets),
  };
  const by = key[input.sort] ?? key.return30d!;
  items.sort((a, b) => by(b) - by(a) || a.leader_id - b.leader_id);
  const start = (input.page - 1) * input.size;
  return { items: items.slice(start, start + input.size), total: items.length };
}

/** followleader: one approved leader's profile (public; a signed-in viewer sees their own copy of it). */
export async function leaderProfile(
  ports: TCopyPorts,
  { tenantId, leaderId, viewer }: { tenantId: string; leaderId: number; viewer: TActor | null },
): Promise<TLeaderProfile> {
  const { leader } = await approvedLeader(ports, tenantId, leaderId);
  const [entry] = await summaries(ports, tenantId, [leader]);
  if (!entry) throw new AppError(AppErrorCode.LEADER_NOT_FOUND);
  const now = Date.now();
  const recent = await accountDeals(ports.db, leaderId, now - 90 * 86_400_000);
  const bySymbol = new Map<string, Set<number>>();
  for (const d of recent) bySymbol.set(d.symbol, (bySymbol.get(d.symbol) ?? new Set()).add(d.positionId));
  const trades = [...bySymbol.values()].reduce((a, s) => a + s.size, 0);
  const delayMs = leader.positionsDelayMinutes * 60_000;
  const open = ports.host.core
    .positionsOf(leaderId)
    .filter((p) => p.openTime <= now - delayMs)
    .map((p) => {
      const digits = ports.host.digits(p.symbol) ?? 5;
      return {
        symbol: p.symbol,
        side: p.side,
        volume: unitsToLots(p.volume),
        openPrice: fromScaled(p.openPrice, digits),
        openTime: new Date(p.openTime).toISOString(),
      };
    });
  let myCopyAccountId: number | null = null;
  if (viewer?.onBehalfOf) {
    for (const id of ports.host.core.followersOf(leaderId)) {
      const owner = ports.host.ownerOf(id);
      if (owner?.userId === viewer.onBehalfOf && owner.tenantId === tenantId) myCopyAccountId = id;
    }
  }
  return {
    ...entry.summary,
    bio: leader.bio,
    curve: entry.points.slice(-365).map((p) => ({ day: dayText(p.day), value: p.value.toFixed(2) })),
    symbols: [...bySymbol]
      .map(([symbol, set]) => ({
        symbol,
        trades: set.size,
        share: ((set.size / Math.max(1, trades)) * 100).toFixed(2),
      }))
      .sort((a, b) => b.trades - a.trades || a.symbol.localeCompare(b.symbol)),
    positionsDelayMinutes: leader.positionsDelayMinutes,
    openPositions: open,
    myCopyAccountId,
  };
}

// ------------------------------------------------------------------ the leader's own side

/** Fees credited to each leader account, all settlements (minor units of its currency). */
export async function earnedOf(ports: TCopyPorts, tenantId: string, accountIds: readonly number[]) {
  if (accountIds.length === 0) return new Map<number, number>();
  const rows = await ports.db
    .selectFrom('copy_fee_settlements')
    .select(['leader_account_id', sql<string>`sum(credited)`.as('earned')])
    .where('tenant_id', '=', tenantId)
    .where('leader_account_id', 'in', accountIds)
    .groupBy('leader_account_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.leader_account_id), Number(r.earned)]));
}

export async function leaderAccounts(ports: TCopyPorts, actor: TActor, rows: readonly TLeaderRow[]) {
  const earned = await earnedOf(
    ports,
    actor.tenantId,
    rows.map((r) => r.accountId),
  );
  return rows.map((row): TLeaderAccount => {
    const view = ports.host.core.account(row.accountId);
    const following = view ? followingOf(ports, view) : { followers: 0, copiedAssets: 0 };
    return {
      leader_id: row.accountId,
      status: row.status,
      reason: row.reason,
      feePercent: bpPercent(row.feeBp),
      minCopyAmount: money(row.minCopyAmount),
      followersPaused: view?.followersPaused ?? false,
      positionsDelayMinutes: row.positionsDelayMinutes,
      bio: row.bio,
      currency: view?.currency ?? '',
      followers: following.followers,
      copiedAssets: money(following.copiedAssets),
      earned: money(earned.get(row.accountId) ?? 0),
      appliedAt: row.appliedAt.toISOString(),
    };
  });
}

/** Days with a closed trade, for the auto-approval rule. */
async function tradingDays(ports: TCopyPorts, accountId: number) {
  const deals = await accountDeals(ports.db, accountId);
  return new Set(deals.map((d) => dayOf(d.closeTime))).size;
}

/**
 * followapply: a main real or demo account that copies nobody applies to lead. The broker's rules
 * approve it at once when auto-approval is on and the account has the trading days and the equity;
 * else it waits for a reviewer. A rejected application may apply again.
 */
export async function applyToLead(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    account_id: number;
    feePercent: string;
    minCopyAmount: string;
    positionsDelayMinutes: number;
    bio: string;
  },
): Promise<TLeaderAccount> {
  const { actor } = input;
  const userId = traderOf(actor);
  const view = mainAccount(ports, actor, input.account_id);
  if (view.accountType !== AccountType.REAL && view.accountType !== AccountType.DEMO)
    throw new AppError(AppErrorCode.LEADER_NOT_ELIGIBLE);
  const rules = await copyRules(ports.db, actor.tenantId);
  const feeBp = percentBp(input.feePercent, 'feePercent', 3_000);
  if (feeBp > rules.maxFeeBp) throw new AppError(AppErrorCode.LEADER_FEE_TOO_HIGH);
  const minCopyAmount = toScaled(input.minCopyAmount, 2, 'minCopyAmount', 'amountFormat');
  const existing = await findLeader(ports, actor.tenantId, view.accountId);
  if (existing && existing.status !== 'rejected') throw new AppError(AppErrorCode.LEADER_EXISTS);
  const qualifies =
    rules.autoApprove &&
    view.equity >= rules.minEquity &&
    (rules.minTradingDays === 0 || (await tradingDays(ports, view.accountId)) >= rules.minTradingDays);
  const status: TLeaderStatus = qualifies ? 'approved' : 'pending';
  const values = {
    status,
    reason: null,
    fee_bp: feeBp,
    min_copy_amount: minCopyAmount,
    positions_delay_minutes: input.positionsDelayMinutes,
    bio: input.bio,
    applied_at: new Date(),
    reviewed_at: qualifies ? new Date() : null,
    reviewed_by: qualifies ? 'rules' : null,
  };
  // one application per account: a parallel second one finds the row and is refused
  const written = existing
    ? await ports.db
        .updateTable('copy_leaders')
        .set(values)
        .where('account_id', '=', view.accountId)
        .where('status', '=', 'rejected')
        .returningAll()
        .executeTakeFirst()
    : await ports.db
        .insertInto('copy_leaders')
        .values({ account_id: view.accountId, tenant_id: actor.tenantId, user_id: userId, ...values })
        .onConflict((oc) => oc.column('account_id').doNothing())
        .returningAll()
        .executeTakeFirst();
  if (!written) throw new AppError(AppErrorCode.LEADER_EXISTS);
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'copy.leader.apply',
    target: String(view.accountId),
    ip: actor.ip,
    details: { status, feeBp, minCopyAmount, ...(actor.kind === 'user' ? {} : { onBehalfOf: userId }) },
  });
  const [account] = await leaderAccounts(ports, actor, [leaderRow(written)]);
  return account!;
}

/** followleadersettings: the leader's terms; a new fee binds new followers only. */
export async function saveLeaderSettings(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    leader_id: number;
    feePercent: string;
    minCopyAmount: string;
    positionsDelayMinutes: number;
    bio: string;
    followersPaused: boolean;
  },
): Promise<TLeaderAccount> {
  const { actor } = input;
  const view = mainAccount(ports, actor, input.leader_id);
  const leader = await findLeader(ports, actor.tenantId, view.accountId);
  if (!leader || leader.userId !== traderOf(actor)) throw new AppError(AppErrorCode.LEADER_NOT_FOUND);
  const rules = await copyRules(ports.db, actor.tenantId);
  const feeBp = percentBp(input.feePercent, 'feePercent', 3_000);
  if (feeBp > rules.maxFeeBp) throw new AppError(AppErrorCode.LEADER_FEE_TOO_HIGH);
  const minCopyAmount = toScaled(input.minCopyAmount, 2, 'minCopyAmount', 'amountFormat');
  const written = await ports.db
    .updateTable('copy_leaders')
    .set({
      fee_bp: feeBp,
      min_copy_amount: minCopyAmount,
      positions_delay_minutes: input.positionsDelayMinutes,
      bio: input.bio,
    })
    .where('account_id', '=', view.accountId)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (view.followersPaused !== input.followersPaused)
    await submitOrThrow(ports.host, {
      type: 'set_leader',
      clientKey: `leader:${view.accountId}:${Date.now()}:${input.followersPaused}`,
      time: Date.now(),
      accountId: view.accountId,
      followersPaused: input.followersPaused,
    });
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'copy.leader.settings',
    target: String(view.accountId),
    ip: actor.ip,
    details: { feeBp, minCopyAmount, followersPaused: input.followersPaused },
  });
  const [account] = await leaderAccounts(ports, actor, [leaderRow(written)]);
  return account!;
}

export async function leaderRowsOf(ports: TCopyPorts, actor: TActor) {
  const rows = await ports.db
    .selectFrom('copy_leaders')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', traderOf(actor))
    .orderBy('applied_at')
    .execute();
  return rows.map(leaderRow);
}
