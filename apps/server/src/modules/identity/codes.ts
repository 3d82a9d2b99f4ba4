import { randomInt } from 'node:crypto';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';
import { sha256 } from '../../ids';
import type { TRateLimiter } from '../../rate-limit';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_RESEND_MS = 60_000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Codes checked per target (email or phone) per day, over all its codes: a new code every minute
 * would otherwise give a guesser CODE_MAX_ATTEMPTS tries a minute at 10,000 possible codes.
 */
export const CODE_GUESSES_PER_TARGET_PER_DAY = 20;

export type TCodePurpose = 'register' | 'reset' | 'login' | 'bind';
export type TCodeChannel = 'email' | 'sms' | 'whatsapp';

const hashCode = (tenantId: string, target: string, purpose: string, code: string) =>
  sha256(`${tenantId}|${target}|${purpose}|${code}`);

/**
 * Creates a 4-digit code for a target (an email or an E.164 phone): single use, valid 10 minutes,
 * dead after 5 wrong tries, at most one every 60 seconds per target and purpose. Returns the code
 * for the caller to deliver; only its hash is stored.
 */
export async function createCode({
  db,
  tenantId,
  channel,
  target,
  purpose,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  channel: TCodeChannel;
  target: string;
  purpose: TCodePurpose;
  now?: Date;
}): Promise<string> {
  const latest = await db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('tenant_id', '=', tenantId)
    .where('target', '=', target)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (latest) {
    const wait = CODE_RESEND_MS - (now.getTime() - new Date(latest.created_at).getTime());
    if (wait > 0) throw new AppError(AppErrorCode.CODE_TOO_FREQUENT, { seconds: Math.ceil(wait / 1000) });
  }
  const code = String(randomInt(0, 10_000)).padStart(4, '0');
  await db
    .insertInto('verification_codes')
    .values({
      tenant_id: tenantId,
      channel,
      target,
      purpose,
      code_hash: hashCode(tenantId, target, purpose, code),
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
      consumed_at: null,
      created_at: now,
    })
    .execute();
  return code;
}

/**
 * Checks and consumes the newest code of a target and purpose. `beforeConsume` runs once the code
 * is known to be right; if it throws, the code stays usable (a form error costs no new code).
 */
export async function consumeCode({
  db,
  limiter,
  tenantId,
  target,
  purpose,
  code,
  beforeConsume,
  now = new Date(),
}: {
  db: TDb;
  /** Counts the target's guesses of the day (atomic; shared through Redis when configured). */
  limiter: TRateLimiter;
  tenantId: string;
  target: string;
  purpose: TCodePurpose;
  code: string;
  beforeConsume?: () => Promise<void>;
  now?: Date;
}): Promise<void> {
  if (!(await limiter.hit(`code:${tenantId}:${target}`, CODE_GUESSES_PER_TARGET_PER_DAY, 86_400_000)))
    throw new AppError(AppErrorCode.RATE_LIMITED);
  // The attempt is counted before the code is compared, in one statement that also checks the code
  // is live and has tries left: of any number of parallel guesses, CODE_MAX_ATTEMPTS are compared.
  const { rows } = await sql<{ id: string; code_hash: string; attempts: number }>`
    update verification_codes set attempts = attempts + 1
     where id = (select id from verification_codes
                  where tenant_id = ${tenantId} and target = ${target} and purpose = ${purpose}
                  order by created_at desc limit 1)
       and consumed_at is null and expires_at > ${now} and attempts < ${CODE_MAX_ATTEMPTS}
    returning id, code_hash, attempts`.execute(db);
  const row = rows[0];
  if (!row) throw new AppError(AppErrorCode.CODE_EXPIRED);
  if (row.code_hash !== hashCode(tenantId, target, purpose, code)) {
    throw new AppError(
      row.attempts >= CODE_MAX_ATTEMPTS ? AppErrorCode.CODE_EXPIRED : AppErrorCode.VERIFICATION_CODE_WRONG,
    );
  }
  try {
    await beforeConsume?.();
  } catch (error) {
    // A form error after the right code costs no try: the code stays as usable as it was.
    await db
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
      .where('id', '=', row.id)
      .execute();
    throw error;
  }
  const consumed = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(consumed.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.CODE_EXPIRED);
}
