import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { Secret, TOTP } from 'otpauth';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit/audit';

const totpFor = (secret: string, label: string, issuer: string) =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** True when a 6-digit code matches the secret within one 30-second step either side. */
export function totpMatches(secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  return totpFor(secret, 'x', 'x').validate({ token: code, window: 1 }) !== null;
}

/** Starts enrolment: a new secret, kept pending until a code from the app confirms it. */
export async function beginTotp({
  db,
  userId,
  label,
  issuer,
}: {
  db: TDb;
  userId: string;
  label: string;
  issuer: string;
}) {
  const secret = new Secret({ size: 20 }).base32;
  await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', userId).execute();
  return { secret, otpauthUrl: totpFor(secret, label, issuer).toString() };
}

export async function enableTotp({
  db,
  tenantId,
  userId,
  code,
  ip,
}: {
  db: TDb;
  tenantId: string;
  userId: string;
  code: string;
  ip: string;
}) {
  const user = await db
    .selectFrom('users')
    .select('totp_pending_secret')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!user.totp_pending_secret || !totpMatches(user.totp_pending_secret, code))
    throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  await db
    .updateTable('users')
    .set({ totp_secret: user.totp_pending_secret, totp_pending_secret: null })
    .where('id', '=', userId)
    .execute();
  await recordAudit(db, { tenantId, actorKind: 'user', actorId: userId, action: 'user.2fa.enable', ip });
}

export async function disableTotp({
  db,
  tenantId,
  userId,
  code,
  ip,
}: {
  db: TDb;
  tenantId: string;
  userId: string;
  code: string;
  ip: string;
}) {
  const user = await db
    .selectFrom('users')
    .select('totp_secret')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!user.totp_secret || !totpMatches(user.totp_secret, code))
    throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  await db.updateTable('users').set({ totp_secret: null }).where('id', '=', userId).execute();
  await recordAudit(db, { tenantId, actorKind: 'user', actorId: userId, action: 'user.2fa.disable', ip });
}
