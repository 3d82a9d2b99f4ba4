import type { TMarketHistoryEntry } from '@broker/contracts/admin/market-routes';
import { sql } from 'kysely';
import type { TCallContext } from '../../../http/context';

const record = (value: unknown): Record<string, unknown> | null => {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
};

/** The broker's configuration changes, newest first, filtered by symbol, group, scope and time. */
export async function listHistory(
  ctx: TCallContext,
  input: {
    symbol?: string | undefined;
    groupId?: string | undefined;
    scope?: 'instrument' | 'group_terms' | 'group' | undefined;
    from?: number | undefined;
    to?: number | undefined;
    page: number;
    pageSize: number;
  },
): Promise<{ items: TMarketHistoryEntry[]; total: number; page: number; pageSize: number }> {
  const db = ctx.services.database.db;
  let filtered = db.selectFrom('market_config_history as h').where('h.tenant_id', '=', ctx.tenant.id);
  if (input.symbol) filtered = filtered.where('h.symbol', '=', input.symbol);
  if (input.groupId) filtered = filtered.where('h.group_id', '=', input.groupId);
  if (input.scope) filtered = filtered.where('h.scope', '=', input.scope);
  if (input.from !== undefined) filtered = filtered.where('h.created_at', '>=', new Date(input.from));
  if (input.to !== undefined) filtered = filtered.where('h.created_at', '<', new Date(input.to));
  const [count, rows] = await Promise.all([
    filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    filtered
      .leftJoin('staff as s', (join) =>
        join.onRef('s.id', '=', 'h.staff_id').on('s.tenant_id', '=', ctx.tenant.id),
      )
      .leftJoin('account_groups as g', (join) =>
        join.onRef('g.id', '=', 'h.group_id').on('g.tenant_id', '=', ctx.tenant.id),
      )
      .select([
        'h.id',
        'h.created_at',
        'h.staff_id',
        's.display_name',
        's.username',
        'h.scope',
        'h.symbol',
        'h.group_id',
        'g.name as group_name',
        'h.before',
        'h.after',
      ])
      .orderBy('h.created_at', 'desc')
      .orderBy('h.id', 'desc')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
  ]);
  return {
    items: rows.map((r) => {
      const before = record(r.before);
      const after = record(r.after);
      // A deleted group keeps its name in the history rows themselves.
      const groupName = r.group_name ?? ((before?.name ?? after?.name) as string | undefined) ?? null;
      return {
        id: String(r.id),
        createdAt: new Date(r.created_at).toISOString(),
        staffId: r.staff_id,
        staffName: r.display_name ?? r.username ?? null,
        scope: r.scope,
        symbol: r.symbol,
        groupId: r.group_id,
        groupName: r.scope === 'group_terms' ? (r.group_name ?? null) : groupName,
        before,
        after,
      };
    }),
    total: Number(count.total),
    page: input.page,
    pageSize: input.pageSize,
  };
}
