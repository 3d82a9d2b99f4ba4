import type { TMarketHistoryEntry } from '@broker/contracts/admin/market-routes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { insertHistory, type THistoryChange } from './store';

const record = (value: unknown): Record<string, unknown> | null => {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
};

/**
 * The names of the broker's account groups by id. The groups belong to the trading module, which
 * depends on this one: the HTTP layer hands in its query.
 */
export type TGroupNamesOf = (
  db: TDb,
  input: { tenantId: string; ids: readonly string[] },
) => Promise<ReadonlyMap<string, string>>;

/**
 * The names of the broker's staff by id. The staff belong to the access module, which depends on
 * this one: the HTTP layer hands in its query.
 */
export type TStaffNamesOf = (
  db: TDb,
  input: { tenantId: string; ids: readonly string[] },
) => Promise<ReadonlyMap<string, { displayName: string; username: string }>>;

/** The broker's configuration changes, newest first, filtered by symbol, group, scope and time. */
export async function listHistory(
  ports: { db: TDb; groupNames: TGroupNamesOf; staffNames: TStaffNamesOf },
  {
    actor,
    ...input
  }: {
    actor: TActor;
    symbol?: string | undefined;
    groupId?: string | undefined;
    scope?: 'instrument' | 'group_terms' | 'group' | undefined;
    from?: number | undefined;
    to?: number | undefined;
    page: number;
    pageSize: number;
  },
): Promise<{ items: TMarketHistoryEntry[]; total: number; page: number; pageSize: number }> {
  const { db } = ports;
  const tenantId = actor.tenantId;
  let filtered = db.selectFrom('market_config_history as h').where('h.tenant_id', '=', tenantId);
  if (input.symbol) filtered = filtered.where('h.symbol', '=', input.symbol);
  if (input.groupId) filtered = filtered.where('h.group_id', '=', input.groupId);
  if (input.scope) filtered = filtered.where('h.scope', '=', input.scope);
  if (input.from !== undefined) filtered = filtered.where('h.created_at', '>=', new Date(input.from));
  if (input.to !== undefined) filtered = filtered.where('h.created_at', '<', new Date(input.to));
  const [count, rows] = await Promise.all([
    filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    filtered
      .select([
        'h.id',
        'h.created_at',
        'h.staff_id',
        'h.scope',
        'h.symbol',
        'h.group_id',
        'h.before',
        'h.after',
      ])
      .orderBy('h.created_at', 'desc')
      .orderBy('h.id', 'desc')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
  ]);
  const groups = await ports.groupNames(db, {
    tenantId,
    ids: rows.flatMap((r) => (r.group_id ? [r.group_id] : [])),
  });
  const staff = await ports.staffNames(db, {
    tenantId,
    ids: rows.flatMap((r) => (r.staff_id ? [r.staff_id] : [])),
  });
  return {
    items: rows.map((r) => {
      const who = r.staff_id ? staff.get(r.staff_id) : undefined;
      const before = record(r.before);
      const after = record(r.after);
      // The group's name now; null once the group is deleted.
      const current = r.group_id ? (groups.get(r.group_id) ?? null) : null;
      // A deleted group keeps its name in the history rows themselves.
      const groupName = current ?? ((before?.name ?? after?.name) as string | undefined) ?? null;
      return {
        id: String(r.id),
        createdAt: new Date(r.created_at).toISOString(),
        staffId: r.staff_id,
        staffName: who?.displayName ?? who?.username ?? null,
        scope: r.scope,
        symbol: r.symbol,
        groupId: r.group_id,
        groupName: r.scope === 'group_terms' ? current : groupName,
        before,
        after,
      };
    }),
    total: Number(count.total),
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * Records one change of the broker's market configuration (an instrument's terms, a group's
 * overrides, a group itself or its levels) in the history, in the transaction of the change
 * (`ports.db`), naming the staff member who made it. Returns the entry's id.
 */
export function recordConfigChange(
  ports: { db: TDb },
  { actor, ...entry }: THistoryChange & { actor: TActor },
): Promise<string> {
  return insertHistory(ports.db, {
    ...entry,
    tenantId: actor.tenantId,
    staffId: actor.kind === 'staff' ? actor.id : null,
  });
}
