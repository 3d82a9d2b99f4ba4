import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { hashPassword } from './passwords';

export async function userProfile({ db, userId, tenantId }: { db: TDb; userId: string; tenantId: string }) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'display_name', 'status', 'totp_secret'])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (user?.status !== 'active') return null;
  return {
    userId: user.id,
    name: user.display_name,
    email: user.email,
    phone: user.phone,
    twoFactor: user.totp_secret !== null,
  };
}

/** Seeds the demo trader on an empty broker; the identity issue adds real registration. */
export async function ensureDemoTrader({
  db,
  tenantId,
  email,
  phone,
  password,
  name,
}: {
  db: TDb;
  tenantId: string;
  email: string;
  phone: string | null;
  password: string;
  name: string;
}): Promise<boolean> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('email', '=', email)
    .executeTakeFirst();
  if (existing) return false;
  await db
    .insertInto('users')
    .values({
      id: newId(),
      tenant_id: tenantId,
      email,
      phone,
      password_hash: await hashPassword(password),
      display_name: name,
      country_code: null,
      locked_until: null,
    })
    .execute();
  return true;
}
