import type { TBroker } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../../db/database';
import type { TCallContext } from '../../../http/context';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import { forgetSessions } from '../../identity/sessions';
import {
  checkStaffPassword,
  DEFAULT_ACCESS_SETTINGS,
  ensureAccessSettings,
  ensureAdministrator,
} from '../../identity/staff';
import { ensureInstruments } from '../../market/instruments-store';
import { applyMarketConfig, ensureDefaultGroup } from '../../trading/terms-sync';
import { actorOf, isDefaultTenant, isUniqueViolation } from './common';

/** Broker management belongs to the platform operator's staff only (defence beside the permission map). */
async function requirePlatform(ctx: TCallContext) {
  if (!(await isDefaultTenant(ctx.services.database.db, ctx.tenant.id)))
    throw new AppError(AppErrorCode.FORBIDDEN);
}

async function brokerRows(db: TDb, id?: string): Promise<TBroker[]> {
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
  const count = async (table: 'staff' | 'users') =>
    new Map(
      (
        await db
          .selectFrom(table)
          .select(['tenant_id', sql<number>`count(*)`.as('n')])
          .groupBy('tenant_id')
          .execute()
      ).map((r) => [r.tenant_id, Number(r.n)]),
    );
  const [staff, users] = [await count('staff'), await count('users')];
  return tenants.map((t) => ({
    id: t.id,
    name: t.name,
    slug: t.slug,
    hosts: domains.filter((d) => d.tenant_id === t.id).map((d) => d.host),
    status: t.status,
    isDefault: t.is_default,
    staffCount: staff.get(t.id) ?? 0,
    customerCount: users.get(t.id) ?? 0,
    createdAt: new Date(t.created_at).toISOString(),
  }));
}

async function oneBroker(db: TDb, id: string): Promise<TBroker> {
  const [broker] = await brokerRows(db, id);
  if (!broker) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return broker;
}

export async function listBrokers(ctx: TCallContext) {
  await requirePlatform(ctx);
  return { brokers: await brokerRows(ctx.services.database.db) };
}

/**
 * Host names must be free (another broker's answer -6016) and must not be the address the platform
 * is being managed on, which would hand the operator's own site to the new broker.
 */
async function checkHosts(ctx: TCallContext, hosts: readonly string[], brokerId: string | null) {
  const own = (ctx.request.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  if (hosts.includes(own)) throw AppError.invalid({ hosts: 'invalid' });
  const taken = await ctx.services.database.db
    .selectFrom('tenant_domains')
    .select(['host', 'tenant_id'])
    .where('host', 'in', [...hosts])
    .execute();
  if (taken.some((t) => t.tenant_id !== brokerId))
    throw new AppError(
      AppErrorCode.BROKER_SLUG_TAKEN,
      undefined,
      `host ${taken.map((t) => t.host).join(',')}`,
    );
}

/**
 * Creates a broker with its host names, instrument catalogue, default account group, security
 * settings and first administrator (holding the system role), all or nothing.
 */
export async function createBroker(
  ctx: TCallContext,
  input: { name: string; slug: string; hosts: string[]; adminUsername: string; adminPassword: string },
): Promise<TBroker> {
  await requirePlatform(ctx);
  const db = ctx.services.database.db;
  checkStaffPassword(input.adminPassword, DEFAULT_ACCESS_SETTINGS);
  const slugTaken = await db
    .selectFrom('tenants')
    .select('id')
    .where('slug', '=', input.slug)
    .executeTakeFirst();
  if (slugTaken) throw new AppError(AppErrorCode.BROKER_SLUG_TAKEN);
  await checkHosts(ctx, input.hosts, null);
  const id = newId();
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('tenants').values({ id, slug: input.slug, name: input.name }).execute();
      for (const host of input.hosts)
        await trx.insertInto('tenant_domains').values({ host, tenant_id: id }).execute();
      await ensureInstruments({ db: trx, tenantId: id });
      await ensureDefaultGroup(trx, id);
      await ensureAccessSettings({ db: trx, tenantId: id });
      await ensureAdministrator({
        db: trx,
        tenantId: id,
        username: input.adminUsername,
        password: input.adminPassword,
      });
      await recordAudit(trx, {
        tenantId: ctx.tenant.id,
        actorKind: 'staff',
        actorId: actorOf(ctx).staffId,
        action: 'access.broker.create',
        target: id,
        ip: ctx.ip,
        details: {
          name: input.name,
          slug: input.slug,
          hosts: input.hosts,
          adminUsername: input.adminUsername,
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.BROKER_SLUG_TAKEN);
    throw error;
  }
  await applyMarketConfig(ctx.services, id);
  return oneBroker(db, id);
}

export async function updateBroker(
  ctx: TCallContext,
  input: { id: string; name: string; hosts: string[] },
): Promise<TBroker> {
  await requirePlatform(ctx);
  const db = ctx.services.database.db;
  const before = await oneBroker(db, input.id);
  await checkHosts(ctx, input.hosts, input.id);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('tenants').set({ name: input.name }).where('id', '=', input.id).execute();
      await trx.deleteFrom('tenant_domains').where('tenant_id', '=', input.id).execute();
      for (const host of input.hosts)
        await trx.insertInto('tenant_domains').values({ host, tenant_id: input.id }).execute();
      await recordAudit(trx, {
        tenantId: ctx.tenant.id,
        actorKind: 'staff',
        actorId: actorOf(ctx).staffId,
        action: 'access.broker.update',
        target: input.id,
        ip: ctx.ip,
        details: {
          before: { name: before.name, hosts: before.hosts },
          after: { name: input.name, hosts: input.hosts },
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.BROKER_SLUG_TAKEN);
    throw error;
  }
  return oneBroker(db, input.id);
}

/** Suspends a broker (its host names stop resolving to it and every session of it ends) or reactivates it. */
export async function setBrokerStatus(
  ctx: TCallContext,
  input: { id: string; status: 'active' | 'suspended' },
): Promise<TBroker> {
  await requirePlatform(ctx);
  const db = ctx.services.database.db;
  const before = await oneBroker(db, input.id);
  if (before.isDefault) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('tenants').set({ status: input.status }).where('id', '=', input.id).execute();
    if (input.status === 'suspended')
      await trx
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('tenant_id', '=', input.id)
        .where('revoked_at', 'is', null)
        .execute();
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: actorOf(ctx).staffId,
      action: input.status === 'suspended' ? 'access.broker.suspend' : 'access.broker.reactivate',
      target: input.id,
      ip: ctx.ip,
      details: { before: before.status },
    });
  });
  forgetSessions();
  return oneBroker(db, input.id);
}
