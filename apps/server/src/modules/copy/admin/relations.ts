import type { TCopySettingsAdmin } from '@broker/contracts/admin/copy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import { recordAudit } from '../../audit';
import { userNames } from '../../identity';
import { copyRelationsPage, copySkipCounts, fromScaled, money, toScaled, unitsToLots } from '../../trading';
import { settlementViews } from '../dashboard';
import { modeValueText } from '../follow';
import { percentBp } from '../leaders';
import type { TCopyPorts } from '../ports';
import { copyRules, saveCopyRules } from '../settings';

/** admincopyrelations: the broker's copy relations (running first, then stopped), by leader or state. */
export async function adminRelations(
  ports: TCopyPorts,
  input: {
    actor: TActor;
    leader_id?: number | undefined;
    status?: 'active' | 'paused' | 'stopped' | undefined;
    page: number;
    size: number;
  },
) {
  const tenantId = input.actor.tenantId;
  const page = await copyRelationsPage(ports.db, {
    tenantId,
    leaderId: input.leader_id,
    status: input.status,
    page: input.page,
    size: input.size,
  });
  const rows = page.items;
  const skipped = await copySkipCounts(
    ports.db,
    rows.map((r) => r.relation.accountId),
  );
  const leaderUsers = rows.map((r) => ports.host.ownerOf(r.relation.leaderAccountId)?.userId ?? '');
  const names = await userNames(ports.db, {
    tenantId,
    ids: [...rows.map((r) => r.userId), ...leaderUsers].filter(Boolean),
  });
  return {
    items: rows.map(({ relation: r, userId, parentId }, i) => {
      const id = r.accountId;
      const view = ports.host.core.account(id);
      const allocated = view ? -view.totalInAmount - view.totalOutAmount : 0;
      return {
        copy_account_id: id,
        account_id: parentId ?? 0,
        leader_id: r.leaderAccountId,
        leaderNick: names.get(leaderUsers[i]!)?.name ?? '',
        followerUserId: userId,
        followerNick: names.get(userId)?.name ?? '',
        currency: view?.currency ?? '',
        mode: r.mode,
        value: modeValueText(r.mode, r.modeValue),
        status: r.status,
        stopReason: r.stopReason,
        allocated: money(allocated),
        equity: money(view?.equity ?? 0),
        feesPaid: money(r.feesPaid),
        openPositions: ports.host.core.positionsOf(id).filter((p) => p.parentTicket !== null).length,
        skipped: skipped.get(id) ?? 0,
        createdAt: new Date(r.createdAt).toISOString(),
      };
    }),
    total: page.total,
  };
}

/** admincopysettlements: fee settlements, newest first, with the fees per currency. */
export async function adminSettlements(
  ports: TCopyPorts,
  input: { actor: TActor; leader_id?: number | undefined; page: number; size: number },
) {
  const tenantId = input.actor.tenantId;
  let base = ports.db.selectFrom('copy_fee_settlements').where('tenant_id', '=', tenantId);
  if (input.leader_id !== undefined) base = base.where('leader_account_id', '=', input.leader_id);
  const [rows, counted, totals] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(input.size)
      .offset((input.page - 1) * input.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
    base
      .select(['currency', sql<string>`sum(fee)`.as('fees')])
      .groupBy('currency')
      .orderBy('currency')
      .execute(),
  ]);
  return {
    items: await settlementViews(ports.db, tenantId, rows, false),
    total: Number(counted?.n ?? 0),
    totals: totals.map((t) => ({ currency: t.currency, fees: money(Number(t.fees)) })),
  };
}

/** admincopyexposure: the copied positions open now, per symbol and per leader. */
export async function copyExposure(ports: TCopyPorts, input: { actor: TActor }) {
  const symbols = new Map<string, { buy: number; sell: number; positions: number }>();
  const leaders = new Map<number, { followers: Set<number>; positions: number; lots: number }>();
  for (const id of ports.host.core.accountIds()) {
    const relation = ports.host.core.copyRelation(id);
    const owner = ports.host.ownerOf(id);
    if (owner?.tenantId !== input.actor.tenantId) continue;
    for (const p of ports.host.core.positionsOf(id)) {
      if (p.parentTicket === null) continue;
      const s = symbols.get(p.symbol) ?? { buy: 0, sell: 0, positions: 0 };
      if (p.side === 'buy') s.buy += p.volume;
      else s.sell += p.volume;
      s.positions++;
      symbols.set(p.symbol, s);
      const leaderId = relation?.leaderAccountId ?? ports.host.core.position(p.parentTicket)?.accountId;
      if (leaderId === undefined) continue;
      const l = leaders.get(leaderId) ?? { followers: new Set<number>(), positions: 0, lots: 0 };
      l.followers.add(id);
      l.positions++;
      l.lots += p.volume;
      leaders.set(leaderId, l);
    }
  }
  const leaderUsers = [...leaders.keys()].map((id) => ports.host.ownerOf(id)?.userId ?? '');
  const names = await userNames(ports.db, {
    tenantId: input.actor.tenantId,
    ids: leaderUsers.filter(Boolean),
  });
  return {
    symbols: [...symbols]
      .map(([symbol, s]) => ({
        symbol,
        buyLots: unitsToLots(s.buy),
        sellLots: unitsToLots(s.sell),
        netLots: unitsToLots(s.buy - s.sell),
        positions: s.positions,
      }))
      .sort((a, b) => b.positions - a.positions || a.symbol.localeCompare(b.symbol)),
    leaders: [...leaders].map(([leaderId, l], i) => ({
      leader_id: leaderId,
      nick: names.get(leaderUsers[i]!)?.name ?? '',
      followers: l.followers.size,
      positions: l.positions,
      lots: unitsToLots(l.lots),
    })),
  };
}

export async function adminCopySettings(
  ports: TCopyPorts,
  input: { actor: TActor },
): Promise<TCopySettingsAdmin> {
  const rules = await copyRules(ports.db, input.actor.tenantId);
  return {
    autoApprove: rules.autoApprove,
    minTradingDays: rules.minTradingDays,
    minEquity: money(rules.minEquity),
    maxFeePercent: fromScaled(rules.maxFeeBp, 2),
  };
}

export async function saveAdminCopySettings(
  ports: TCopyPorts,
  input: TCopySettingsAdmin & { actor: TActor },
): Promise<TCopySettingsAdmin> {
  const { actor } = input;
  if (actor.kind !== 'staff') throw new AppError(AppErrorCode.FORBIDDEN);
  const rules = {
    autoApprove: input.autoApprove,
    minTradingDays: input.minTradingDays,
    minEquity: toScaled(input.minEquity, 2, 'minEquity', 'amountFormat'),
    maxFeeBp: percentBp(input.maxFeePercent, 'maxFeePercent', 3_000),
  };
  await saveCopyRules(ports.db, actor.tenantId, rules, actor.id);
  await recordAudit(ports.db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'copy.settings.save',
    target: null,
    ip: actor.ip,
    details: rules,
  });
  return adminCopySettings(ports, { actor });
}
