import type { TDb } from '../../db/database';
import { forgetSessions } from './sessions';

/*
 * Ending sessions for another module: the access module ends a staff member's sessions (disabled,
 * new password, two-factor reset) and every session of a suspended broker. Inside a transaction
 * (`ports.db` a transaction) the rows change with it; the caller forgets the cached sessions again
 * once it has committed.
 */

/**
 * Ends every live session of a staff member, except the one whose token hash is `keep` (the session
 * making the call, when a staff member changes their own password).
 */
export async function revokeStaffSessions(
  ports: { db: TDb },
  input: { tenantId: string; staffId: string; keep?: string | null | undefined },
): Promise<void> {
  let query = ports.db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('tenant_id', '=', input.tenantId)
    .where('subject_kind', '=', 'staff')
    .where('subject_id', '=', input.staffId)
    .where('revoked_at', 'is', null);
  if (input.keep) query = query.where('token_hash', '!=', input.keep);
  await query.execute();
  forgetSessions(ports.db);
}

/** Ends every live session, trader's and staff's, of a broker (suspended). */
export async function revokeTenantSessions(ports: { db: TDb }, input: { tenantId: string }): Promise<void> {
  await ports.db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('tenant_id', '=', input.tenantId)
    .where('revoked_at', 'is', null)
    .execute();
  forgetSessions(ports.db);
}
