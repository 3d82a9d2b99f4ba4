import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit';
import { userCountry } from './account-security';
import {
  clearAttempts,
  MAX_FAILED_ATTEMPTS,
  returnAttempt,
  type TCredentialTable,
  takeAttempt,
  wrongCredential,
} from './lockout';
import type { TOpenedSession } from './open-session';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { auditActor, type TIdentityPorts } from './ports';
import { e164 } from './registration';
import { createSession, revokeSession, type TSession, type TSubjectKind } from './sessions';
import { useTotpCode } from './totp';
import { userProfile } from './users';

/** What a sign-in needs of a trader's or staff member's row. */
export interface TCredentialRow {
  id: string;
  password_hash: string;
  status: 'active' | 'disabled';
  totp_secret: string | null;
}

const tableOf = (subjectKind: TSubjectKind): TCredentialTable => (subjectKind === 'user' ? 'users' : 'staff');

/**
 * An unknown login: costs the same argon2 verification as a known one, answers the same error, and
 * is recorded against the login tried.
 */
export async function refuseUnknownLogin({
  db,
  tenantId,
  subjectKind,
  login,
  password,
  ip,
}: {
  db: TDb;
  tenantId: string;
  subjectKind: TSubjectKind;
  login: string;
  password: string;
  ip: string | null;
}): Promise<never> {
  await verifyPassword(await dummyPasswordHash(), password);
  await recordAudit(db, {
    tenantId,
    actorKind: 'anonymous',
    actorId: null,
    action: `${subjectKind}.signin.failed`,
    target: login,
    ip,
    details: { reason: 'unknown' },
  });
  throw new AppError(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
}

/**
 * The one credential check of traders and staff: the password, then the authenticator code where
 * two-factor is on, under the lockout rule of `takeAttempt` (the attempt is counted before the
 * check, so parallel guesses cannot outrun the count). -1016 asks for the code and gives the
 * attempt back; a wrong or already used code counts like a wrong password (-1017); a disabled
 * account answers like a wrong password. Returns when everything is right; the count starts again.
 */
export async function checkCredentials({
  db,
  tenantId,
  subjectKind,
  row,
  password,
  otp,
  ip,
}: {
  db: TDb;
  tenantId: string;
  subjectKind: TSubjectKind;
  row: TCredentialRow;
  password: string;
  otp: string | undefined;
  ip: string | null;
}): Promise<void> {
  const table = tableOf(subjectKind);
  const { attempts } = await takeAttempt({ db, table, id: row.id });
  const passwordRight = await verifyPassword(row.password_hash, password);
  const active = row.status === 'active';
  if (passwordRight && active && row.totp_secret && otp === undefined) {
    await returnAttempt({ db, table, id: row.id });
    throw new AppError(AppErrorCode.TWO_FACTOR_REQUIRED);
  }
  const otpRight =
    !row.totp_secret ||
    (passwordRight &&
      active &&
      (await useTotpCode({ db, table, id: row.id, secret: row.totp_secret, code: otp ?? '' })));
  if (!passwordRight || !active || !otpRight) {
    await recordAudit(db, {
      tenantId,
      actorKind: subjectKind,
      actorId: row.id,
      action: `${subjectKind}.signin.failed`,
      ip,
      details: {
        attempts,
        locked: attempts >= MAX_FAILED_ATTEMPTS,
        reason: passwordRight && active ? 'otp' : 'password',
      },
    });
    throw wrongCredential(
      attempts,
      passwordRight && active ? AppErrorCode.TWO_FACTOR_WRONG : AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG,
    );
  }
  await clearAttempts({ db, table, id: row.id });
}

/**
 * Checks a password for a user or staff member, with lockout after repeated failures, and opens a
 * session. An unknown login costs the same argon2 verification as a known one and answers the same.
 */
export async function signIn({
  db,
  tenantId,
  subjectKind,
  login,
  loginBy = 'email',
  password,
  otp,
  userAgent,
  ip,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  subjectKind: TSubjectKind;
  login: string;
  /** Traders sign in by email or by phone (E.164); staff by username. */
  loginBy?: 'email' | 'phone';
  password: string;
  /** The 6-digit code of the authenticator app, for accounts with two-factor sign-in on. */
  otp?: string | undefined;
  userAgent: string | null;
  ip: string | null;
  now?: Date;
}): Promise<{ token: string; session: TSession; subjectId: string }> {
  const table = tableOf(subjectKind);
  const loginColumn = subjectKind === 'user' ? loginBy : 'username';
  const row = (await db
    .selectFrom(table)
    .select(['id', 'password_hash', 'status', 'totp_secret'])
    // biome-ignore lint/suspicious/noExplicitAny: the column is email or username depending on the table
    .where(loginColumn as any, '=', login)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()) as TCredentialRow | undefined;
  if (!row) return refuseUnknownLogin({ db, tenantId, subjectKind, login, password, ip });
  await checkCredentials({ db, tenantId, subjectKind, row, password, otp, ip });
  const { token, session } = await createSession({
    db,
    tenantId,
    subjectKind,
    subjectId: row.id,
    userAgent,
    ip,
    now,
  });
  await recordAudit(db, {
    tenantId,
    actorKind: subjectKind,
    actorId: row.id,
    action: `${subjectKind}.signin`,
    ip,
  });
  return { token, session, subjectId: row.id };
}

/**
 * login: a trader signs in with their email or phone number and password (and the authenticator's
 * code where two-factor is on). An anonymous call; the HTTP layer sets the new session's cookies.
 */
export async function signInTrader(
  ports: TIdentityPorts,
  {
    tenantId,
    ip,
    userAgent,
    ...input
  }: {
    tenantId: string;
    ip: string | null;
    userAgent: string | null;
    password: string;
    otp?: string | undefined;
  } & ({ email: string } | { phone: { twoCharCode: string; number: string } }),
): Promise<TOpenedSession> {
  const { db } = ports;
  const login =
    'email' in input
      ? { login: input.email, loginBy: 'email' as const }
      : { login: e164(input.phone), loginBy: 'phone' as const };
  const { token, session, subjectId } = await signIn({
    db,
    tenantId,
    subjectKind: 'user',
    ...login,
    password: input.password,
    otp: input.otp,
    userAgent,
    ip,
  });
  const user = await userProfile({ db, userId: subjectId, tenantId });
  if (!user) throw new AppError(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
  return { token, session, user, country: await userCountry(db, subjectId) };
}

/**
 * Sign-out of a trader or a staff member: ends the session of the call's cookie token and records
 * it. The HTTP layer clears the cookies (also when there was no live session to end).
 */
export async function signOut(ports: TIdentityPorts, { actor, token }: { actor: TActor; token: string }) {
  await revokeSession({ db: ports.db, token });
  await recordAudit(ports.db, {
    ...auditActor(actor),
    action: `${actor.kind === 'user' ? 'user' : 'staff'}.signout`,
  });
}
