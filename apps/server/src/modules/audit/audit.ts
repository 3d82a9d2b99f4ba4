import type { TDb } from '../../db/database';

export interface TAuditEvent {
  tenantId: string;
  actorKind: 'user' | 'staff' | 'anonymous' | 'system' | 'apiKey' | 'bridge';
  actorId: string | null;
  /** `<area>.<verb>`, e.g. `versions.update`, `user.password.change`. */
  action: string;
  target?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Appends one entry to the broker's operation history. The database chains it (migration 015: an
 * insert trigger takes a per-broker advisory lock, numbers the entry and hashes it with the previous
 * entry's hash) and refuses any later change or removal, so this is a plain insert. Pass the
 * transaction of the change it records (`trx`) so that both are kept or neither: the chain lock is
 * then held until that transaction ends.
 */
export async function recordAudit(db: TDb, event: TAuditEvent): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      tenant_id: event.tenantId,
      actor_kind: event.actorKind,
      actor_id: event.actorId,
      action: event.action,
      target: event.target ?? null,
      ip: event.ip ?? null,
      details: JSON.stringify(event.details ?? {}),
    })
    .execute();
}
