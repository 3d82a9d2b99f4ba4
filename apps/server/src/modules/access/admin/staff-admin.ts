import type { TStaffRow } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId, strongPassword } from '../../../ids';
import { assertWithinLimit } from '../../entitlements';
import { forgetSessions, hashPassword, revokeStaffSessions } from '../../identity';
import { auditAccess, beyondActor, isDefaultTenant, isUniqueViolation, type TAccessPorts } from '../common';
import { countActiveStaff } from '../directory';
import {
  checkStaffPassword,
  effectivePermissions,
  grantablePermissions,
  loadRoles,
  readAccessSettings,
  type TStaffProfile,
} from '../staff';
import { pendingPolicyRequest } from './policy';

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

/** The acting staff member and their profile (its role permissions bound what they may grant). */
type TSignedIn = { actor: TActor; profile: TStaffProfile };

export async function listStaff({ db }: TAccessPorts, { actor }: { actor: TActor }) {
  const tenantId = actor.tenantId;
  const roles = await loadRoles(db, tenantId);
  const effective = effectivePermissions(roles, grantablePermissions(await isDefaultTenant(db, tenantId)));
  return {
    staff: await staffRows(db, tenantId),
    roles: roles
      .map((r) => ({ id: r.id, name: r.name, isSystem: r.is_system, permissions: effective.get(r.id) ?? [] }))
      .sort((a, b) => Number(b.isSystem) - Number(a.isSystem) || a.name.localeCompare(b.name)),
    settings: await readAccessSettings(db, tenantId),
    policyRequest: await pendingPolicyRequest(db, tenantId),
    selfId: actor.id,
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

/**
 * The target exists here; `outranks` is true when the target holds a permission the actor's roles do
 * not give (money permissions included, also while the actor's own wait for two-factor). Every
 * action that weakens a protection of another staff member (disable or enable, new password,
 * two-factor reset, ending a lockout, role changes) refuses such a target (-1009): nobody weakens a
 * protection of permissions they do not hold.
 */
async function targetFor(db: TDb, { actor, profile }: TSignedIn, staffId: string) {
  const target = await db
    .selectFrom('staff')
    .select(['id', 'username', 'display_name', 'status'])
    .where('tenant_id', '=', actor.tenantId)
    .where('id', '=', staffId)
    .executeTakeFirst();
  if (!target) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  const roleIds = (
    await db.selectFrom('staff_roles').select('role_id').where('staff_id', '=', staffId).execute()
  ).map((r) => r.role_id);
  const { permissions, systemRoleId } = await permissionsOfRoles(db, actor.tenantId, roleIds);
  return {
    ...target,
    roleIds,
    permissions,
    systemRoleId,
    outranks: beyondActor(profile, permissions).length > 0,
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

export async function createStaff(
  { db }: TAccessPorts,
  {
    actor,
    profile,
    ...input
  }: TSignedIn & { username: string; displayName: string; password: string; roleIds: string[] },
): Promise<TStaffRow> {
  const tenantId = actor.tenantId;
  checkStaffPassword(input.password, await readAccessSettings(db, tenantId));
  const roleIds = [...new Set(input.roleIds)];
  const { permissions } = await permissionsOfRoles(db, tenantId, roleIds);
  if (beyondActor(profile, permissions).length > 0) throw new AppError(AppErrorCode.PERMISSION_NOT_GRANTABLE);
  const taken = await db
    .selectFrom('staff')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(username)`, '=', input.username.toLowerCase())
    .executeTakeFirst();
  if (taken) throw new AppError(AppErrorCode.STAFF_USERNAME_TAKEN);
  const id = newId();
  const passwordHash = await hashPassword(input.password);
  try {
    await db.transaction().execute(async (trx) => {
      await assertWithinLimit(trx, tenantId, 'staff', countActiveStaff);
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
      await auditAccess(trx, actor, 'access.staff.create', id, {
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
  { db }: TAccessPorts,
  { actor, profile, ...input }: TSignedIn & { id: string; displayName: string; roleIds: string[] },
): Promise<TStaffRow> {
  const tenantId = actor.tenantId;
  const target = await targetFor(db, { actor, profile }, input.id);
  const roleIds = [...new Set(input.roleIds)];
  const rolesChanged =
    roleIds.length !== target.roleIds.length || roleIds.some((id) => !target.roleIds.includes(id));
  if (rolesChanged) {
    if (input.id === actor.id) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
    if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
    const { permissions } = await permissionsOfRoles(db, tenantId, roleIds);
    if (beyondActor(profile, permissions).length > 0)
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
    await auditAccess(trx, actor, 'access.staff.update', input.id, {
      before: { displayName: target.display_name, roleIds: target.roleIds },
      after: { displayName: input.displayName, roleIds },
    });
  });
  return oneRow(db, tenantId, input.id);
}

export async function setStaffStatus(
  { db }: TAccessPorts,
  { actor, profile, ...input }: TSignedIn & { id: string; status: 'active' | 'disabled' },
): Promise<TStaffRow> {
  const tenantId = actor.tenantId;
  if (input.id === actor.id) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  const target = await targetFor(db, { actor, profile }, input.id);
  if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
  if (
    input.status === 'disabled' &&
    target.status === 'active' &&
    target.systemRoleId &&
    target.roleIds.includes(target.systemRoleId)
  )
    await keepAnAdministrator(db, tenantId, input.id, target.systemRoleId);
  await db.transaction().execute(async (trx) => {
    if (input.status === 'active' && target.status !== 'active')
      await assertWithinLimit(trx, tenantId, 'staff', countActiveStaff);
    await trx
      .updateTable('staff')
      .set({ status: input.status })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', input.id)
      .execute();
    if (input.status === 'disabled') await revokeStaffSessions({ db: trx }, { tenantId, staffId: input.id });
    await auditAccess(
      trx,
      actor,
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

export async function unlockStaff(
  { db }: TAccessPorts,
  { actor, profile, id }: TSignedIn & { id: string },
): Promise<TStaffRow> {
  const tenantId = actor.tenantId;
  const target = await targetFor(db, { actor, profile }, id);
  // Ending a lockout lets password guessing go on: not for staff holding more than the actor.
  if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ failed_attempts: 0, locked_until: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    await auditAccess(trx, actor, 'access.staff.unlock', id, {});
  });
  return oneRow(db, tenantId, id);
}

/** Sets a new password (or generates one, answered once); the staff member's sessions end. */
export async function resetStaffPassword(
  { db }: TAccessPorts,
  { actor, profile, ...input }: TSignedIn & { id: string; password?: string | undefined },
): Promise<{ generated: string | null }> {
  const tenantId = actor.tenantId;
  if (input.id === actor.id) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  const target = await targetFor(db, { actor, profile }, input.id);
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
    await revokeStaffSessions({ db: trx }, { tenantId, staffId: input.id });
    await auditAccess(trx, actor, 'access.staff.password', input.id, { generated: generated !== null });
  });
  // Once committed, no cached copy of the ended sessions may outlive the change.
  forgetSessions();
  return { generated };
}

/** Turns off a staff member's two-factor (a lost phone); their sessions end. */
export async function resetStaffTotp(
  { db }: TAccessPorts,
  { actor, profile, id }: TSignedIn & { id: string },
): Promise<TStaffRow> {
  const tenantId = actor.tenantId;
  if (id === actor.id) throw new AppError(AppErrorCode.CANNOT_CHANGE_SELF);
  const target = await targetFor(db, { actor, profile }, id);
  if (target.outranks) throw new AppError(AppErrorCode.FORBIDDEN);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff')
      .set({ totp_secret: null, totp_pending_secret: null })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('staff_enrolments').where('staff_id', '=', id).execute();
    await revokeStaffSessions({ db: trx }, { tenantId, staffId: id });
    await auditAccess(trx, actor, 'access.staff.totpreset', id, {});
  });
  // Once committed, no cached copy of the ended sessions may outlive the change.
  forgetSessions();
  return oneRow(db, tenantId, id);
}
