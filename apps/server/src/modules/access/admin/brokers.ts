import type { TBroker } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId } from '../../../ids';
import { forgetSessions, revokeTenantSessions } from '../../identity';
import { ensureInstruments } from '../../market';
import {
  addTenant,
  hostOwners,
  setTenantStatus,
  tenantSlugTaken,
  tenantsWithHosts,
  updateTenant,
} from '../../tenancy';
import { applyMarketConfig, ensureDefaultGroup, type TTradingPorts } from '../../trading';
import { auditAccess, isDefaultTenant, isUniqueViolation, type TAccessPorts } from '../common';
import {
  checkStaffPassword,
  DEFAULT_ACCESS_SETTINGS,
  ensureAccessSettings,
  ensureAdministrator,
} from '../staff';

/** Broker management belongs to the platform operator's staff only (defence beside the permission map). */
async function requirePlatform(db: TDb, actor: TActor) {
  if (!(await isDefaultTenant(db, actor.tenantId))) throw new AppError(AppErrorCode.FORBIDDEN);
}

async function brokerRows(db: TDb, id?: string): Promise<TBroker[]> {
  const tenants = await tenantsWithHosts(db, id);
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
    hosts: t.hosts,
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

export async function listBrokers({ db }: TAccessPorts, { actor }: { actor: TActor }) {
  await requirePlatform(db, actor);
  return { brokers: await brokerRows(db) };
}

/**
 * Host names must be free (another broker's answer -6016) and must not be the address the platform
 * is being managed on (`managedAt`, the call's Host header), which would hand the operator's own
 * site to the new broker.
 */
async function checkHosts(
  db: TDb,
  managedAt: string | undefined,
  hosts: readonly string[],
  brokerId: string | null,
) {
  const own = (managedAt ?? '').toLowerCase().replace(/:\d+$/, '');
  if (hosts.includes(own)) throw AppError.invalid({ hosts: 'invalid' });
  const taken = await hostOwners(db, hosts);
  if (taken.some((t) => t.tenantId !== brokerId))
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
  { db, host }: TTradingPorts,
  {
    actor,
    managedAt,
    ...input
  }: {
    actor: TActor;
    managedAt: string | undefined;
    name: string;
    slug: string;
    hosts: string[];
    adminUsername: string;
    adminPassword: string;
  },
): Promise<TBroker> {
  await requirePlatform(db, actor);
  checkStaffPassword(input.adminPassword, DEFAULT_ACCESS_SETTINGS);
  if (await tenantSlugTaken(db, input.slug)) throw new AppError(AppErrorCode.BROKER_SLUG_TAKEN);
  await checkHosts(db, managedAt, input.hosts, null);
  const id = newId();
  try {
    await db.transaction().execute(async (trx) => {
      await addTenant({ db: trx }, { id, slug: input.slug, name: input.name, hosts: input.hosts });
      await ensureInstruments({ db: trx, tenantId: id });
      await ensureDefaultGroup(trx, id);
      await ensureAccessSettings({ db: trx, tenantId: id });
      await ensureAdministrator({
        db: trx,
        tenantId: id,
        username: input.adminUsername,
        password: input.adminPassword,
      });
      await auditAccess(trx, actor, 'access.broker.create', id, {
        name: input.name,
        slug: input.slug,
        hosts: input.hosts,
        adminUsername: input.adminUsername,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.BROKER_SLUG_TAKEN);
    throw error;
  }
  await applyMarketConfig(host, id);
  return oneBroker(db, id);
}

export async function updateBroker(
  { db }: TAccessPorts,
  {
    actor,
    managedAt,
    ...input
  }: { actor: TActor; managedAt: string | undefined; id: string; name: string; hosts: string[] },
): Promise<TBroker> {
  await requirePlatform(db, actor);
  const before = await oneBroker(db, input.id);
  await checkHosts(db, managedAt, input.hosts, input.id);
  try {
    await db.transaction().execute(async (trx) => {
      await updateTenant({ db: trx }, { id: input.id, name: input.name, hosts: input.hosts });
      await auditAccess(trx, actor, 'access.broker.update', input.id, {
        before: { name: before.name, hosts: before.hosts },
        after: { name: input.name, hosts: input.hosts },
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
  { db }: TAccessPorts,
  { actor, ...input }: { actor: TActor; id: string; status: 'active' | 'suspended' },
): Promise<TBroker> {
  await requirePlatform(db, actor);
  const before = await oneBroker(db, input.id);
  if (before.isDefault) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  await db.transaction().execute(async (trx) => {
    await setTenantStatus({ db: trx }, { id: input.id, status: input.status });
    if (input.status === 'suspended') await revokeTenantSessions({ db: trx }, { tenantId: input.id });
    await auditAccess(
      trx,
      actor,
      input.status === 'suspended' ? 'access.broker.suspend' : 'access.broker.reactivate',
      input.id,
      { before: before.status },
    );
  });
  forgetSessions();
  return oneBroker(db, input.id);
}
