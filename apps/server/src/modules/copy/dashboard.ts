import type { TFeeSettlement } from '@broker/contracts/copy-routes';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { userNames } from '../identity';
import { money } from '../trading';
import { leaderAccounts, leaderRowsOf } from './leaders';
import type { TCopyPorts } from './ports';

/** A follower's name as a leader or another trader sees it: the first two letters, then stars. */
export const maskName = (name: string) =>
  name.length <= 2 ? `${name.slice(0, 1)}*` : `${name.slice(0, 2)}***`;

type TSettlementRow = {
  id: string;
  copy_account_id: string | number;
  leader_account_id: string | number;
  follower_user_id: string;
  kind: 'weekly' | 'stop';
  profit: string | number;
  mark_before: string | number;
  mark_after: string | number;
  fee: string | number;
  currency: string;
  credited: string | number;
  leader_currency: string;
  created_at: Date | string;
};

export async function settlementViews(
  db: TDb,
  tenantId: string,
  rows: readonly TSettlementRow[],
  mask = true,
): Promise<TFeeSettlement[]> {
  const names = await userNames(db, { tenantId, ids: rows.map((r) => r.follower_user_id) });
  return rows.map((r) => {
    const name = names.get(r.follower_user_id)?.name ?? '';
    return {
      id: r.id,
      copy_account_id: Number(r.copy_account_id),
      leader_id: Number(r.leader_account_id),
      follower: mask ? maskName(name) : name,
      kind: r.kind,
      profit: money(Number(r.profit)),
      markBefore: money(Number(r.mark_before)),
      markAfter: money(Number(r.mark_after)),
      fee: money(Number(r.fee)),
      currency: r.currency,
      credited: money(Number(r.credited)),
      leaderCurrency: r.leader_currency,
      createdAt: new Date(r.created_at).toISOString(),
    };
  });
}

/** followdashboard: the trader's leader accounts, their followers, and the fee settlements. */
export async function leaderDashboard(
  ports: TCopyPorts,
  input: { actor: TActor; page: number; size: number },
) {
  const { actor } = input;
  const rows = await leaderRowsOf(ports, actor);
  const leaders = await leaderAccounts(ports, actor, rows);
  const ids = rows.map((r) => r.accountId);
  const followerIds = ids.flatMap((id) =>
    ports.host.core.followersOf(id).map((copy) => ({ leader: id, copy })),
  );
  const users = followerIds.map((f) => ports.host.ownerOf(f.copy)?.userId ?? '');
  const names = await userNames(ports.db, { tenantId: actor.tenantId, ids: users.filter(Boolean) });
  const followers = followerIds.map(({ leader, copy }, i) => {
    const view = ports.host.core.account(copy);
    const relation = ports.host.core.copyRelation(copy);
    return {
      leader_id: leader,
      copy_account_id: copy,
      follower: maskName(names.get(users[i]!)?.name ?? ''),
      mode: relation?.mode ?? 'equity',
      equity: money(view?.equity ?? 0),
      currency: view?.currency ?? '',
      status: relation?.status ?? 'stopped',
      since: new Date(relation?.createdAt ?? 0).toISOString(),
    };
  });
  let settlements: TFeeSettlement[] = [];
  let total = 0;
  if (ids.length > 0) {
    const base = ports.db
      .selectFrom('copy_fee_settlements')
      .where('tenant_id', '=', actor.tenantId)
      .where('leader_account_id', 'in', ids);
    const [rowsPage, counted] = await Promise.all([
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(input.size)
        .offset((input.page - 1) * input.size)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
    ]);
    settlements = await settlementViews(ports.db, actor.tenantId, rowsPage);
    total = Number(counted?.n ?? 0);
  }
  return { leaders, followers, settlements, total };
}
