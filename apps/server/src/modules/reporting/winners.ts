import type { TRouteOutput } from '@broker/contracts/routes';
import { AccountType } from '@broker/domain/trading/calculations';
import Big from 'big.js';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import { type MarketService, UsdConverter, usd } from '../market';
import { brokerAccounts, customerNames, inScope, type TScope, type TTradingPorts } from '../trading';

type TPeriod = 'today' | '7d' | '30d';
type TWinners = TRouteOutput<'adminriskwinners'>;

const DAY_MS = 86_400_000;

/** Start of a period: today is since 00:00 UTC (the rollover day), the others rolling windows. */
export function periodStart(period: TPeriod, now: number): number {
  if (period === 'today') {
    const day = new Date(now);
    return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  }
  return now - (period === '7d' ? 7 : 30) * DAY_MS;
}

/**
 * Customers ranked by their result: realized (profit + swap + commission of the period's deals)
 * plus the floating profit of what is open now, all in USD.
 */
export async function winnersReport(
  ports: TTradingPorts & { market: MarketService },
  { actor, ...input }: { actor: TActor; period: TPeriod; scope: TScope; limit: number },
): Promise<TWinners> {
  const now = Date.now();
  const from = periodStart(input.period, now);
  const converter = new UsdConverter(ports.market);
  let query = ports.db
    .selectFrom('deals as d')
    .innerJoin('trading_accounts as a', 'a.id', 'd.account_id')
    .select([
      'a.user_id',
      'a.currency',
      'a.id as account_id',
      sql<string>`count(*)`.as('deals'),
      sql<string>`sum(case when d.profit > 0 then 1 else 0 end)`.as('wins'),
      sql<string>`sum(d.profit + d.swap + d.commission)`.as('result'),
    ])
    .where('a.tenant_id', '=', actor.tenantId)
    .where('d.close_time', '>=', from)
    .groupBy(['a.user_id', 'a.currency', 'a.id']);
  if (input.scope === 'real') query = query.where('a.account_type', '<>', AccountType.DEMO);
  if (input.scope === 'demo') query = query.where('a.account_type', '=', AccountType.DEMO);
  const rows = await query.execute();

  type TTally = { accounts: Set<number>; realized: Big; floating: Big; deals: number; wins: number };
  const tally = new Map<string, TTally>();
  const of = (userId: string) => {
    let t = tally.get(userId);
    if (!t) {
      t = { accounts: new Set(), realized: new Big(0), floating: new Big(0), deals: 0, wins: 0 };
      tally.set(userId, t);
    }
    return t;
  };
  for (const row of rows) {
    const t = of(row.user_id);
    t.deals += Number(row.deals);
    t.wins += Number(row.wins);
    t.accounts.add(Number(row.account_id));
    t.realized = t.realized.plus(converter.minor(row.result ?? '0', row.currency));
  }
  for (const account of brokerAccounts(ports.host, actor.tenantId)) {
    if (!inScope(account.view.accountType, input.scope) || account.positions.length === 0) continue;
    const t = of(account.userId);
    t.accounts.add(account.view.accountId);
    for (const p of account.positions)
      t.floating = t.floating.plus(converter.minor(p.profit, account.view.currency));
  }
  const list = [...tally].map(([userId, t]) => ({ userId, t, total: t.realized.plus(t.floating) }));
  const winners = list
    .filter((x) => x.total.gt(0))
    .sort((a, b) => b.total.cmp(a.total))
    .slice(0, input.limit);
  const losers = list
    .filter((x) => x.total.lt(0))
    .sort((a, b) => a.total.cmp(b.total))
    .slice(0, input.limit);
  const names = await customerNames(
    ports.db,
    actor.tenantId,
    [...winners, ...losers].map((x) => x.userId),
  );
  const row = (x: (typeof list)[number]) => ({
    userId: x.userId,
    name: names.get(x.userId)?.name ?? '',
    email: names.get(x.userId)?.email ?? '',
    accounts: x.t.accounts.size,
    deals: x.t.deals,
    winRate: x.t.deals > 0 ? new Big(x.t.wins).times(100).div(x.t.deals).toFixed(2) : '0.00',
    realizedUsd: usd(x.t.realized),
    floatingUsd: usd(x.t.floating),
    totalUsd: usd(x.total),
  });
  return { period: input.period, from, winners: winners.map(row), losers: losers.map(row) };
}
