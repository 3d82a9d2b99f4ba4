import { AppError, AppErrorCode, type TAppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/** Wrong credentials (password, authenticator code) in a row before an account locks. */
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MINUTES = 15;

/** The accounts that sign in with a credential: traders and staff, one lockout rule for both. */
export type TCredentialTable = 'users' | 'staff';

/**
 * Takes one attempt at an account's credential before the credential is checked, in one SQL
 * statement that checks and counts together: the count goes up only while the account is not
 * locked, and the attempt that reaches MAX_FAILED_ATTEMPTS sets the lock in the same statement. So
 * of any number of parallel attempts exactly MAX_FAILED_ATTEMPTS are checked, and the rest are
 * refused as locked (-1008) without being checked. A right credential then clears the count
 * (`clearAttempts`); a wrong one leaves it counted. A lock that has run out starts a new count.
 *
 * Every check of a credential goes through this: sign-in of traders and staff, and the checks made
 * inside a session (the old password, an authenticator code to turn two-factor off).
 */
export async function takeAttempt({
  db,
  table,
  id,
  now = new Date(),
}: {
  db: TDb;
  table: TCredentialTable;
  id: string;
  now?: Date;
}): Promise<{ attempts: number }> {
  const lockUntil = new Date(now.getTime() + LOCKOUT_MINUTES * 60_000);
  const expired = sql`(locked_until is not null and locked_until <= ${now})`;
  const next = sql`(case when ${expired} then 1 else failed_attempts + 1 end)`;
  const { rows } = await sql<{ failed_attempts: number }>`
    update ${sql.table(table)}
       set failed_attempts = ${next},
           locked_until = case when ${next} >= ${MAX_FAILED_ATTEMPTS} then ${lockUntil}::timestamptz
                               when ${expired} then null
                               else locked_until end
     where id = ${id} and (locked_until is null or locked_until <= ${now})
    returning failed_attempts`.execute(db);
  const row = rows[0];
  if (!row) throw await lockedError({ db, table, id, now });
  return { attempts: Number(row.failed_attempts) };
}

/** -1008 with the minutes left of the account's lock. */
async function lockedError({
  db,
  table,
  id,
  now,
}: {
  db: TDb;
  table: TCredentialTable;
  id: string;
  now: Date;
}): Promise<AppError> {
  const { rows } = await sql<{ locked_until: Date | string | null }>`
    select locked_until from ${sql.table(table)} where id = ${id}`.execute(db);
  const until = rows[0]?.locked_until ? new Date(rows[0].locked_until) : now;
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new AppError(AppErrorCode.LOCKED_OUT, { minutes });
}

/** A right credential: the count of failures starts again (and a lock it set is lifted). */
export async function clearAttempts({ db, table, id }: { db: TDb; table: TCredentialTable; id: string }) {
  await sql`update ${sql.table(table)} set failed_attempts = 0, locked_until = null where id = ${id}`.execute(
    db,
  );
}

/**
 * Gives back an attempt that turned out not to be a guess: the password was right and the second
 * factor is only being asked for. The lock, if this attempt set it, goes with it.
 */
export async function returnAttempt({ db, table, id }: { db: TDb; table: TCredentialTable; id: string }) {
  await sql`
    update ${sql.table(table)}
       set failed_attempts = failed_attempts - 1,
           locked_until = case when failed_attempts - 1 < ${MAX_FAILED_ATTEMPTS} then null else locked_until end
     where id = ${id} and failed_attempts > 0`.execute(db);
}

/** The error a counted wrong credential answers: -1008 once this attempt locked the account. */
export function wrongCredential(attempts: number, wrong: TAppErrorCode | AppError): AppError {
  if (attempts >= MAX_FAILED_ATTEMPTS)
    return new AppError(AppErrorCode.LOCKED_OUT, { minutes: LOCKOUT_MINUTES });
  return wrong instanceof AppError ? wrong : new AppError(wrong);
}
