import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './schema';

/** Account groups, their risk levels, per-group instrument overrides and the change history. */
export interface AccountGroupsTable {
  id: string;
  tenant_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  margin_call_bp: ColumnType<number, number | undefined, number>;
  stop_out_bp: ColumnType<number, number | undefined, number>;
  negative_balance_protection: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface InstrumentGroupTermsTable {
  tenant_id: string;
  group_id: string;
  symbol: string;
  overrides: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}
export interface MarketConfigHistoryTable {
  id: Generated<string>;
  tenant_id: string;
  staff_id: string | null;
  scope: 'instrument' | 'group_terms' | 'group';
  symbol: string | null;
  group_id: string | null;
  before: ColumnType<unknown, string | null, string | null>;
  after: ColumnType<unknown, string | null, string | null>;
  created_at: Timestamp;
}

export interface TMarketConfigSchema {
  account_groups: AccountGroupsTable;
  instrument_group_terms: InstrumentGroupTermsTable;
  market_config_history: MarketConfigHistoryTable;
}
