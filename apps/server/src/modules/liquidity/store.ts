import { AccountType } from '@broker/domain/trading/calculations';
import Big from 'big.js';
import { type Insertable, sql } from 'kysely';
import type { TDb } from '../../db/database';
import type { LpOrdersTable } from '../../db/schema-risk';
import type { TBookRule, TTradeRecord } from './routing';
import type { UsdConverter } from './usd';

/** SQL of the liquidity module: routing rules, customers' records and hedge orders. */

export async function loadBookRules(db: TDb, tenantId: string): Promise<TBookRule[]> {
  const rows = await db
    .selectFrom('risk_book_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('priority')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    priority: r.priority,
    kind: r.kind,
    groupId: r.group_id,
    userId: r.user_id,
    minRealizedProfitUsd: r.min_realized_profit === null ? null : String(r.min_realized_profit),
    minWinRateBp: r.min_win_rate_bp,
    minTrades: r.min_trades,
    windowDays: r.window_days,
    book: r.book,
    enabled: r.enabled,
  }));
}

/**
 * A customer's closed deals since `since` (ms) on their real-money accounts: count, deals closed
 * in profit, and the realized result (profit + swap + commission) in USD.
 */
export async function tradeRecord(
  db: TDb,
  input: { tenantId: string; userId: string; since: number; usd: UsdConverter },
): Promise<TTradeRecord> {
  const rows = await db
    .selectFrom('deals as d')
    .innerJoin('trading_accounts as a', 'a.id', 'd.account_id')
    .select([
      'a.currency',
      sql<string>`count(*)`.as('deals'),
      sql<string>`sum(case when d.profit > 0 then 1 else 0 end)`.as('wins'),
      sql<string>`sum(d.profit + d.swap + d.commission)`.as('result'),
    ])
    .where('a.tenant_id', '=', input.tenantId)
    .where('a.user_id', '=', input.userId)
    .where('a.account_type', '<>', AccountType.DEMO)
    .where('d.close_time', '>=', input.since)
    .groupBy('a.currency')
    .execute();
  let realized = new Big(0);
  let deals = 0;
  let wins = 0;
  for (const row of rows) {
    deals += Number(row.deals);
    wins += Number(row.wins);
    realized = realized.plus(input.usd.minor(row.result ?? '0', row.currency));
  }
  return { realizedProfitUsd: realized.toFixed(2), deals, wins };
}

/** The account's group, or the broker's default group when it has none. */
export async function accountGroup(db: TDb, tenantId: string, accountId: number): Promise<string | null> {
  const row = await db
    .selectFrom('trading_accounts')
    .select('group_id')
    .where('id', '=', accountId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (row?.group_id) return row.group_id;
  const fallback = await db
    .selectFrom('account_groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return fallback?.id ?? null;
}

export type THedgeRow = {
  id: string;
  tenant_id: string;
  account_id: string;
  position_id: string;
  user_id: string | null;
  purpose: 'open' | 'close';
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  requested_price: string | null;
  fill_price: string | null;
  status: 'pending' | 'filled' | 'failed';
  attempts: number;
  latency_ms: number | null;
  error: string | null;
  flagged: boolean;
  provider: string;
  provider_order_id: string | null;
  rule_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export async function insertHedge(db: TDb, row: Insertable<LpOrdersTable>): Promise<void> {
  await db.insertInto('lp_orders').values(row).execute();
}

export async function updateHedge(
  db: TDb,
  id: string,
  patch: Partial<
    Pick<
      THedgeRow,
      'status' | 'attempts' | 'latency_ms' | 'error' | 'flagged' | 'provider_order_id' | 'volume'
    > & { fill_price: number | null }
  >,
): Promise<void> {
  await db
    .updateTable('lp_orders')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function hedgeById(db: TDb, tenantId: string, id: string): Promise<THedgeRow | undefined> {
  return (await db
    .selectFrom('lp_orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()) as THedgeRow | undefined;
}

/** The opening hedge of a position, if it was routed to the A-book. */
export async function openingHedge(
  db: TDb,
  tenantId: string,
  positionId: number,
): Promise<THedgeRow | undefined> {
  return (await db
    .selectFrom('lp_orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('position_id', '=', String(positionId))
    .where('purpose', '=', 'open')
    .orderBy('created_at')
    .executeTakeFirst()) as THedgeRow | undefined;
}

/** Positions still open whose opening was routed to the A-book (to rebuild the memory at start). */
export async function openABookPositions(
  db: TDb,
): Promise<Array<{ position_id: string; tenant_id: string }>> {
  return db
    .selectFrom('lp_orders as l')
    .innerJoin('positions as p', 'p.id', 'l.position_id')
    .select(['l.position_id', 'l.tenant_id'])
    .where('l.purpose', '=', 'open')
    .execute();
}

/**
 * Hedge orders left pending by a stop (the server went down between sending and recording): the
 * provider may or may not have filled them, so they go to the dealer instead of being resent blindly.
 */
export async function flagInterruptedHedges(db: TDb): Promise<void> {
  await db
    .updateTable('lp_orders')
    .set({
      status: 'failed',
      flagged: true,
      error: 'interrupted by a server restart',
      updated_at: new Date(),
    })
    .where('status', '=', 'pending')
    .execute();
}
