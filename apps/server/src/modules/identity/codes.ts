import { randomInt } from 'node:crypto';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../db/database';
import { sha256 } from '../../ids';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_RESEND_MS = 60_000;
export const CODE_MAX_ATTEMPTS = 5;

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
  tenantId,
  target,
  purpose,
  code,
  beforeConsume,
  now = new Date(),
}: {
  db: TDb;
  tenantId: string;
  target: string;
  purpose: TCodePurpose;
  code: string;
  beforeConsume?: () => Promise<void>;
  now?: Date;
}): Promise<void> {
  const row = await db
    .selectFrom('verification_codes')
    .select(['id', 'code_hash', 'attempts', 'expires_at', 'consumed_at'])
    .where('tenant_id', '=', tenantId)
    .where('target', '=', target)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || row.consumed_at || row.expires_at <= now || row.attempts >= CODE_MAX_ATTEMPTS) {
    throw new AppError(AppErrorCode.CODE_EXPIRED);
  }
  if (row.code_hash !== hashCode(tenantId, target, purpose, code)) {
    await db
      .updateTable('verification_codes')
      .set({ attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .execute();
    throw new AppError(
      row.attempts + 1 >= CODE_MAX_ATTEMPTS
        ? AppErrorCode.CODE_EXPIRED
        : AppErrorCode.VERIFICATION_CODE_WRONG,
    );
  }
  await beforeConsume?.();
  const consumed = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(consumed.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.CODE_EXPIRED);
}
