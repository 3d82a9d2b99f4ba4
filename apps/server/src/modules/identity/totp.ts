import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit';
import { clearAttempts, takeAttempt, wrongCredential } from './lockout';
import { auditActor, type TIdentityPorts } from './ports';
import { userProfile } from './users';

const totpFor = (secret: string, label: string, issuer: string) =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

const PERIOD_MS = 30_000;

/** The 30-second time step a 6-digit code belongs to, within one step either side of now; else null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, 'x', 'x').validate({ token: code, window: 1, timestamp: now });
  return delta === null ? null : Math.floor(now / PERIOD_MS) + delta;
}

/**
 * Checks an account's authenticator code and uses it up, in one statement: the code's time step
 * must be later than the last one used, so a code (or an older one) works once, also under
 * parallel requests. False for a wrong or already used code.
 */
export async function useTotpCode({
  db,
  table,
  id,
  secret,
  code,
}: {
  db: TDb;
  table: 'users' | 'staff';
  id: string;
  secret: string;
  code: string;
}): Promise<boolean> {
  const step = totpStep(secret, code);
  if (step === null) return false;
  const { rows } = await sql<{ id: string }>`
    update ${sql.table(table)} set totp_last_step = ${step}
     where id = ${id} and (totp_last_step is null or totp_last_step < ${step})
    returning id`.execute(db);
  return rows.length === 1;
}

/**
 * Starts the trader's enrolment: a new secret, kept pending until a code from the app confirms it.
 * The app shows it under the trader's email or phone and the `issuer` (the broker's name).
 */
export async function beginTotp(ports: TIdentityPorts, { actor, issuer }: { actor: TActor; issuer: string }) {
  const { db } = ports;
  const userId = actor.id;
  const user = await userProfile({ db, userId, tenantId: actor.tenantId });
  const label = user?.email ?? user?.phone ?? 'trader';
  const secret = new Secret({ size: 20 }).base32;
  await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', userId).execute();
  return { secret, otpauthUrl: totpFor(secret, label, issuer).toString() };
}

/** Turns two-factor sign-in on with the first code of the pending secret. */
export async function enableTotp(ports: TIdentityPorts, { actor, code }: { actor: TActor; code: string }) {
  const { db } = ports;
  const userId = actor.id;
  const user = await db
    .selectFrom('users')
    .select('totp_pending_secret')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const step = user.totp_pending_secret ? totpStep(user.totp_pending_secret, code) : null;
  if (step === null) throw new AppError(AppErrorCode.TWO_FACTOR_WRONG);
  await db
    .updateTable('users')
    // The confirming code is used: it cannot also sign in within its window.
    .set({ totp_secret: user.totp_pending_secret, totp_pending_secret: null, totp_last_step: step })
    .where('id', '=', userId)
    .execute();
  await recordAudit(db, { ...auditActor(actor), action: 'user.2fa.enable' });
}

/** Turns two-factor sign-in off with a current code (counted like a sign-in attempt). */
export async function disableTotp(ports: TIdentityPorts, { actor, code }: { actor: TActor; code: string }) {
  const { db } = ports;
  const userId = actor.id;
  const user = await db
    .selectFrom('users')
    .select('totp_secret')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  // A code checked inside a session counts against the sign-in lockout like one at sign-in.
  const { attempts } = await takeAttempt({ db, table: 'users', id: userId });
  if (
    !user.totp_secret ||
    !(await useTotpCode({ db, table: 'users', id: userId, secret: user.totp_secret, code }))
  )
    throw wrongCredential(attempts, AppErrorCode.TWO_FACTOR_WRONG);
  await clearAttempts({ db, table: 'users', id: userId });
  await db.updateTable('users').set({ totp_secret: null }).where('id', '=', userId).execute();
  await recordAudit(db, { ...auditActor(actor), action: 'user.2fa.disable' });
}
