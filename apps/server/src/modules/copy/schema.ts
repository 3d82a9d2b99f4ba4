import type { ColumnType } from 'kysely';
import type { BigintColumn, NullableBigint, Timestamp } from '../../db/columns';

export type TLeaderStatus = 'pending' | 'approved' | 'rejected' | 'suspended';

/** A leader account: the application, the broker's decision and the leader's terms. */
export interface CopyLeadersTable {
  account_id: BigintColumn;
  tenant_id: string;
  user_id: string;
  status: TLeaderStatus;
  reason: string | null;
  fee_bp: number;
  min_copy_amount: BigintColumn;
  positions_delay_minutes: number;
  bio: string;
  applied_at: Timestamp;
  reviewed_at: Date | null;
  reviewed_by: string | null;
}

/** The broker's copy rules. */
export interface CopySettingsTable {
  tenant_id: string;
  auto_approve: boolean;
  min_trading_days: number;
  min_equity: BigintColumn;
  max_fee_bp: number;
  updated_by: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** One fee settlement of a copy for one period (a week's end, or the stop). */
export interface CopyFeeSettlementsTable {
  id: string;
  tenant_id: string;
  copy_account_id: BigintColumn;
  leader_account_id: BigintColumn;
  follower_user_id: string;
  leader_user_id: string;
  kind: 'weekly' | 'stop';
  period_key: string;
  profit: BigintColumn;
  mark_before: BigintColumn;
  mark_after: BigintColumn;
  fee: BigintColumn;
  currency: string;
  credited: BigintColumn;
  leader_currency: string;
  ledger_tx_id: NullableBigint;
  created_at: Timestamp;
}

/** The tables the copy module owns (ADR 011); the relations themselves are the engine's (trading). */
export interface TCopySchema {
  copy_leaders: CopyLeadersTable;
  copy_settings: CopySettingsTable;
  copy_fee_settlements: CopyFeeSettlementsTable;
}
