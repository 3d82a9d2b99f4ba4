import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/columns';

export interface AuditEventsTable {
  id: Generated<string>;
  tenant_id: string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
  /** Position in the broker's hash chain, from 1; set by the database on insert (migration 015). */
  seq: ColumnType<string | number, never, never>;
  /** Hash of the previous entry (64 zeros for the first); set by the database on insert. */
  prev_hash: ColumnType<string, never, never>;
  /** SHA-256 of this entry (docs/backoffice/audit.md); set by the database on insert. */
  hash: ColumnType<string, never, never>;
}

/** The tables the audit module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TAuditSchema {
  audit_events: AuditEventsTable;
}
