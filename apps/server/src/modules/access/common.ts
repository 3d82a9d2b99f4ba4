import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { recordAudit } from '../audit';
import type { TStaffProfile } from './staff';

/** True for the platform operator's own broker (the default tenant). */
export { isDefaultTenant } from '../tenancy';

/** A unique-constraint violation from PostgreSQL or PGlite (a concurrent insert won the race). */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '23505' || (typeof message === 'string' && message.includes('duplicate key'));
}

/**
 * Permissions in `wanted` the signed-in member's roles do not give: nobody grants more than they
 * have. Money permissions held back until two-factor is on still count here; only using them waits.
 */
export const beyondActor = (profile: TStaffProfile, wanted: readonly string[]): string[] =>
  wanted.filter((p) => !profile.rolePermissions.includes(p));

/** Records a back-office access change in the audit trail, as the acting staff member. */
export const auditAccess = (
  db: TDb,
  actor: TActor,
  action: string,
  target: string,
  details: Record<string, unknown>,
) =>
  recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action,
    target,
    ip: actor.ip,
    details,
  });

/** What the access use cases work with: the database. */
export interface TAccessPorts {
  db: TDb;
}

/**
 * The acting staff member and their profile as the gateway loaded it (roles, permissions, two-factor
 * state): its role permissions bound what the member may grant.
 */
export interface TSignedInStaff {
  actor: TActor;
  profile: TStaffProfile;
}
