import { ALL_PERMISSIONS } from '@broker/contracts/permissions';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { hashPassword } from './passwords';

export interface TStaffProfile {
  staffId: string;
  username: string;
  displayName: string;
  tenantId: string;
  roles: string[];
  permissions: string[];
}

/** A staff member with the permissions of their roles and every parent role above them. */
export async function staffProfile({
  db,
  staffId,
  tenantId,
}: {
  db: TDb;
  staffId: string;
  tenantId: string;
}): Promise<TStaffProfile | null> {
  const staff = await db
    .selectFrom('staff')
    .select(['id', 'username', 'display_name', 'tenant_id', 'status'])
    .where('id', '=', staffId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (staff?.status !== 'active') return null;
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'name', 'parent_id', 'permissions'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const byId = new Map(roles.map((r) => [r.id, r]));
  const assigned = await db
    .selectFrom('staff_roles')
    .select('role_id')
    .where('staff_id', '=', staffId)
    .execute();
  const permissions = new Set<string>();
  const names: string[] = [];
  for (const { role_id } of assigned) {
    const seen = new Set<string>();
    let role = byId.get(role_id);
    if (role) names.push(role.name);
    while (role && !seen.has(role.id)) {
      seen.add(role.id);
      for (const p of role.permissions) permissions.add(p);
      role = role.parent_id ? byId.get(role.parent_id) : undefined;
    }
  }
  return {
    staffId: staff.id,
    username: staff.username,
    displayName: staff.display_name,
    tenantId: staff.tenant_id,
    roles: names,
    permissions: [...permissions].sort(),
  };
}

/** Creates the broker's administrator role and account when the broker has no staff yet. */
export async function ensureAdministrator({
  db,
  tenantId,
  username,
  password,
}: {
  db: TDb;
  tenantId: string;
  username: string;
  password: string;
}): Promise<boolean> {
  const existing = await db
    .selectFrom('staff')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (existing) return false;
  const roleId = newId();
  const staffId = newId();
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('roles')
      .values({
        id: roleId,
        tenant_id: tenantId,
        name: 'Administrator',
        parent_id: null,
        permissions: [...ALL_PERMISSIONS],
      })
      .execute();
    await trx
      .insertInto('staff')
      .values({
        id: staffId,
        tenant_id: tenantId,
        username,
        password_hash: passwordHash,
        display_name: 'Administrator',
        locked_until: null,
      })
      .execute();
    await trx.insertInto('staff_roles').values({ staff_id: staffId, role_id: roleId }).execute();
  });
  return true;
}
