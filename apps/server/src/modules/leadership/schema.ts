import type { BigintColumn, Timestamp } from '../../db/columns';

/** The current engine epoch: one row (ADR 013). */
export interface EngineEpochTable {
  id: number;
  epoch: BigintColumn;
  holder: string;
  host: string;
  pid: number;
  acquired_at: Timestamp;
}

/** One row per term of an engine leader. */
export interface EngineTermsTable {
  epoch: BigintColumn;
  holder: string;
  host: string;
  pid: number;
  lease: string;
  started_at: Timestamp;
  ended_at: Timestamp | null;
}

/** The tables the leadership module owns: only its files write them (ADR 011). */
export interface TLeadershipSchema {
  engine_epoch: EngineEpochTable;
  engine_terms: EngineTermsTable;
}
