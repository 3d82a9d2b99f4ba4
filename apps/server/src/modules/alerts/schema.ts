import type { ColumnType, Generated } from 'kysely';
import type { BigintColumn, NullableBigint, Timestamp } from '../../db/columns';

export interface PriceAlertsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  symbol: string;
  condition: 'above' | 'below' | 'moveUp' | 'moveDown';
  digits: number;
  /** The level of above/below in points; null for moves. */
  price: NullableBigint;
  /** The move in hundredths of a percent; null for levels. */
  percent_bp: number | null;
  /** The bid in points the move is measured from; null for levels. */
  base_price: NullableBigint;
  trigger_price: BigintColumn;
  note: ColumnType<string, string | undefined, string>;
  one_shot: ColumnType<boolean, boolean | undefined, boolean>;
  expires_at: Date | null;
  state: ColumnType<'active' | 'fired' | 'expired', 'active' | undefined, 'active' | 'fired' | 'expired'>;
  armed: ColumnType<boolean, boolean | undefined, boolean>;
  fired_at: Date | null;
  fired_price: NullableBigint;
  fire_count: Generated<number>;
  locale: ColumnType<string, string | undefined, string>;
  idempotency_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PriceAlertOwnersTable {
  tenant_id: string;
  user_id: string;
}

/** The tables the alerts module owns: only its files write them (ADR 011). */
export interface TAlertsSchema {
  price_alerts: PriceAlertsTable;
  price_alert_owners: PriceAlertOwnersTable;
}
