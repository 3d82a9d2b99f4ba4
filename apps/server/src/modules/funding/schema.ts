import type { ColumnType } from 'kysely';
import type { BigintColumn, NullableBigint, Timestamp } from '../../db/columns';

export type TAdjustmentStatus = 'pending' | 'approving' | 'approved' | 'rejected' | 'applied';

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

type Json<T> = ColumnType<T, string, string>;
type Updated = ColumnType<Date, Date | undefined, Date>;

export interface FundingSettingsTable {
  tenant_id: string;
  settings: Json<unknown>;
  updated_by: string | null;
  updated_at: Updated;
}

export interface FundPasswordsTable {
  tenant_id: string;
  user_id: string;
  password_hash: string;
  changed_at: Updated;
  withdraw_locked_until: Date | null;
  failed_attempts: ColumnType<number, number | undefined, number>;
  attempts_locked_until: Date | null;
}

export type TDepositStatus = 'pending' | 'confirming' | 'completed' | 'failed' | 'expired';
export type TWithdrawalStatus =
  | 'initiated'
  | 'awaiting_review'
  | 'processing'
  | 'rejected'
  | 'completed'
  | 'failed';

export interface DepositsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  account_id: BigintColumn;
  method: string;
  provider: string;
  status: TDepositStatus;
  amount: BigintColumn;
  fee: BigintColumn;
  method_currency: string;
  account_currency: string;
  rate: string;
  credited: NullableBigint;
  received: NullableBigint;
  provider_ref: string | null;
  redirect_url: string | null;
  address: string | null;
  reference: string | null;
  bank: ColumnType<unknown, string | null, string | null>;
  confirmations: number | null;
  confirmations_needed: number | null;
  failure: string | null;
  last_sequence: ColumnType<number, number | undefined, number>;
  idempotency_key: string;
  ledger_tx_id: NullableBigint;
  expires_at: Date | null;
  created_at: Timestamp;
  updated_at: Updated;
}

export interface WithdrawalsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  account_id: BigintColumn;
  method: string;
  provider: string;
  status: TWithdrawalStatus;
  amount: BigintColumn;
  fee: BigintColumn;
  payout: BigintColumn;
  method_currency: string;
  account_currency: string;
  rate: string;
  amount_usd: BigintColumn;
  destination: string;
  destination_masked: string;
  to_source: boolean;
  source_deposit_id: string | null;
  source_ref: string | null;
  reject_reason: string | null;
  failure: string | null;
  first_approved_by: string | null;
  decided_by: string | null;
  provider_ref: string | null;
  device: string | null;
  flags: Json<unknown>;
  steps: Json<unknown>;
  idempotency_key: string;
  hold_tx_id: NullableBigint;
  final_tx_id: NullableBigint;
  created_at: Timestamp;
  updated_at: Updated;
}

export interface TransfersTable {
  id: string;
  tenant_id: string;
  user_id: string;
  transfer_type: string;
  from_account: BigintColumn;
  to_account: BigintColumn;
  amount: BigintColumn;
  currency: string;
  tx_id: NullableBigint;
  idempotency_key: string;
  created_at: Timestamp;
}

export interface CoinBalancesTable {
  tenant_id: string;
  user_id: string;
  balance: BigintColumn;
}

export interface CoinEntriesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  coins: BigintColumn;
  reason: string;
  ref: string;
  account_id: NullableBigint;
  tx_id: NullableBigint;
  created_at: Timestamp;
}

export interface WebhookEventsTable {
  provider: string;
  event_id: string;
  event_type: string;
  payload: Json<unknown>;
  outcome: string;
  received_at: Timestamp;
}

export interface WebhookRefusalsTable {
  id: string;
  provider: string;
  reason: string;
  ip: string | null;
  body_excerpt: string;
  received_at: Timestamp;
}

export interface UnmatchedPaymentsTable {
  id: string;
  tenant_id: string | null;
  provider: string;
  method: string;
  amount: BigintColumn;
  currency: string;
  reference: string;
  provider_ref: string;
  status: ColumnType<'unmatched' | 'matched' | 'returned', 'unmatched' | 'matched' | 'returned' | undefined>;
  suggested_deposit_id: string | null;
  deposit_id: string | null;
  decided_by: string | null;
  reason: string | null;
  received_at: Timestamp;
}

/** The tables the funding module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TFundingSchema {
  balance_adjustments: BalanceAdjustmentsTable;
  customer_settings: CustomerSettingsTable;
  funding_settings: FundingSettingsTable;
  fund_passwords: FundPasswordsTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  transfers: TransfersTable;
  coin_balances: CoinBalancesTable;
  coin_entries: CoinEntriesTable;
  webhook_events: WebhookEventsTable;
  webhook_refusals: WebhookRefusalsTable;
  unmatched_payments: UnmatchedPaymentsTable;
}
