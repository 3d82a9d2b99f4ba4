import { type Selectable, sql } from 'kysely';
import type { TDb } from '../../db/database';
import type { StrategiesTable } from './schema';

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

function storedOf(r: Selectable<StrategiesTable>): TStoredStrategy {
  return {
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
  };
}

/** The bots of these strategy accounts as last stored, newest first. */
export async function storedStrategies(db: TDb, accountIds: readonly number[]): Promise<TStoredStrategy[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom('strategies')
    .selectAll()
    .where('account_id', 'in', accountIds)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(storedOf);
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

/** A broker's bot as stored, with the trader who owns its strategy account and the main account above it. */
export interface TBrokerStrategy extends TStoredStrategy {
  userId: string;
  parentId: number | null;
}

/**
 * Which of a broker's bots a back-office list asks for: some states, a symbol, a kind, and a customer
 * search already turned into the matching traders (`userIds`) and/or a number (a bot, its strategy
 * account or the main account above it); with a search, a bot must match one of the two.
 */
export interface TBrokerStrategyFilter {
  tenantId: string;
  states?: readonly TStoredStrategy['state'][] | undefined;
  symbol?: string | undefined;
  kind?: TStoredStrategy['kind'] | undefined;
  search?: { userIds: readonly string[]; number: number | null } | undefined;
}

const brokerStrategyOf = (
  r: Selectable<StrategiesTable> & { user_id: string; parent_id: string | number | null },
): TBrokerStrategy => ({
  ...storedOf(r),
  userId: r.user_id,
  parentId: r.parent_id === null ? null : Number(r.parent_id),
});

function brokerStrategies(db: TDb, filter: Omit<TBrokerStrategyFilter, 'states'>) {
  let query = db
    .selectFrom('strategies')
    .innerJoin('trading_accounts', 'trading_accounts.id', 'strategies.account_id')
    .where('trading_accounts.tenant_id', '=', filter.tenantId);
  if (filter.symbol !== undefined) query = query.where('strategies.symbol', '=', filter.symbol);
  if (filter.kind !== undefined) query = query.where('strategies.kind', '=', filter.kind);
  const { search } = filter;
  if (search !== undefined)
    query = query.where((eb) =>
      eb.or([
        ...(search.userIds.length > 0 ? [eb('trading_accounts.user_id', 'in', [...search.userIds])] : []),
        ...(search.number === null
          ? []
          : [
              eb('strategies.id', '=', search.number),
              eb('strategies.account_id', '=', search.number),
              eb('trading_accounts.parent_id', '=', search.number),
            ]),
        // nothing to match: no bot
        sql<boolean>`false`,
      ]),
    );
  return query;
}

/**
 * One page of a broker's bots (newest first) under the filter, how many match, how many there are in
 * each state under the other filters, and every symbol the broker's bots trade.
 */
export async function brokerStrategiesPage(
  db: TDb,
  input: TBrokerStrategyFilter & { page: number; size: number },
): Promise<{
  items: TBrokerStrategy[];
  total: number;
  counts: Record<TStoredStrategy['state'], number>;
  symbols: string[];
}> {
  const base = brokerStrategies(db, input);
  const { states } = input;
  const listed = states === undefined ? base : base.where('strategies.state', 'in', [...states]);
  const [rows, counted, byState, symbols] = await Promise.all([
    states?.length === 0
      ? []
      : listed
          .selectAll('strategies')
          .select(['trading_accounts.user_id', 'trading_accounts.parent_id'])
          .orderBy('strategies.id', 'desc')
          .limit(input.size)
          .offset((input.page - 1) * input.size)
          .execute(),
    states?.length === 0
      ? { n: 0 }
      : listed.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
    base
      .select(['strategies.state', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('strategies.state')
      .execute(),
    brokerStrategies(db, { tenantId: input.tenantId })
      .select('strategies.symbol')
      .distinct()
      .orderBy('strategies.symbol')
      .execute(),
  ]);
  const counts = { waiting: 0, running: 0, stopped_open: 0, stopped_closed: 0 };
  for (const row of byState) counts[row.state] = Number(row.n);
  return {
    items: rows.map(brokerStrategyOf),
    total: Number(counted?.n ?? 0),
    counts,
    symbols: symbols.map((r) => r.symbol),
  };
}

/** One of a broker's bots as stored, with its owner; undefined for another broker's or an unknown one. */
export async function brokerStrategy(
  db: TDb,
  { tenantId, strategyId }: { tenantId: string; strategyId: number },
): Promise<TBrokerStrategy | undefined> {
  const row = await brokerStrategies(db, { tenantId })
    .where('strategies.id', '=', strategyId)
    .selectAll('strategies')
    .select(['trading_accounts.user_id', 'trading_accounts.parent_id'])
    .executeTakeFirst();
  return row ? brokerStrategyOf(row) : undefined;
}
