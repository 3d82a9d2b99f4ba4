import { AccountType } from '@broker/domain/trading/calculations';
import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/*
 * What other modules read of the trading accounts, positions and deals: they ask here instead of
 * reading the trading tables. `db` may be a transaction.
 */

/** How many trading accounts the broker has open (what its package's account limit counts). */
export async function countOpenAccounts(db: TDb, { tenantId }: { tenantId: string }): Promise<number> {
  const row = await db
    .selectFrom('trading_accounts')
    .select(sql<string | number>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('closed', '=', false)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A customer's closed deals since `since` (ms) on their real-money accounts, by account currency:
 * count, deals closed in profit, and the realized result (profit + swap + commission, minor units).
 */
export function closedDealsByCurrency(db: TDb, input: { tenantId: string; userId: string; since: number }) {
  return db
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
}

/** The ids of every open position, of every broker, as text (the hedging service's start). */
export async function openPositionIds(db: TDb): Promise<Set<string>> {
  const rows = await db.selectFrom('positions').select('id').execute();
  return new Set(rows.map((r) => String(r.id)));
}
