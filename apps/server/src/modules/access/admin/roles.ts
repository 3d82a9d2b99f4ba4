import type { TRole } from '@broker/contracts/admin/access-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { newId } from '../../../ids';
import { auditAccess, beyondActor, isDefaultTenant, isUniqueViolation, type TAccessPorts } from '../common';
import { effectivePermissions, grantablePermissions, loadRoles, type TStaffProfile } from '../staff';

/** The broker's roles with own and inherited permissions, staff and child counts. */
export async function listRoles(
  { db }: TAccessPorts,
  { actor }: { actor: TActor },
): Promise<{ roles: TRole[]; grantable: string[] }> {
  return roleList(db, actor.tenantId);
}

async function roleList(db: TDb, tenantId: string): Promise<{ roles: TRole[]; grantable: string[] }> {
  const grantable = grantablePermissions(await isDefaultTenant(db, tenantId));
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'name', 'description', 'parent_id', 'permissions', 'is_system', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('name')
    .execute();
  const effective = effectivePermissions(rows, grantable);
  const staffCounts = await db
    .selectFrom('staff_roles')
    .innerJoin('staff', 'staff.id', 'staff_roles.staff_id')
    .select(['staff_roles.role_id', sql<number>`count(*)`.as('n')])
    .where('staff.tenant_id', '=', tenantId)
    .groupBy('staff_roles.role_id')
    .execute();
  const staffCount = new Map(staffCounts.map((r) => [r.role_id, Number(r.n)]));
  const roles = rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    parentId: row.parent_id,
    isSystem: row.is_system,
    permissions: row.is_system ? [...grantable] : row.permissions.filter((p) => grantable.includes(p)).sort(),
    effective: effective.get(row.id) ?? [],
    staffCount: staffCount.get(row.id) ?? 0,
    childCount: rows.filter((r) => r.parent_id === row.id).length,
    createdAt: new Date(row.created_at).toISOString(),
  }));
  return { roles, grantable: [...grantable] };
}

async function roleById(db: TDb, tenantId: string, id: string) {
  const role = await db
    .selectFrom('roles')
    .select(['id', 'name', 'description', 'parent_id', 'permissions', 'is_system'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!role) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return role;
}

/**
 * Creates or changes a role. Refuses a parent loop (-6003), a permission the broker cannot grant or
 * the actor does not hold (-6004, `profile` is the acting member's), a taken name (-6002); the system
 * role cannot be changed.
 */
export async function saveRole(
  { db }: TAccessPorts,
  {
    actor,
    profile,
    ...input
  }: {
    actor: TActor;
    profile: TStaffProfile;
    id?: string | undefined;
    name: string;
    description: string;
    parentId: string | null;
    permissions: string[];
  },
): Promise<TRole> {
  const tenantId = actor.tenantId;
  const grantable = grantablePermissions(await isDefaultTenant(db, tenantId));
  const permissions = [...new Set(input.permissions)].sort();
  const refused = permissions.filter((p) => !grantable.includes(p));
  if (refused.length > 0)
    throw new AppError(AppErrorCode.PERMISSION_NOT_GRANTABLE, undefined, refused.join(','));
  const before = input.id ? await roleById(db, tenantId, input.id) : null;
  if (before?.is_system) throw new AppError(AppErrorCode.FORBIDDEN, undefined, 'system role');
  const roles = await loadRoles(db, tenantId);
  if (input.parentId) {
    if (!roles.some((r) => r.id === input.parentId)) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    // Walking up from the new parent must not come back to this role.
    const byId = new Map(roles.map((r) => [r.id, r]));
    let cursor: string | null = input.parentId;
    const seen = new Set<string>();
    while (cursor && !seen.has(cursor)) {
      if (cursor === input.id) throw new AppError(AppErrorCode.ROLE_PARENT_LOOP);
      seen.add(cursor);
      cursor = byId.get(cursor)?.parent_id ?? null;
    }
  }
  const id = before?.id ?? newId();
  const next = { id, name: input.name, parent_id: input.parentId, permissions, is_system: false };
  const effective =
    effectivePermissions([...roles.filter((r) => r.id !== id), next], grantable).get(id) ?? [];
  const beyond = beyondActor(profile, effective);
  if (beyond.length > 0)
    throw new AppError(AppErrorCode.PERMISSION_NOT_GRANTABLE, undefined, beyond.join(','));
  const clash = await db
    .selectFrom('roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(name)`, '=', input.name.toLowerCase())
    .where('id', '!=', id)
    .executeTakeFirst();
  if (clash) throw new AppError(AppErrorCode.ROLE_NAME_TAKEN);
  try {
    await db.transaction().execute(async (trx) => {
      if (before)
        await trx
          .updateTable('roles')
          .set({
            name: input.name,
            description: input.description,
            parent_id: input.parentId,
            permissions,
          })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .execute();
      else
        await trx
          .insertInto('roles')
          .values({
            id,
            tenant_id: tenantId,
            name: input.name,
            description: input.description,
            parent_id: input.parentId,
            permissions,
          })
          .execute();
      await auditAccess(trx, actor, before ? 'access.role.update' : 'access.role.create', id, {
        name: input.name,
        parentId: input.parentId,
        permissions,
        ...(before
          ? { before: { name: before.name, parentId: before.parent_id, permissions: before.permissions } }
          : {}),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.ROLE_NAME_TAKEN);
    throw error;
  }
  const saved = (await roleList(db, tenantId)).roles.find((r) => r.id === id);
  if (!saved) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
  return saved;
}

/** Deletes a role that no staff member and no child role uses (-6005); never the system role. */
export async function deleteRole(
  { db }: TAccessPorts,
  { actor, id }: { actor: TActor; id: string },
): Promise<{ ok: true }> {
  const tenantId = actor.tenantId;
  const role = await roleById(db, tenantId, id);
  if (role.is_system) throw new AppError(AppErrorCode.FORBIDDEN, undefined, 'system role');
  await db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('staff_roles')
      .select('staff_id')
      .where('role_id', '=', id)
      .executeTakeFirst();
    const child = await trx
      .selectFrom('roles')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('parent_id', '=', id)
      .executeTakeFirst();
    if (used || child) throw new AppError(AppErrorCode.ROLE_IN_USE);
    await trx.deleteFrom('roles').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    await auditAccess(trx, actor, 'access.role.delete', id, {
      name: role.name,
      parentId: role.parent_id,
      permissions: role.permissions,
    });
  });
  return { ok: true };
}
