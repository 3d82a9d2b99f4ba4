import type { Generated } from 'kysely';
import type { Timestamp } from '../../db/columns';

export interface SmsOutboxTable {
  id: Generated<string>;
  provider_id: string;
  channel: string;
  recipient: string;
  body: string;
  status: string;
  created_at: Timestamp;
}

export interface PushSubscriptionsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: Timestamp;
}

/** The tables the notify module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TNotifySchema {
  push_subscriptions: PushSubscriptionsTable;
  sms_outbox: SmsOutboxTable;
}
