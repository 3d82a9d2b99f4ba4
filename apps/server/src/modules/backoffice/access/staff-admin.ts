import type { TAccessSettings, TStaffRow } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../../db/database';
import type { TCallContext } from '../../../http/context';
import { newId, strongPassword } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import { hashPassword } from '../../identity/passwords';
import { forgetSessions } from '../../identity/sessions';
import {
  checkStaffPassword,
  effectivePermissions,
  grantablePermissions,
  loadRoles,
  readAccessSettings,
} from '../../identity/staff';
import { assertWithinLimit } from '../audit/packages';
import { actorOf, beyondActor, isDefaultTenant, isUniqueViolation, revokeStaffSessions } from './common';

/** The broker's staff as the staff page lists them (one member when `staffId` is given). */
export async function staffRows(
  db: TDb,
  tenantId: string,
  staffId?: string,
  now = new Date(),
): Promise<TStaffRow[]> {
  let query = db
    .selectFrom('staff')
    .select([
      'id',
      'username',
      'display_name',
      'status',
      'totp_secret',
      'last_sign_in_at',
      'locked_until',
      'failed_attempts',
      'created_at',
    ])
    .where('tenant_id', '=', tenantId)
    .orderBy('username');
  if (staffId) query = query.where('id', '=', staffId);
  const rows = await query.execute();
  const links = await db
    .selectFrom('staff_roles')
    .innerJoin('roles', 'roles.id', 'staff_roles.role_id')
    .select(['staff_roles.staff_id', 'roles.id', 'roles.name', 'roles.is_system'])
    .where('roles.tenant_id', '=', tenantId)
    .orderBy('roles.name')
    .execute();
  return rows.map((row) => {
    const roles = links.filter((l) => l.staff_id === row.id);
    return {
      id: row.id,
      username: row.username,
      displayName: row.display_name,
      status: row.status,
      roles: roles.map((r) => ({ id: r.id, name: r.name })),
      isAdministrator: roles.some((r) => r.is_system),
      twoFactor: row.totp_secret !== null,
      lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
      lockedUntil: row.locked_until && row.locked_until > now ? row.locked_until.toISOString() : null,
      failedAttempts: row.failed_attempts,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
}

async function oneRow(db: TDb, tenantId: string, staffId: string): Promise<TStaffRow> {
  const [row] = await staffRows(db, tenantId, staffId);
  if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return row;
}

export async function listStaff(ctx: TCallContext) {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const roles = await loadRoles(db, tenantId);
  const effective = effectivePermissions(roles, grantablePermissions(await isDefaultTenant(db, tenantId)));
  return {
    staff: await staffRows(db, tenantId),
    roles: roles
      .map((r) => ({ id: r.id, name: r.name, isSystem: r.is_system, permissions: effective.get(r.id) ?? [] }))
      .sort((a, b) => Number(b.isSystem) - Number(a.isSystem) || a.name.localeCompare(b.name)),
    settings: await readAccessSettings(db, tenantId),
    selfId: actorOf(ctx).staffId,
  };
}

/** Effective permissions of a set of roles of this broker; unknown role ids answer not found. */
async function permissionsOfRoles(db: TDb, tenantId: string, roleIds: readonly string[]) {
  const roles = await loadRoles(db, tenantId);
  const effective = effectivePermissions(roles, grantablePermissions(await isDefaultTenant(db, tenantId)));
  const permissions = new Set<string>();
  for (const id of roleIds) {
    const list = effective.get(id);
    if (!list) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    for (const p of list) permissions.add(p);
  }
  return { permissions: [...permissions], systemRoleId: roles.find((r) => r.is_system)?.id ?? null };
}

/** The target exists here, and the actor holds every permission the target has (no acting upwards). */
async function targetFor(ctx: TCallContext, staffId: string) {
  const db = ctx.services.database.db;
  const target = await db
    .selectFrom('staff')
    .select(['id', 'username', 'display_name', 'status'])
    .where('tenant_id', '=', ctx.tenant.id)
    .where('id', '=', staffId)
    .executeTakeFirst();
  if (!target) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const roleIds = (
    await db.selectFrom('staff_roles').select('role_id').where('staff_id', '=', staffId).execute()
  ).map((r) => r.role_id);
  const { permissions, systemRoleId } = await permissionsOfRoles(db, ctx.tenant.id, roleIds);
  return {
    ...target,
    roleIds,
    permissions,
    systemRoleId,
    outranks: beyondActor(actorOf(ctx), permissions).length > 0,
  };
}

/** Refuses (-6018) a change that would leave the broker without an active administrator. */
async function keepAnAdministrator(db: TDb, tenantId: string, staffId: string, systemRoleId: string | null) {
  if (!systemRoleId) return;
  const others = await db
    .selectFrom('staff_roles')
    .innerJoin('staff', 'staff.id', 'staff_roles.staff_id')
    .select(sql<number>`count(*)`.as('n'))
    .where('staff_roles.role_id', '=', systemRoleId)
    .where('staff.tenant_id', '=', tenantId)
    .where('staff.status', '=', 'active')
    .where('staff.id', '!=', staffId)
    .executeTakeFirst();
  if (Number(others?.n ?? 0) === 0) throw new AppError(AppErrorCode.LAST_ADMINISTRATOR);
}

const audit = (
  ctx: TCallContext,
  db: TDb,
  action: string,
  target: string,
  details: Record<string, unknown>,
) =>
  recordAudit(db, {
    tenantId: ctx.tenant.id,
    actorKind: 'staff',
    actorId: actorOf(ctx).staffId,
    action,
    target,
    ip: ctx.ip,
    details,
  });

export async function createStaff(
  ctx: TCallContext,
  input: { username: string; displayName: string; password: string; roleIds: string[] },
): Promise<TStaffRow> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  checkStaffPassword(input.password, await readAccessSettings(db, tenantId));
  const roleIds = [...new Set(input.roleIds)];
  const { permissions } = await permissionsOfRoles(db, tenantId, roleIds);
  if (beyondActor(actorOf(ctx), permissions).length > 0)
    throw new AppError(AppErrorCode.PERMISSION_NOT_GRANTABLE);
  const taken = await db
    .selectFrom('staff')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(username)`, '=', input.username.toLowerCase())
    .executeTakeFirst();
  if (taken) throw new AppError(AppErrorCode.STAFF_USERNAME_TAKEN);
  await assertWithinLimit(db, tenantId, 'staff');
  const id = newId();
  const passwordHash = await hashPassword(input.password);
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('staff')
        .values({
          id,
          tenant_id: tenantId,
          username: input.username,
          password_hash: passwordHash,
          display_name: input.displayName,
          locked_until: null,
          password_changed_at: new Date(),
        })
        .execute();
      for (const roleId of roleIds)
        await trx.insertInto('staff_roles').values({ staff_id: id, role_id: roleId }).execute();
      await audit(ctx, trx, 'access.staff.create', id, {
        username: input.username,
        displayName: input.displayName,
        roleIds,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.STAFF_USERNAME_TAKEN);
    throw error;
  }
  return oneRow(db, tenantId, id);
}

export async function updateStaff(
  ctx: TCallContext,
  input: { id: string; displayName: string; roleIds: string[] },
): Promise<TStaffRow> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const target = await targetFor(ctx, input.id);
  const roleIds = [...new Set(input.roleIds)];
  const rolesChanged =
    roleIds.length !== target.roleIds.length || roleIds.some((id) => !target.roleIds.includes(id));
  if (rolesChanged) {
    if (input.id === actorOf(ctx).staffId) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
    if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
    const { permissions } = await permissionsOfRoles(db, tenantId, roleIds);
    if (beyondActor(actorOf(ctx), permissions).length > 0)
      throw new AppError(AppErrorCode.PERMISSION_NOT_GRANTABLE);
    const wasAdministrator = target.systemRoleId !== null && target.roleIds.includes(target.systemRoleId);
    const staysAdministrator = target.systemRoleId !== null && roleIds.includes(target.systemRoleId);
    if (wasAdministrator && !staysAdministrator && target.status === 'active')
      await keepAnAdministrator(db, tenantId, input.id, target.systemRoleId);
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ display_name: input.displayName })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', input.id)
      .execute();
    if (rolesChanged) {
      await trx.deleteFrom('staff_roles').where('staff_id', '=', input.id).execute();
      for (const roleId of roleIds)
        await trx.insertInto('staff_roles').values({ staff_id: input.id, role_id: roleId }).execute();
    }
    await audit(ctx, trx, 'access.staff.update', input.id, {
      before: { displayName: target.display_name, roleIds: target.roleIds },
      after: { displayName: input.displayName, roleIds },
    });
  });
  return oneRow(db, tenantId, input.id);
}

export async function setStaffStatus(
  ctx: TCallContext,
  input: { id: string; status: 'active' | 'disabled' },
): Promise<TStaffRow> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  if (input.id === actorOf(ctx).staffId) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  const target = await targetFor(ctx, input.id);
  if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
  if (
    input.status === 'disabled' &&
    target.status === 'active' &&
    target.systemRoleId &&
    target.roleIds.includes(target.systemRoleId)
  )
    await keepAnAdministrator(db, tenantId, input.id, target.systemRoleId);
  if (input.status === 'active' && target.status !== 'active') await assertWithinLimit(db, tenantId, 'staff');
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ status: input.status })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', input.id)
      .execute();
    if (input.status === 'disabled') await revokeStaffSessions(trx, tenantId, input.id);
    await audit(
      ctx,
      trx,
      input.status === 'disabled' ? 'access.staff.disable' : 'access.staff.enable',
      input.id,
      {
        before: target.status,
      },
    );
  });
  // Once committed, no cached copy of the ended sessions may outlive the change.
  forgetSessions();
  return oneRow(db, tenantId, input.id);
}

export async function unlockStaff(ctx: TCallContext, id: string): Promise<TStaffRow> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  await targetFor(ctx, id);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ failed_attempts: 0, locked_until: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    await audit(ctx, trx, 'access.staff.unlock', id, {});
  });
  return oneRow(db, tenantId, id);
}

/** Sets a new password (or generates one, answered once); the staff member's sessions end. */
export async function resetStaffPassword(
  ctx: TCallContext,
  input: { id: string; password?: string | undefined },
): Promise<{ generated: string | null }> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  if (input.id === actorOf(ctx).staffId) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  const target = await targetFor(ctx, input.id);
  if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
  const settings = await readAccessSettings(db, tenantId);
  const generated = input.password ? null : strongPassword(Math.max(14, settings.passwordMinLength));
  const password = input.password ?? (generated as string);
  checkStaffPassword(password, settings);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({
        password_hash: passwordHash,
        password_changed_at: new Date(),
        failed_attempts: 0,
        locked_until: null,
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', input.id)
      .execute();
    await revokeStaffSessions(trx, tenantId, input.id);
    await audit(ctx, trx, 'access.staff.password', input.id, { generated: generated !== null });
  });
  // Once committed, no cached copy of the ended sessions may outlive the change.
  forgetSessions();
  return { generated };
}

/** Turns off a staff member's two-factor (a lost phone); their sessions end. */
export async function resetStaffTotp(ctx: TCallContext, id: string): Promise<TStaffRow> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  if (id === actorOf(ctx).staffId) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  const target = await targetFor(ctx, id);
  if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ totp_secret: null, totp_pending_secret: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('staff_enrolments').where('staff_id', '=', id).execute();
    await revokeStaffSessions(trx, tenantId, id);
    await audit(ctx, trx, 'access.staff.totpreset', id, {});
  });
  // Once committed, no cached copy of the ended sessions may outlive the change.
  forgetSessions();
  return oneRow(db, tenantId, id);
}

export async function saveAccessSettings(
  ctx: TCallContext,
  input: TAccessSettings,
): Promise<TAccessSettings> {
  const db = ctx.services.database.db;
  const tenantId = ctx.tenant.id;
  const before = await readAccessSettings(db, tenantId);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('access_settings')
      .values({
        tenant_id: tenantId,
        password_min_length: input.passwordMinLength,
        money_two_factor: input.moneyTwoFactor,
      })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          password_min_length: input.passwordMinLength,
          money_two_factor: input.moneyTwoFactor,
          updated_at: new Date(),
        }),
      )
      .execute();
    await audit(ctx, trx, 'access.settings.save', tenantId, { before, after: input });
  });
  return readAccessSettings(db, tenantId);
}
