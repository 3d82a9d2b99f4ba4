import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/columns';

/** A-book / B-book routing rules (migration 014). */
export interface RiskBookRulesTable {
  id: string;
  tenant_id: string;
  priority: number;
  kind: 'group' | 'customer' | 'profitability';
  group_id: string | null;
  user_id: string | null;
  /** NUMERIC: a decimal string. */
  min_realized_profit: string | null;
  min_win_rate_bp: number | null;
  min_trades: ColumnType<number, number | undefined, number>;
  window_days: ColumnType<number, number | undefined, number>;
  book: 'A' | 'B';
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  note: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Hedge orders sent to the liquidity provider for A-book positions (migration 014). */
export interface LpOrdersTable {
  id: string;
  tenant_id: string;
  account_id: ColumnType<string, number | string, number | string>;
  position_id: ColumnType<string, number | string, number | string>;
  user_id: string | null;
  purpose: 'open' | 'close';
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  requested_price: ColumnType<string | null, number | null | undefined, number | null>;
  fill_price: ColumnType<string | null, number | null | undefined, number | null>;
  status: 'pending' | 'filled' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  latency_ms: number | null;
  error: string | null;
  flagged: ColumnType<boolean, boolean | undefined, boolean>;
  provider: string;
  provider_order_id: string | null;
  rule_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The tables the liquidity module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TLiquiditySchema {
  lp_orders: LpOrdersTable;
  risk_book_rules: RiskBookRulesTable;
}
