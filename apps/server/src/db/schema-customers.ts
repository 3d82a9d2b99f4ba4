import type { ColumnType } from 'kysely';
import type { BigintColumn, NullableBigint, Timestamp } from './schema';

export type TKycStatus = 'none' | 'pending' | 'approved' | 'rejected';
export type TAdjustmentStatus = 'pending' | 'approving' | 'approved' | 'rejected' | 'applied';

// Migration 013 adds the KYC state to the shared users table; declared here so the customers area
// owns its column.
declare module './schema' {
  interface UsersTable {
    kyc_status: ColumnType<TKycStatus, TKycStatus | undefined, TKycStatus>;
  }
}

export interface CustomerNotesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  staff_id: string;
  body: string;
  created_at: Timestamp;
}

export interface BalanceAdjustmentsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  account_id: BigintColumn;
  /** Signed minor units of the account currency. */
  amount: BigintColumn;
  currency: string;
  reason: string;
  status: TAdjustmentStatus;
  idempotency_key: string;
  requested_by: string;
  requested_at: Timestamp;
  decided_by: string | null;
  decided_at: Date | null;
  reject_reason: string | null;
  ledger_tx_id: NullableBigint;
}

export interface CustomerSettingsTable {
  tenant_id: string;
  approval_threshold_usd_minor: BigintColumn;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** Tables of the back office's customers area. */
export interface TCustomersSchema {
  customer_notes: CustomerNotesTable;
  balance_adjustments: BalanceAdjustmentsTable;
  customer_settings: CustomerSettingsTable;
}
