import {
  PACKAGE_OPTIONAL_MODULES,
  packageAllows,
  type TPackageLimit,
} from '@broker/contracts/admin/audit-rules';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import { auditedActor, type TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { changes, currentRevision, isUniqueViolation, recordAudit } from '../audit';
import { isDefaultTenant, otherTenant, otherTenants } from '../tenancy';
import type { PackagesTable } from './schema';

/*
 * Subscription packages. The platform operator (the default broker) defines packages and assigns
 * one to each broker; a broker without a package has every module and no limits. Defining and
 * assigning needs `packages.edit` held by the platform's own staff: a broker's staff holding
 * `packages.edit` is refused (-1009), because a broker cannot change what it subscribed to.
 */

type TPackageRow = Pick<
  PackagesTable,
  'id' | 'name' | 'modules' | 'max_staff' | 'max_customers' | 'max_trading_accounts' | 'max_symbols'
> & { description: string; revision: number; updated_at: Date };

const COLUMNS = [
  'p.id',
  'p.name',
  'p.description',
  'p.modules',
  'p.max_staff',
  'p.max_customers',
  'p.max_trading_accounts',
  'p.max_symbols',
  'p.revision',
  'p.updated_at',
] as const;

export const packageOf = (row: TPackageRow, brokers: number) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  modules: PACKAGE_OPTIONAL_MODULES.filter((m) => row.modules.includes(m)),
  limits: {
    staff: row.max_staff,
    customers: row.max_customers,
    tradingAccounts: row.max_trading_accounts,
    symbols: row.max_symbols,
  },
  revision: row.revision,
  brokers,
  updatedAt: new Date(row.updated_at).toISOString(),
});
export type TPackage = ReturnType<typeof packageOf>;

export interface TPackageInput {
  id?: string | undefined;
  revision?: number | undefined;
  name: string;
  description: string;
  modules: string[];
  limits: Record<TPackageLimit, number | null>;
}

// The gate ---------------------------------------------------------------------------------------

const GATE_TTL_MS = 10_000;
const gateCache = new WeakMap<TDb, Map<string, { modules: string[] | null; at: number }>>();

/**
 * The optional modules a broker's package switches on, or null when the broker has no package
 * (everything on). Cached per database for 10 s; a change made here clears the cache at once,
 * other server instances see it within the 10 s.
 */
export async function packageModules(db: TDb, tenantId: string): Promise<string[] | null> {
  let cache = gateCache.get(db);
  if (!cache) {
    cache = new Map();
    gateCache.set(db, cache);
  }
  const hit = cache.get(tenantId);
  if (hit && Date.now() - hit.at < GATE_TTL_MS) return hit.modules;
  const row = await db
    .selectFrom('package_assignments as a')
    .innerJoin('packages as p', 'p.id', 'a.package_id')
    .select('p.modules')
    .where('a.tenant_id', '=', tenantId)
    .executeTakeFirst();
  const modules = row ? row.modules : null;
  cache.set(tenantId, { modules, at: Date.now() });
  return modules;
}

export function invalidatePackageCache(db: TDb): void {
  gateCache.delete(db);
}

/**
 * The gateway's package check for a staff call: a route whose permission belongs to a module the
 * broker's package leaves out answers -6015, and the staff member's permissions lose that module's
 * entries (so adminme, and with it the menu, no longer show it).
 */
export async function applyPackage({
  db,
  tenantId,
  staff,
  permission,
}: {
  db: TDb;
  tenantId: string;
  /** The staff member's effective permissions, narrowed here to what the plan allows. */
  staff: { permissions: string[] };
  permission: string | null;
}): Promise<void> {
  const modules = await packageModules(db, tenantId);
  if (!modules) return;
  if (permission && !packageAllows(permission, modules))
    throw new AppError(AppErrorCode.MODULE_NOT_IN_PACKAGE, { module: permission.split('.')[0] ?? '' });
  staff.permissions = staff.permissions.filter((p) => packageAllows(p, modules));
}

// Limits -----------------------------------------------------------------------------------------

const LIMIT_COLUMN = {
  staff: 'max_staff',
  customers: 'max_customers',
  tradingAccounts: 'max_trading_accounts',
  symbols: 'max_symbols',
} as const satisfies Record<TPackageLimit, keyof PackagesTable>;

/**
 * Counts what a broker has of a limited thing. The module that owns the thing counts it and hands
 * the count in: entitlements reads no other module's tables (ADR 011).
 */
export type TCount = (db: TDb, input: { tenantId: string }) => Promise<number>;

/**
 * The counts of the limited things other modules own: active staff (access), traders (identity),
 * open trading accounts (trading), enabled symbols (market).
 */
export interface TUsageCounters {
  staff: TCount;
  customers: TCount;
  tradingAccounts: TCount;
  symbols: TCount;
}

