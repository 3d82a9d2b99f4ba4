import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/columns';

export interface PageViewsTable {
  id: Generated<string>;
  tenant_id: string;
  path: string;
  lang: string | null;
  device: string;
  status: number;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface FeedbackTable {
  id: string;
  tenant_id: string;
  user_id: string;
  body: string;
  contacts: ColumnType<unknown, string, string>;
  attachments: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<'new' | 'read' | 'closed', 'new' | 'read' | 'closed' | undefined>;
  locale: string | null;
  user_agent: string | null;
  idempotency_key: string;
  created_at: Timestamp;
}

/** The tables the content module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TContentSchema {
  feedback: FeedbackTable;
  page_views: PageViewsTable;
}
