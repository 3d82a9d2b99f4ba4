import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TDb } from '../../../db/database';
import type { TCallContext } from '../../../http/context';
import { forgetSessions } from '../../identity/sessions';
import type { TStaffProfile } from '../../identity/staff';

/** The signed-in staff member (the gateway has refused the call without one). */
export function actorOf(ctx: TCallContext): TStaffProfile {
  if (!ctx.staff) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return ctx.staff;
}

/** True for the platform operator's own broker (the default tenant). */
export async function isDefaultTenant(db: TDb, tenantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tenants')
    .select('is_default')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return row?.is_default === true;
}

/** A unique-constraint violation from PostgreSQL or PGlite (a concurrent insert won the race). */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '23505' || (typeof message === 'string' && message.includes('duplicate key'));
}

/** Ends every live session of a staff member (disabled, new password, two-factor reset). */
export async function revokeStaffSessions(db: TDb, tenantId: string, staffId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('subject_kind', '=', 'staff')
    .where('subject_id', '=', staffId)
    .where('revoked_at', 'is', null)
    .execute();
  forgetSessions(db);
}

/**
 * Permissions in `wanted` the actor's roles do not give: nobody grants more than they have. Money
 * permissions held back until two-factor is on still count here; only using them waits.
 */
export const beyondActor = (actor: TStaffProfile, wanted: readonly string[]): string[] =>
  wanted.filter((p) => !actor.rolePermissions.includes(p));
