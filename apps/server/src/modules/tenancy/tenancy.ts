import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';

export interface TTenant {
  id: string;
  slug: string;
  name: string;
}

export const DEFAULT_TENANT_SLUG = 'default';

/** Creates the default broker on first start; returns it. */
export async function ensureDefaultTenant({ db, name }: { db: TDb; name: string }): Promise<TTenant> {
  const existing = await db
    .selectFrom('tenants')
    .select(['id', 'slug', 'name'])
    .where('is_default', '=', true)
    .executeTakeFirst();
  if (existing) return existing;
  const tenant = { id: newId(), slug: DEFAULT_TENANT_SLUG, name };
  await db
    .insertInto('tenants')
    .values({ ...tenant, is_default: true })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return await db
    .selectFrom('tenants')
    .select(['id', 'slug', 'name'])
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
}

export async function createTenant({
  db,
  slug,
  name,
  hosts = [],
}: {
  db: TDb;
  slug: string;
  name: string;
  hosts?: string[];
}): Promise<TTenant> {
  const tenant = { id: newId(), slug, name };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('tenants').values(tenant).execute();
    for (const host of hosts)
      await trx
        .insertInto('tenant_domains')
        .values({ host: host.toLowerCase(), tenant_id: tenant.id })
        .execute();
  });
  return tenant;
}

/**
 * The broker of a request (architecture: tenancy). An explicit Hostspecific value (a broker slug or
 * host name) must name a known active broker; otherwise the request host decides, and an unknown host
 * belongs to the default broker.
 */
export class TenantResolver {
  private cache = new Map<string, { tenant: TTenant | null; at: number }>();
  constructor(
    private readonly db: TDb,
    private readonly ttlMs = 5_000,
  ) {}

  async resolve({
    host,
    hostspecific,
  }: {
    host: string | undefined;
    hostspecific: string | undefined;
  }): Promise<TTenant> {
    if (hostspecific) {
      const named = await this.lookup(hostspecific.toLowerCase());
      if (!named) throw new AppError(AppErrorCode.TENANT_UNKNOWN, { broker: hostspecific });
      return named;
    }
    const hostname = (host ?? '').toLowerCase().replace(/:\d+$/, '');
    return (await this.lookup(hostname)) ?? (await this.defaultTenant());
  }

  private async defaultTenant(): Promise<TTenant> {
    const tenant = await this.cached('#default', () =>
      this.db
        .selectFrom('tenants')
        .select(['id', 'slug', 'name'])
        .where('is_default', '=', true)
        .executeTakeFirst(),
    );
    if (!tenant) throw new AppError(AppErrorCode.TENANT_UNKNOWN);
    return tenant;
  }

  private lookup(key: string): Promise<TTenant | null> {
    return this.cached(key, async () => {
      const byDomain = await this.db
        .selectFrom('tenant_domains')
        .innerJoin('tenants', 'tenants.id', 'tenant_domains.tenant_id')
        .select(['tenants.id', 'tenants.slug', 'tenants.name', 'tenants.status'])
        .where('tenant_domains.host', '=', key)
        .executeTakeFirst();
      // A suspended broker's host names answer "unknown broker", never the platform's own site.
      if (byDomain?.status === 'suspended') throw new AppError(AppErrorCode.TENANT_UNKNOWN, { broker: key });
      if (byDomain) return { id: byDomain.id, slug: byDomain.slug, name: byDomain.name };
      return this.db
        .selectFrom('tenants')
        .select(['id', 'slug', 'name'])
        .where('slug', '=', key)
        .where('status', '=', 'active')
        .executeTakeFirst();
    });
  }

  private async cached(key: string, load: () => Promise<TTenant | undefined>): Promise<TTenant | null> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.tenant;
    const tenant = (await load()) ?? null;
    this.cache.set(key, { tenant, at: Date.now() });
    return tenant;
  }
}
