import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit';
import { hashPassword, verifyPassword } from '../identity';
import { traderOf } from '../trading';
import { fundingSettings } from './settings';

/** Wrong funding passwords in a row before it locks, and for how long. */
export const FUND_PASSWORD_ATTEMPTS = 5;
export const FUND_PASSWORD_LOCK_MINUTES = 15;

/**
 * Checks the funding password. The attempt is taken before the check in one statement that counts
 * only while not locked (and sets the lock with the attempt that reaches the limit), so of any
 * number of parallel guesses at most FUND_PASSWORD_ATTEMPTS are checked. A right password clears
 * the count.
 */
export async function checkFundPassword(
  db: TDb,
  { tenantId, userId, password }: { tenantId: string; userId: string; password: string },
): Promise<{ changedAt: Date; lockedUntil: Date | null }> {
  const now = new Date();
  const lockUntil = new Date(now.getTime() + FUND_PASSWORD_LOCK_MINUTES * 60_000);
  const expired = sql`(attempts_locked_until is not null and attempts_locked_until <= ${now})`;
  const next = sql`(case when ${expired} then 1 else failed_attempts + 1 end)`;
  const { rows } = await sql<{ password_hash: string; changed_at: Date; withdraw_locked_until: Date | null }>`
    update fund_passwords
       set failed_attempts = ${next},
           attempts_locked_until = case when ${next} >= ${FUND_PASSWORD_ATTEMPTS}
                                        then ${lockUntil}::timestamptz else null end
     where tenant_id = ${tenantId} and user_id = ${userId}
       and (attempts_locked_until is null or attempts_locked_until <= ${now}
            or failed_attempts < ${FUND_PASSWORD_ATTEMPTS})
     returning password_hash, changed_at, withdraw_locked_until`.execute(db);
  const row = rows[0];
  if (!row) {
    const exists = await db
      .selectFrom('fund_passwords')
      .select('attempts_locked_until')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!exists) throw new AppError(AppErrorCode.FUND_PASSWORD_REQUIRED);
    const until = exists.attempts_locked_until ? new Date(exists.attempts_locked_until) : lockUntil;
    throw new AppError(AppErrorCode.LOCKED_OUT, {
      minutes: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000)),
    });
  }
  if (!(await verifyPassword(row.password_hash, password)))
    throw new AppError(AppErrorCode.FUND_PASSWORD_WRONG);
  await db
    .updateTable('fund_passwords')
    .set({ failed_attempts: 0, attempts_locked_until: null })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
  return {
    changedAt: new Date(row.changed_at),
    lockedUntil: row.withdraw_locked_until ? new Date(row.withdraw_locked_until) : null,
  };
}

/**
 * Sets the funding password, or changes it with the old one. A change locks withdrawals for the
 * broker's hours (spec 9; 24 by default); setting it the first time does not.
 */
export async function setFundPassword(
  db: TDb,
  {
    actor,
    oldPassword,
    newPassword,
  }: { actor: TActor; oldPassword?: string | undefined; newPassword: string },
) {
  const userId = traderOf(actor);
  const existing = await db
    .selectFrom('fund_passwords')
    .select('user_id')
    .where('tenant_id', '=', actor.tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const hash = await hashPassword(newPassword);
  let lockedUntil: Date | null = null;
  if (!existing) {
    const inserted = await db
      .insertInto('fund_passwords')
      .values({ tenant_id: actor.tenantId, user_id: userId, password_hash: hash })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    // Set in parallel by another request: this one is a change and needs the old password.
    if (!inserted) return setFundPassword(db, { actor, oldPassword, newPassword });
  } else {
    if (!oldPassword) throw AppError.invalid({ oldPassword: 'required' });
    await checkFundPassword(db, { tenantId: actor.tenantId, userId, password: oldPassword });
    if (oldPassword === newPassword) throw AppError.invalid({ newPassword: 'passwordSameAsOld' });
    const { fundPasswordLockHours } = await fundingSettings(db, actor.tenantId);
    lockedUntil = fundPasswordLockHours > 0 ? new Date(Date.now() + fundPasswordLockHours * 3_600_000) : null;
    await db
      .updateTable('fund_passwords')
      .set({ password_hash: hash, changed_at: new Date(), withdraw_locked_until: lockedUntil })
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .execute();
  }
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: existing ? 'funding.password.change' : 'funding.password.set',
    target: userId,
    ip: actor.ip,
    details: { withdrawLockedUntil: lockedUntil?.toISOString() ?? null },
  });
  return { withdrawLockedUntil: lockedUntil?.toISOString() ?? null };
}