/** What a broker uses of each limit: active staff, traders, open trading accounts, enabled symbols. */
export async function packageUsage(
  db: TDb,
  tenantId: string,
  counters: TUsageCounters,
): Promise<Record<TPackageLimit, number>> {
  const [staff, customers, tradingAccounts, symbols] = await Promise.all([
    counters.staff(db, { tenantId }),
    counters.customers(db, { tenantId }),
    counters.tradingAccounts(db, { tenantId }),
    counters.symbols(db, { tenantId }),
  ]);
  return { staff, customers, tradingAccounts, symbols };
}

/** The broker's package maximum of a limited thing; null when unlimited. */
export async function packageMax(db: TDb, tenantId: string, limit: TPackageLimit): Promise<number | null> {
  const row = await db
    .selectFrom('package_assignments as a')
    .innerJoin('packages as p', 'p.id', 'a.package_id')
    .select(['p.max_staff', 'p.max_customers', 'p.max_trading_accounts', 'p.max_symbols'])
    .where('a.tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row ? row[LIMIT_COLUMN[limit]] : null;
}

/**
 * Refuses (-6015) to add `adding` more of a limited thing when the broker's package would be over
 * its limit: call it before creating staff, registering a trader, opening a trading account or
 * enabling a symbol, with the count of what the broker has (`count`, from the module that owns the
 * thing). A broker without a package, or a package without that limit, passes.
 */
export async function assertWithinLimit(
  db: TDb,
  tenantId: string,
  limit: TPackageLimit,
  count: TCount,
  adding = 1,
): Promise<void> {
  // Inside the caller's transaction, checks of one broker's limit wait for each other until the
  // transaction that adds ends, so parallel additions cannot all see room for one more.
  if (db.isTransaction)
    await sql`select pg_advisory_xact_lock(hashtext(${`package-limit:${tenantId}:${limit}`}))`.execute(db);
  const max = await packageMax(db, tenantId, limit);
  if (max === null) return;
  const used = await count(db, { tenantId });
  if (used + adding > max)
    throw new AppError(
      AppErrorCode.PACKAGE_LIMIT_REACHED,
      { limit, max, used },
      `package limit ${limit} (${max}) reached`,
    );
}

// Reading and changing packages ------------------------------------------------------------------

async function requirePlatform(db: TDb, tenantId: string) {
  if (!(await isDefaultTenant(db, tenantId))) throw new AppError(AppErrorCode.FORBIDDEN);
}

/** The broker's own package with its usage. */
export async function myPackage(
  { db, counters }: { db: TDb; counters: TUsageCounters },
  { actor }: { actor: TActor },
) {
  const { tenantId } = actor;
  const [row, usage, platform] = await Promise.all([
    db
      .selectFrom('package_assignments as a')
      .innerJoin('packages as p', 'p.id', 'a.package_id')
      .select(COLUMNS)
      .where('a.tenant_id', '=', tenantId)
      .executeTakeFirst(),
    packageUsage(db, tenantId, counters),
    isDefaultTenant(db, tenantId),
  ]);
  return {
    platform,
    package: row ? packageOf(row, 1) : null,
    usage,
    optionalModules: [...PACKAGE_OPTIONAL_MODULES],
  };
}

/** Platform only: every package with its broker count, and every other broker with its package. */
export async function listPackages({ db }: { db: TDb }, { actor }: { actor: TActor }) {
  const { tenantId } = actor;
  await requirePlatform(db, tenantId);
  const [packages, brokers, assigned] = await Promise.all([
    db
      .selectFrom('packages as p')
      .select(COLUMNS)
      .select((eb) =>
        eb
          .selectFrom('package_assignments as a')
          .select(sql<string | number>`count(*)`.as('n'))
          .whereRef('a.package_id', '=', 'p.id')
          .as('brokers'),
      )
      .where('p.tenant_id', '=', tenantId)
      .orderBy('p.name')
      .execute(),
    otherTenants(db),
    db.selectFrom('package_assignments').select(['tenant_id', 'package_id']).execute(),
  ]);
  const packageOfBroker = new Map(assigned.map((a) => [a.tenant_id, a.package_id]));
  return {
    packages: packages.map((row) => packageOf(row, Number(row.brokers ?? 0))),
    brokers: brokers.map((b) => ({
      tenantId: b.id,
      slug: b.slug,
      name: b.name,
      status: b.status,
      packageId: packageOfBroker.get(b.id) ?? null,
    })),
  };
}

async function brokerCount(db: TDb, packageId: string) {
  const row = await db
    .selectFrom('package_assignments')
    .select(sql<string | number>`count(*)`.as('n'))
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Platform only: creates or edits a package (-6017 when the revision read is stale). */
export async function savePackage(
  { db }: { db: TDb },
  { actor, ...input }: TPackageInput & { actor: TActor },
): Promise<TPackage> {
  const { tenantId } = actor;
  await requirePlatform(db, tenantId);
  const values = {
    name: input.name,
    description: input.description,
    modules: PACKAGE_OPTIONAL_MODULES.filter((m) => input.modules.includes(m)),
    max_staff: input.limits.staff,
    max_customers: input.limits.customers,
    max_trading_accounts: input.limits.tradingAccounts,
    max_symbols: input.limits.symbols,
  };
  try {
    const saved = await db.transaction().execute(async (trx) => {
      if (!input.id) {
        const id = newId();
        await trx
          .insertInto('packages')
          .values({ id, tenant_id: tenantId, ...values })
          .execute();
        const row = await trx
          .selectFrom('packages as p')
          .select(COLUMNS)
          .where('p.id', '=', id)
          .executeTakeFirstOrThrow();
        const created = packageOf(row, 0);
        await recordAudit(trx, {
          ...auditedActor(actor),
          action: 'packages.create',
          target: created.name,
          details: { id, modules: created.modules, limits: created.limits, description: created.description },
        });
        return created;
      }
      const before = currentRevision(
        await trx
          .selectFrom('packages as p')
          .select(COLUMNS)
          .where('p.tenant_id', '=', tenantId)
          .where('p.id', '=', input.id)
          .forUpdate()
          .executeTakeFirst(),
        input.revision,
      );
      await trx
        .updateTable('packages')
        .set({ ...values, revision: before.revision + 1, updated_at: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', input.id)
        .execute();
      const row = await trx
        .selectFrom('packages as p')
        .select(COLUMNS)
        .where('p.id', '=', input.id)
        .executeTakeFirstOrThrow();
      const brokers = await brokerCount(trx, input.id);
      const updated = packageOf(row, brokers);
      const old = packageOf(before, brokers);
      const fields = (p: TPackage) => ({
        name: p.name,
        description: p.description,
        modules: p.modules,
        limits: p.limits,
      });
      await recordAudit(trx, {
        ...auditedActor(actor),
        action: 'packages.update',
        target: updated.name,
        details: { id: updated.id, brokers, changes: changes(fields(old), fields(updated)) },
      });
      return updated;
    });
    invalidatePackageCache(db);
    return saved;
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.invalid({ name: 'invalid' });
    throw error;
  }
}

/** Platform only: removes a package that no broker has (-6013 while brokers have it). */
export async function deletePackage({ db }: { db: TDb }, { actor, id }: { actor: TActor; id: string }) {
  const { tenantId } = actor;
  await requirePlatform(db, tenantId);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('packages as p')
      .select(COLUMNS)
      .where('p.tenant_id', '=', tenantId)
      .where('p.id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    if ((await brokerCount(trx, id)) > 0) throw new AppError(AppErrorCode.CONFIG_INVALID);
    await trx.deleteFrom('packages').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    const removed = packageOf(row, 0);
    await recordAudit(trx, {
      ...auditedActor(actor),
      action: 'packages.delete',
      target: removed.name,
      details: { id, modules: removed.modules, limits: removed.limits },
    });
  });
  invalidatePackageCache(db);
  return { ok: true as const };
}

/**
 * Platform only: gives a broker a package, or none (null: everything on). Recorded in the
 * platform's history (who did it) and in the broker's own history (what changed for it).
 */
export async function assignPackage(
  { db }: { db: TDb },
  { actor, brokerId, packageId }: { actor: TActor; brokerId: string; packageId: string | null },
) {
  const { tenantId } = actor;
  const staffId = actor.id;
  await requirePlatform(db, tenantId);
  await db.transaction().execute(async (trx) => {
    const broker = await otherTenant(trx, brokerId);
    if (!broker) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    const next = packageId
      ? await trx
          .selectFrom('packages')
          .select(['id', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', '=', packageId)
          .executeTakeFirst()
      : null;
    if (packageId && !next) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    const previous = await trx
      .selectFrom('package_assignments as a')
      .innerJoin('packages as p', 'p.id', 'a.package_id')
      .select(['p.id', 'p.name'])
      .where('a.tenant_id', '=', brokerId)
      .executeTakeFirst();
    if (next) {
      await trx
        .insertInto('package_assignments')
        .values({ tenant_id: brokerId, package_id: next.id, assigned_by: staffId })
        .onConflict((oc) =>
          oc
            .column('tenant_id')
            .doUpdateSet({ package_id: next.id, assigned_by: staffId, assigned_at: new Date() }),
        )
        .execute();
    } else {
      await trx.deleteFrom('package_assignments').where('tenant_id', '=', brokerId).execute();
    }
    const details = {
      broker: { id: broker.id, slug: broker.slug, name: broker.name },
      from: previous ? { id: previous.id, name: previous.name } : null,
      to: next ? { id: next.id, name: next.name } : null,
    };
    await recordAudit(trx, {
      ...auditedActor(actor),
      action: 'packages.assign',
      target: broker.slug,
      details,
    });
    await recordAudit(trx, {
      tenantId: brokerId,
      actorKind: 'system',
      actorId: null,
      action: 'packages.assigned',
      target: next?.name ?? null,
      ip: null,
      details: { from: details.from, to: details.to },
    });
  });
  invalidatePackageCache(db);
  return { ok: true as const };
}
