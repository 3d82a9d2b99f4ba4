import Big from 'big.js';
import type { Insertable } from 'kysely';
import type { TDb } from '../../db/database';
import type { UsdConverter } from '../market';
import { closedDealsByCurrency, openPositionIds } from '../trading';
import type { TBookRule, TTradeRecord } from './routing';
import type { LpOrdersTable } from './schema';

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
  const rows = await closedDealsByCurrency(db, input);
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
  const [hedges, open] = await Promise.all([
    db.selectFrom('lp_orders').select(['position_id', 'tenant_id']).where('purpose', '=', 'open').execute(),
    openPositionIds(db),
  ]);
  return hedges.filter((h) => open.has(String(h.position_id)));
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
