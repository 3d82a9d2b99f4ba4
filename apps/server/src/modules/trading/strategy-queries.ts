import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/*
 * What the strategies module reads of the trading tables (the engine writes the bots and their log):
 * the bots as stored (a stopped and closed one is only here), their log, and the next bot number.
 */

export interface TStoredStrategy {
  strategyId: number;
  accountId: number;
  kind: 'grid' | 'martingale';
  symbol: string;
  state: 'waiting' | 'running' | 'stopped_open' | 'stopped_closed';
  stopReason: string | null;
  params: Record<string, unknown>;
  runtime: Record<string, unknown>;
  realizedProfit: number;
  createdAt: number;
  updatedAt: number;
}

const json = (value: unknown) =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;

/** The bots of these strategy accounts as last stored, newest first. */
export async function storedStrategies(db: TDb, accountIds: readonly number[]): Promise<TStoredStrategy[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom('strategies')
    .selectAll()
    .where('account_id', 'in', accountIds)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    strategyId: Number(r.id),
    accountId: Number(r.account_id),
    kind: r.kind,
    symbol: r.symbol,
    state: r.state,
    stopReason: r.stop_reason,
    params: json(r.params),
    runtime: json(r.runtime),
    realizedProfit: Number(r.realized_profit),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}

/** A bot's log, newest first. */
export async function strategyLog(db: TDb, strategyId: number, limit: number) {
  const rows = await db
    .selectFrom('strategy_logs')
    .selectAll()
    .where('strategy_id', '=', strategyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    action: r.action,
    reason: r.reason,
    level: r.level,
    price: r.price === null ? null : Number(r.price),
    volume: r.volume,
    ticket: r.ticket === null ? null : Number(r.ticket),
    profit: r.profit === null ? null : Number(r.profit),
    time: Number(r.created_at),
  }));
}

/** The next bot number (a database sequence: unique across restarts and instances). */
export async function nextStrategyId(db: TDb): Promise<number> {
  const row = await sql<{ id: string }>`select nextval('strategy_ids') as id`.execute(db);
  return Number(row.rows[0]?.id);
}
