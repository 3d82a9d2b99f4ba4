import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/*
 * What other modules read of the brokers: they ask here instead of reading the tenancy tables.
 * `db` may be a transaction.
 */

/** True for the platform operator's own broker (the default tenant). */
export async function isDefaultTenant(db: TDb, tenantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tenants')
    .select('is_default')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return row?.is_default === true;
}

/** A broker's status and whether it is the platform operator's; null for an unknown broker. */
export async function tenantStatus(
  db: TDb,
  tenantId: string,
): Promise<{ status: 'active' | 'suspended'; isDefault: boolean } | null> {
  const row = await db
    .selectFrom('tenants')
    .select(['status', 'is_default'])
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return row ? { status: row.status, isDefault: row.is_default } : null;
}

/** Every broker's id (the engine loads each one's market configuration at start). */
export async function tenantIds(db: TDb): Promise<string[]> {
  const rows = await db.selectFrom('tenants').select('id').execute();
  return rows.map((r) => r.id);
}

/** How many brokers a broker sees: every one for the platform operator, itself for the others. */
export async function visibleTenantCount(db: TDb, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('tenants')
    .select(sql<number>`count(*)`.as('n'))
    .where((eb) =>
      eb.or([
        eb('id', '=', tenantId),
        eb.exists(
          db
            .selectFrom('tenants as me')
            .select('me.id')
            .where('me.id', '=', tenantId)
            .where('me.is_default', '=', true),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The brokers (or the one with `id`) with their host names, the platform operator's first, then by
 * creation.
 */
export async function tenantsWithHosts(db: TDb, id?: string) {
  let query = db
    .selectFrom('tenants')
    .select(['id', 'name', 'slug', 'status', 'is_default', 'created_at'])
    .orderBy('is_default', 'desc')
    .orderBy('created_at');
  if (id) query = query.where('id', '=', id);
  const tenants = await query.execute();
  const domains = await db
    .selectFrom('tenant_domains')
    .select(['host', 'tenant_id'])
    .orderBy('host')
    .execute();
  return tenants.map((t) => ({
    ...t,
    hosts: domains.filter((d) => d.tenant_id === t.id).map((d) => d.host),
  }));
}

/** The brokers other than the platform operator, by name. */
export function otherTenants(db: TDb) {
  return db
    .selectFrom('tenants')
    .select(['id', 'slug', 'name', 'status'])
    .where('is_default', '=', false)
    .orderBy('name')
    .execute();
}

/** A broker other than the platform operator, by id. */
export function otherTenant(db: TDb, id: string) {
  return db
    .selectFrom('tenants')
    .select(['id', 'slug', 'name'])
    .where('id', '=', id)
    .where('is_default', '=', false)
    .executeTakeFirst();
}

/** Whether a broker has this slug. */
export async function tenantSlugTaken(db: TDb, slug: string): Promise<boolean> {
  const row = await db.selectFrom('tenants').select('id').where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

/** The brokers these host names already belong to. */
export async function hostOwners(
  db: TDb,
  hosts: readonly string[],
): Promise<{ host: string; tenantId: string }[]> {
  const rows = await db
    .selectFrom('tenant_domains')
    .select(['host', 'tenant_id'])
    .where('host', 'in', [...hosts])
    .execute();
  return rows.map((r) => ({ host: r.host, tenantId: r.tenant_id }));
}
