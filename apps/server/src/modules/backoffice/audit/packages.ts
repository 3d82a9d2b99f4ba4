import {
  PACKAGE_OPTIONAL_MODULES,
  packageAllows,
  type TPackageLimit,
} from '@broker/contracts/admin/audit-rules';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../../db/database';
import type { PackagesTable } from '../../../db/schema-audit';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import type { TStaffProfile } from '../../identity/staff';
import { changes, currentRevision, isUniqueViolation, recordStaffChange } from './staff-change';

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
  staff: TStaffProfile;
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

/** What a broker uses of each limit: active staff, traders, open trading accounts, enabled symbols. */
export async function packageUsage(db: TDb, tenantId: string): Promise<Record<TPackageLimit, number>> {
  const count = (query: { executeTakeFirst(): Promise<{ n: string | number } | undefined> }) =>
    query.executeTakeFirst().then((row) => Number(row?.n ?? 0));
  const n = sql<string | number>`count(*)`.as('n');
  const [staff, customers, tradingAccounts, symbols] = await Promise.all([
    count(db.selectFrom('staff').select(n).where('tenant_id', '=', tenantId).where('status', '=', 'active')),
    count(db.selectFrom('users').select(n).where('tenant_id', '=', tenantId)),
    count(
      db
        .selectFrom('trading_accounts')
        .select(n)
        .where('tenant_id', '=', tenantId)
        .where('closed', '=', false),
    ),
    count(
      db.selectFrom('instruments').select(n).where('tenant_id', '=', tenantId).where('enabled', '=', true),
    ),
  ]);
  return { staff, customers, tradingAccounts, symbols };
}

/**
 * Refuses (-6015) to add `adding` more of a limited thing when the broker's package would be over
 * its limit: call it before creating staff, registering a trader, opening a trading account or
 * enabling a symbol. A broker without a package, or a package without that limit, passes.
 */
export async function assertWithinLimit(
  db: TDb,
  tenantId: string,
  limit: TPackageLimit,
  adding = 1,
): Promise<void> {
  const row = await db
    .selectFrom('package_assignments as a')
    .innerJoin('packages as p', 'p.id', 'a.package_id')
    .select(['p.max_staff', 'p.max_customers', 'p.max_trading_accounts', 'p.max_symbols'])
    .where('a.tenant_id', '=', tenantId)
    .executeTakeFirst();
  const max = row ? row[LIMIT_COLUMN[limit]] : null;
  if (max === null) return;
  const used = (await packageUsage(db, tenantId))[limit];
  if (used + adding > max)
    throw new AppError(
      AppErrorCode.PACKAGE_LIMIT_REACHED,
      { limit, max, used },
      `package limit ${limit} (${max}) reached`,
    );
}

// Reading and changing packages ------------------------------------------------------------------

/** Whether this broker is the platform operator (the default broker). */
export async function isPlatformTenant(db: TDb, tenantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tenants')
    .select('is_default')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return row?.is_default === true;
}

async function requirePlatform(db: TDb, tenantId: string) {
  if (!(await isPlatformTenant(db, tenantId))) throw new AppError(AppErrorCode.FORBIDDEN);
}

/** The broker's own package with its usage. */
export async function myPackage({ db, tenantId }: { db: TDb; tenantId: string }) {
  const [row, usage, platform] = await Promise.all([
    db
      .selectFrom('package_assignments as a')
      .innerJoin('packages as p', 'p.id', 'a.package_id')
      .select(COLUMNS)
      .where('a.tenant_id', '=', tenantId)
      .executeTakeFirst(),
    packageUsage(db, tenantId),
    isPlatformTenant(db, tenantId),
  ]);
  return {
    platform,
    package: row ? packageOf(row, 1) : null,
    usage,
    optionalModules: [...PACKAGE_OPTIONAL_MODULES],
  };
}

/** Platform only: every package with its broker count, and every other broker with its package. */
export async function listPackages({ db, tenantId }: { db: TDb; tenantId: string }) {
  await requirePlatform(db, tenantId);
  const [packages, brokers] = await Promise.all([
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
    db
      .selectFrom('tenants as t')
      .leftJoin('package_assignments as a', 'a.tenant_id', 't.id')
      .select(['t.id', 't.slug', 't.name', 't.status', 'a.package_id'])
      .where('t.is_default', '=', false)
      .orderBy('t.name')
      .execute(),
  ]);
  return {
    packages: packages.map((row) => packageOf(row, Number(row.brokers ?? 0))),
    brokers: brokers.map((b) => ({
      tenantId: b.id,
      slug: b.slug,
      name: b.name,
      status: b.status,
      packageId: b.package_id ?? null,
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
export async function savePackage({
  db,
  tenantId,
  staffId,
  ip,
  input,
}: {
  db: TDb;
  tenantId: string;
  staffId: string;
  ip: string;
  input: TPackageInput;
}): Promise<TPackage> {
  await requirePlatform(db, tenantId);
  const actor = { tenantId, staffId, ip };
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
        await recordStaffChange(trx, actor, {
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
      await recordStaffChange(trx, actor, {
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
export async function deletePackage({
  db,
  tenantId,
  staffId,
  ip,
  id,
}: {
  db: TDb;
  tenantId: string;
  staffId: string;
  ip: string;
  id: string;
}) {
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
    await recordStaffChange(
      trx,
      { tenantId, staffId, ip },
      {
        action: 'packages.delete',
        target: removed.name,
        details: { id, modules: removed.modules, limits: removed.limits },
      },
    );
  });
  invalidatePackageCache(db);
  return { ok: true as const };
}

/**
 * Platform only: gives a broker a package, or none (null: everything on). Recorded in the
 * platform's history (who did it) and in the broker's own history (what changed for it).
 */
export async function assignPackage({
  db,
  tenantId,
  staffId,
  ip,
  brokerId,
  packageId,
}: {
  db: TDb;
  tenantId: string;
  staffId: string;
  ip: string;
  brokerId: string;
  packageId: string | null;
}) {
  await requirePlatform(db, tenantId);
  await db.transaction().execute(async (trx) => {
    const broker = await trx
      .selectFrom('tenants')
      .select(['id', 'slug', 'name'])
      .where('id', '=', brokerId)
      .where('is_default', '=', false)
      .executeTakeFirst();
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
    await recordStaffChange(
      trx,
      { tenantId, staffId, ip },
      { action: 'packages.assign', target: broker.slug, details },
    );
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
