import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit/audit';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { createSession, type TSession, type TSubjectKind } from './sessions';
import { totpMatches } from './totp';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MINUTES = 15;

interface TCredentialRow {
  id: string;
  password_hash: string;
  status: 'active' | 'disabled';
  failed_attempts: number;
  locked_until: Date | null;
}

/**
 * Checks a password for a user or staff member, with lockout after repeated failures. An unknown
 * login costs the same argon2 verification as a known one and answers the same error.
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
  /** The 6-digit code of the authenticator app, for traders who turned two-factor sign-in on. */
  otp?: string | undefined;
  userAgent: string | null;
  ip: string | null;
  now?: Date;
}): Promise<{ token: string; session: TSession; subjectId: string }> {
  const table = subjectKind === 'user' ? 'users' : 'staff';
  const loginColumn = subjectKind === 'user' ? loginBy : 'username';
  const row = (await db
    .selectFrom(table)
    .select(['id', 'password_hash', 'status', 'failed_attempts', 'locked_until'])
    // biome-ignore lint/suspicious/noExplicitAny: the column is email or username depending on the table
    .where(loginColumn as any, '=', login)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()) as TCredentialRow | undefined;

  if (!row) {
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
  if (row.locked_until && row.locked_until > now) {
    const minutes = Math.ceil((row.locked_until.getTime() - now.getTime()) / 60_000);
    throw new AppError(AppErrorCode.LOCKED_OUT, { minutes });
  }
  const passwordRight = await verifyPassword(row.password_hash, password);
  const totpSecret =
    passwordRight && subjectKind === 'user'
      ? ((await db.selectFrom('users').select('totp_secret').where('id', '=', row.id).executeTakeFirst())
          ?.totp_secret ?? null)
      : null;
  // The second factor is asked for only once the password is right, and does not count as a failure.
  if (totpSecret && otp === undefined && row.status === 'active')
    throw new AppError(AppErrorCode.TWO_FACTOR_REQUIRED);
  const otpWrong = totpSecret !== null && !totpMatches(totpSecret, otp ?? '');
  const valid = passwordRight && !otpWrong;
  if (!valid || row.status !== 'active') {
    const attempts = row.failed_attempts + 1;
    const lock = attempts >= MAX_FAILED_ATTEMPTS;
    await db
      .updateTable(table)
      .set({
        failed_attempts: lock ? 0 : attempts,
        locked_until: lock ? new Date(now.getTime() + LOCKOUT_MINUTES * 60_000) : row.locked_until,
      })
      .where('id', '=', row.id)
      .execute();
    await recordAudit(db, {
      tenantId,
      actorKind: subjectKind,
      actorId: row.id,
      action: `${subjectKind}.signin.failed`,
      ip,
      details: { attempts, locked: lock },
    });
    if (lock) throw new AppError(AppErrorCode.LOCKED_OUT, { minutes: LOCKOUT_MINUTES });
    throw new AppError(
      passwordRight && otpWrong ? AppErrorCode.TWO_FACTOR_WRONG : AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG,
    );
  }
  await db
    .updateTable(table)
    .set({ failed_attempts: 0, locked_until: null })
    .where('id', '=', row.id)
    .execute();
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
