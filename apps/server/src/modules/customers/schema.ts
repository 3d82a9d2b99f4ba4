import type { Timestamp } from '../../db/columns';

export interface CustomerNotesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  staff_id: string;
  body: string;
  created_at: Timestamp;
}

/** The tables the customers module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TCustomersSchema {
  customer_notes: CustomerNotesTable;
}
