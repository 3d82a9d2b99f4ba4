import type { ColumnType, Generated } from 'kysely';
import type { BigintColumn, NullableBigint, Timestamp } from '../../db/columns';

export interface TradingAccountsTable {
  id: BigintColumn;
  tenant_id: string;
  user_id: string;
  account_type: number;
  trade_type: number;
  currency: string;
  leverage: number;
  balance: BigintColumn;
  follow_equity: BigintColumn;
  strategy_equity: BigintColumn;
  init_money: BigintColumn;
  total_in: BigintColumn;
  total_out: BigintColumn;
  margin_call_bp: number;
  stop_out_bp: number;
  margin_call: boolean;
  negative_balance_protection: boolean;
  restrictions: ColumnType<unknown, string, string>;
  closed: boolean;
  group_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Copy and strategy sub-accounts: their main account, and the purpose. */
  parent_id: ColumnType<string | number | null, number | null | undefined, never>;
  purpose: ColumnType<'copy' | 'strategy' | null, 'copy' | 'strategy' | null | undefined, never>;
  /** A leader's main account taking no new followers for now. */
  followers_paused: ColumnType<boolean, boolean | undefined, boolean>;
  leader_suspended: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PositionsTable {
  id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  open_price: BigintColumn;
  open_time: BigintColumn;
  take_profit: NullableBigint;
  stop_loss: NullableBigint;
  margin: BigintColumn;
  swap: BigintColumn;
  commission: BigintColumn;
  /** A copy: the leader's position it follows. */
  parent_ticket: ColumnType<string | number | null, number | null | undefined, number | null>;
  /** A bot's position: its strategy. */
  strategy_id: ColumnType<string | number | null, number | null | undefined, number | null>;
  /** Trailing stop distance in points (null: none); migration 030. */
  trailing_stop: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PendingOrdersTable {
  id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  order_type: string;
  volume: number;
  price: BigintColumn;
  limit_price: NullableBigint;
  activated: boolean;
  take_profit: NullableBigint;
  stop_loss: NullableBigint;
  placed_time: BigintColumn;
  /** A bot's order: its strategy. */
  strategy_id: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface DealsTable {
  id: Generated<string>;
  position_id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  side: string;
  volume: number;
  open_price: BigintColumn;
  close_price: BigintColumn;
  open_time: BigintColumn;
  close_time: BigintColumn;
  profit: BigintColumn;
  swap: BigintColumn;
  commission: BigintColumn;
  reason: number;
  /** A copy's deal: the leader's position it followed. */
  parent_ticket: ColumnType<string | number | null, number | null | undefined, number | null>;
  /** A bot's deal: its strategy. */
  strategy_id: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface OrderHistoryTable {
  id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  order_type: string;
  volume: number;
  price: BigintColumn;
  limit_price: NullableBigint;
  take_profit: NullableBigint;
  stop_loss: NullableBigint;
  placed_time: BigintColumn;
  done_time: BigintColumn;
  status: 'filled' | 'cancelled';
  cancel_reason: string | null;
  position_id: NullableBigint;
  fill_price: NullableBigint;
  /** A bot's order: its strategy. */
  strategy_id: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface LedgerEntriesTable {
  id: Generated<string>;
  tx_id: BigintColumn;
  account_id: BigintColumn;
  ledger_account: string;
  amount: BigintColumn;
  kind: string;
  currency: string;
  position_id: NullableBigint;
  balance_after: BigintColumn;
  created_at: BigintColumn;
}

export interface EngineIdempotencyTable {
  key: string;
  fingerprint: string;
  result: ColumnType<unknown, string, string>;
  /** The accepted order's signature nonce (session-scoped), reloaded at start while in its window. */
  nonce: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

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

/** Copy trading (issue 18): a copy account's relation with the leader it copies, as the engine left it. */
export interface CopyRelationsTable {
  account_id: BigintColumn;
  leader_account_id: BigintColumn;
  mode: 'fixed_lot' | 'fixed_margin' | 'ratio' | 'equity';
  mode_value: BigintColumn;
  max_volume: number | null;
  max_positions: number | null;
  max_slippage_points: number | null;
  stop_loss_bp: number | null;
  take_profit_bp: number | null;
  copy_stops: boolean;
  copy_existing: boolean;
  status: 'active' | 'paused' | 'stopped';
  stop_reason: string | null;
  created_at: BigintColumn;
  updated_at: BigintColumn;
  fee_bp: ColumnType<number, number | undefined, number>;
  hwm: ColumnType<string | number, string | number | undefined, string | number>;
  fees_paid: ColumnType<string | number, string | number | undefined, string | number>;
}

/** A leader's action a follower did not copy, and why. */
export interface CopySkipsTable {
  id: Generated<string>;
  account_id: BigintColumn;
  leader_account_id: BigintColumn;
  leader_position_id: BigintColumn;
  action: 'open' | 'close' | 'modify';
  reason: string;
  volume: number | null;
  created_at: BigintColumn;
}

/** Strategy bots (issue 19): each bot as the engine left it (migration 026). */
export interface StrategiesTable {
  id: BigintColumn;
  account_id: BigintColumn;
  kind: 'grid' | 'martingale';
  symbol: string;
  state: 'waiting' | 'running' | 'stopped_open' | 'stopped_closed';
  stop_reason: string | null;
  params: ColumnType<unknown, string, string>;
  runtime: ColumnType<unknown, string, string>;
  realized_profit: BigintColumn;
  created_at: BigintColumn;
  updated_at: BigintColumn;
}

/** What a bot did and why. */
export interface StrategyLogsTable {
  id: Generated<string>;
  strategy_id: BigintColumn;
  account_id: BigintColumn;
  action: string;
  reason: string | null;
  level: number | null;
  price: NullableBigint;
  volume: number | null;
  ticket: NullableBigint;
  profit: NullableBigint;
  created_at: BigintColumn;
}

/** The tables the trading module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TTradingSchema {
  account_groups: AccountGroupsTable;
  copy_relations: CopyRelationsTable;
  copy_skips: CopySkipsTable;
  deals: DealsTable;
  engine_idempotency: EngineIdempotencyTable;
  instrument_group_terms: InstrumentGroupTermsTable;
  ledger_entries: LedgerEntriesTable;
  order_history: OrderHistoryTable;
  pending_orders: PendingOrdersTable;
  positions: PositionsTable;
  strategies: StrategiesTable;
  strategy_logs: StrategyLogsTable;
  trading_accounts: TradingAccountsTable;
}
