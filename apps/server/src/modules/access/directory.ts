import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/*
 * What other modules may ask about a broker's staff (ADR 011): they read no staff table, they ask
 * here. Lists ask once per page for the staff ids on it, never once per row.
 */

/** The names of the broker's staff members among `ids` (a missing one is absent from the map). */
export async function staffNames(
  db: TDb,
  { tenantId, ids }: { tenantId: string; ids: readonly string[] },
): Promise<Map<string, { displayName: string; username: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('staff')
    .select(['id', 'display_name', 'username'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`id = any(${[...new Set(ids)]})`)
    .execute();
  return new Map(rows.map((r) => [r.id, { displayName: r.display_name, username: r.username }]));
}

/** The ids of the broker's staff members whose username contains the text, in any case. */
export async function staffIdsByUsername(
  db: TDb,
  { tenantId, contains }: { tenantId: string; contains: string },
): Promise<string[]> {
  const rows = await db
    .selectFrom('staff')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('username', 'ilike', `%${contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    .execute();
  return rows.map((r) => r.id);
}

/** How many staff members the broker has (of one status when given). */
export async function countStaff(
  db: TDb,
  { tenantId, status }: { tenantId: string; status?: 'active' | 'disabled' },
): Promise<number> {
  let query = db
    .selectFrom('staff')
    .select(sql<string | number>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId);
  if (status) query = query.where('status', '=', status);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many active staff members the broker has: what its package's staff limit counts. */
export const countActiveStaff = (db: TDb, { tenantId }: { tenantId: string }): Promise<number> =>
  countStaff(db, { tenantId, status: 'active' });
