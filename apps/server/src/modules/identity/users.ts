import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import { numericCountry } from './account-security';
import { hashPassword } from './passwords';
import { auditActor, type TIdentityPorts } from './ports';

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

/** userinfo: the signed-in trader with their session's trade-request key. */
export async function userInfo(ports: TIdentityPorts, { actor }: { actor: TActor }) {
  const user = await userProfile({ db: ports.db, userId: actor.id, tenantId: actor.tenantId });
  if (!user) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return { ...user, cipherKey: actor.session?.cipherKey ?? '' };
}

/**
 * userlogin (spec 7.2): the portal reports the signed-in trader's language and country after
 * signing in. The country is kept when none is stored yet; the report is recorded; answers the user.
 */
export async function reportClientLogin(
  ports: TIdentityPorts,
  {
    actor,
    ...input
  }: { actor: TActor; user_id: string; languageCode: string; countryCode?: string | undefined },
) {
  const { db } = ports;
  const userId = actor.id;
  if (input.user_id !== userId) throw new AppError(AppErrorCode.FORBIDDEN);
  const numeric = input.countryCode ? numericCountry(input.countryCode) : undefined;
  if (input.countryCode && !numeric) throw AppError.invalid({ countryCode: 'countryCodeUnknown' });
  if (numeric)
    await db
      .updateTable('users')
      .set({ country_code: numeric })
      .where('id', '=', userId)
      .where('country_code', 'is', null)
      .execute();
  await recordAudit(db, {
    ...auditActor(actor),
    action: 'user.login.client',
    details: { language: input.languageCode, country: input.countryCode ?? null },
  });
  const user = await userProfile({ db, userId, tenantId: actor.tenantId });
  if (!user) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return user;
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
