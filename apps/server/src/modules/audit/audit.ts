import type { TDb } from '../../db/database';

export interface TAuditEvent {
  tenantId: string;
  actorKind: 'user' | 'staff' | 'anonymous' | 'system';
  actorId: string | null;
  action: string;
  target?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Appends to the audit trail (the back-office issue adds hash chaining and the read side). */
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
