import type { TDb } from '../../db/database';

/*
 * Changing brokers for the platform operator's broker management (the access module checks who may,
 * records the audit entry and calls these inside its transaction: `ports.db` may be one).
 */

/** Adds a broker with its host names. */
export async function addTenant(
  ports: { db: TDb },
  input: { id: string; slug: string; name: string; hosts: readonly string[] },
): Promise<void> {
  await ports.db.insertInto('tenants').values({ id: input.id, slug: input.slug, name: input.name }).execute();
  for (const host of input.hosts)
    await ports.db.insertInto('tenant_domains').values({ host, tenant_id: input.id }).execute();
}

/** Renames a broker and replaces its host names. */
export async function updateTenant(
  ports: { db: TDb },
  input: { id: string; name: string; hosts: readonly string[] },
): Promise<void> {
  await ports.db.updateTable('tenants').set({ name: input.name }).where('id', '=', input.id).execute();
  await ports.db.deleteFrom('tenant_domains').where('tenant_id', '=', input.id).execute();
  for (const host of input.hosts)
    await ports.db.insertInto('tenant_domains').values({ host, tenant_id: input.id }).execute();
}

/** Suspends or reactivates a broker (a suspended broker's host names stop resolving to it). */
export async function setTenantStatus(
  ports: { db: TDb },
  input: { id: string; status: 'active' | 'suspended' },
): Promise<void> {
  await ports.db.updateTable('tenants').set({ status: input.status }).where('id', '=', input.id).execute();
}
