import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/columns';

export interface ChartDrawingsTable {
  tenant_id: string;
  user_id: string;
  symbol: string;
  /** The drawings as the route's schema checked them (ZChartDrawings). */
  drawings: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface ChartLayoutsTable {
  tenant_id: string;
  user_id: string;
  /** The layout as the route's schema checked it (ZChartLayout). */
  layout: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

/** The tables the charts module owns: only its files write them (ADR 011). */
export interface TChartsSchema {
  chart_drawings: ChartDrawingsTable;
  chart_layouts: ChartLayoutsTable;
}
