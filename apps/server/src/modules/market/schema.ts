import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/columns';

export interface InstrumentsTable {
  tenant_id: string;
  symbol: string;
  category: string;
  base: string;
  quote: string;
  digits: number;
  contract_size: string;
  min_volume: string;
  volume_step: string;
  max_volume: string;
  default_leverage: number;
  margin_currency: string;
  profit_currency: string;
  sessions: ColumnType<unknown, string, string>;
  swap_long: string;
  swap_short: string;
  enabled: boolean;
  close_only: boolean;
  short_allowed: boolean;
  hot: boolean;
  sort: number;
  markup_points: ColumnType<number, number | undefined, number>;
  stops_level_points: ColumnType<number, number | undefined, number>;
  commission_per_lot: ColumnType<string, string | number | undefined, string | number>;
  max_leverage: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 016: [{ upToLots, maxLeverage }] ascending (market configuration). */
  leverage_tiers: ColumnType<unknown, string | undefined, string>;
  updated_at: Timestamp;
}

export interface CandlesTable {
  symbol: string;
  timeframe: string;
  open_time: ColumnType<string, number | string, number | string>;
  open: ColumnType<string, number | string, number | string>;
  high: ColumnType<string, number | string, number | string>;
  low: ColumnType<string, number | string, number | string>;
  close: ColumnType<string, number | string, number | string>;
  volume: ColumnType<string, number | string, number | string>;
}

export interface FilteredTicksTable {
  id: Generated<string>;
  symbol: string;
  tick_time: ColumnType<string, number, number>;
  bid: ColumnType<string, number, number>;
  ask: ColumnType<string, number, number>;
  reference: ColumnType<string, string, string>;
  deviation: ColumnType<string, string, string>;
  created_at: Timestamp;
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

/** The tables the market module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TMarketSchema {
  candles: CandlesTable;
  filtered_ticks: FilteredTicksTable;
  instruments: InstrumentsTable;
  market_config_history: MarketConfigHistoryTable;
}
