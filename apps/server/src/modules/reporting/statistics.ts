import { STATS_MAX_DAYS } from '@broker/contracts/admin/audit-rules';
import { AppError } from '@broker/domain/result-codes';
import Big from 'big.js';
import { sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import type { MarketService } from '../market';
import { convert } from '../market';

const DAY_MS = 86_400_000;
export const DEFAULT_STATS_DAYS = 30;

export type TStatsScope = 'real' | 'demo' | 'all';

/** A UTC day as YYYY-MM-DD. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The day range asked for: both days included, UTC; the last 30 days up to today by default. A
 * reversed range or one longer than STATS_MAX_DAYS is refused on the field that is wrong.
 */
export function statsRange(input: { from?: string | undefined; to?: string | undefined }, now: number) {
  const to = input.to ?? utcDay(now);
  const toMs = Date.parse(`${to}T00:00:00Z`);
  const from = input.from ?? utcDay(toMs - (DEFAULT_STATS_DAYS - 1) * DAY_MS);
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  if (fromMs > toMs) throw AppError.invalid({ from: 'invalid' });
  const days = Math.round((toMs - fromMs) / DAY_MS) + 1;
  if (days > STATS_MAX_DAYS) throw AppError.invalid({ from: 'tooLong' });
  return { from, to, fromMs, endMs: toMs + DAY_MS, days };
}

/**
 * USD for one unit of a currency: USD, USDT (pegged 1:1) and USC (the US cent) exactly, anything
 * else at the market's current mid price. Null when there is no price path.
 */
export class UsdRates {
  private readonly known = new Map<string, Big | null>();
  constructor(private readonly market: Pick<MarketService, 'symbols' | 'quotes'> | null) {}

  rate(currency: string): Big | null {
    const cached = this.known.get(currency);
    if (cached !== undefined) return cached;
    let rate: Big | null = null;
    if (currency === 'USD' || currency === 'USDT') rate = new Big(1);
    else if (currency === 'USC') rate = new Big('0.01');
    else if (this.market) {
      const converted = convert({
        from: currency,
        to: 'USD',
        amount: '1',
        specs: this.market.symbols(),
        quotes: this.market.quotes(),
      });
      rate = converted ? new Big(converted.rate) : null;
    }
    this.known.set(currency, rate);
    return rate;
  }
}

/** USD with 2 decimals, half up, never "-0.00". */
export function usdText(value: Big): string {
  const text = value.toFixed(2, Big.roundHalfUp);
  return text === '-0.00' ? '0.00' : text;
}

const scopeFilter = (scope: TStatsScope) =>
  scope === 'real' ? sql`and a.account_type <> 1` : scope === 'demo' ? sql`and a.account_type = 1` : sql``;

const dayOfMs = (column: string) =>
  sql.raw(`to_char(to_timestamp(${column} / 1000) at time zone 'UTC', 'YYYY-MM-DD')`);

interface TFigures {
  registrations: number;
  activeTraders: number;
  deals: number;
  volume: number;
  notional: Big;
  clientProfit: Big;
  brokerPnl: Big;
  deposits: Big;
  withdrawals: Big;
}

const zero = (): TFigures => ({
  registrations: 0,
  activeTraders: 0,
  deals: 0,
  volume: 0,
  notional: new Big(0),
  clientProfit: new Big(0),
  brokerPnl: new Big(0),
  deposits: new Big(0),
  withdrawals: new Big(0),
});

const figuresText = (f: TFigures) => ({
  registrations: f.registrations,
  activeTraders: f.activeTraders,
  deals: f.deals,
  volumeLots: new Big(f.volume).div(100).toFixed(2),
  notionalUsd: usdText(f.notional),
  clientProfitUsd: usdText(f.clientProfit),
  brokerPnlUsd: usdText(f.brokerPnl),
  depositsUsd: usdText(f.deposits),
  withdrawalsUsd: usdText(f.withdrawals),
});

/**
 * The statistics page: per UTC day and per symbol, for the broker's accounts of the scope (real:
 * every account but demo; demo; all). Definitions (docs/backoffice/audit.md):
 * - registrations: traders who signed up that day (not scoped);
 * - active traders: distinct traders with a closed deal that day (the total counts each once);
 * - deals, volume: closed deals (each close, partial closes included) and their lots;
 * - notional: lots x contract size x close price, in USD at the current rate of the quote currency;
 * - client profit: realised profit of those deals; broker P&L: minus the clients' whole realised
 *   result (profit + swap + commission), as if every deal were B-book (A-book routing is not
 *   deducted yet);
 * - deposits, withdrawals: the ledger's deposit and withdrawal postings on trader accounts.
 */
export async function dailyStatistics(
  { db, market }: { db: TDb; market: Pick<MarketService, 'symbols' | 'quotes'> | null },
  {
    actor,
    now = Date.now(),
    ...input
  }: {
    actor: TActor;
    from?: string | undefined;
    to?: string | undefined;
    scope: TStatsScope;
    now?: number;
  },
) {
  const { tenantId } = actor;
  const range = statsRange(input, now);
  const scope = scopeFilter(input.scope);
  const rates = new UsdRates(market);
  const unconverted = new Set<string>();
  const usdMinor = (amount: string | number, currency: string): Big => {
    const rate = rates.rate(currency);
    if (!rate) {
      unconverted.add(currency);
      return new Big(0);
    }
    return new Big(String(amount)).div(100).times(rate);
  };

  const [registrations, deals, traders, tradersTotal, tradersBySymbol, funding, instruments] =
    await Promise.all([
      sql<{ day: string; n: string | number }>`
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n
        from users
        where tenant_id = ${tenantId} and created_at >= ${new Date(range.fromMs)}
          and created_at < ${new Date(range.endMs)}
        group by 1`.execute(db),
      sql<{
        day: string;
        symbol: string;
        currency: string;
        deals: string | number;
        volume: string | number;
        volume_price: string;
        profit: string | number;
        costs: string | number;
      }>`
        select ${dayOfMs('d.close_time')} as day, d.symbol, a.currency,
          count(*) as deals, sum(d.volume) as volume,
          sum(d.volume::numeric * d.close_price) as volume_price,
          sum(d.profit) as profit, sum(d.swap + d.commission) as costs
        from deals d join trading_accounts a on a.id = d.account_id
        where a.tenant_id = ${tenantId} and d.close_time >= ${range.fromMs}
          and d.close_time < ${range.endMs} ${scope}
        group by 1, 2, 3`.execute(db),
      sql<{ day: string; n: string | number }>`
        select ${dayOfMs('d.close_time')} as day, count(distinct a.user_id) as n
        from deals d join trading_accounts a on a.id = d.account_id
        where a.tenant_id = ${tenantId} and d.close_time >= ${range.fromMs}
          and d.close_time < ${range.endMs} ${scope}
        group by 1`.execute(db),
      sql<{ n: string | number }>`
        select count(distinct a.user_id) as n
        from deals d join trading_accounts a on a.id = d.account_id
        where a.tenant_id = ${tenantId} and d.close_time >= ${range.fromMs}
          and d.close_time < ${range.endMs} ${scope}`.execute(db),
      sql<{ symbol: string; n: string | number }>`
        select d.symbol, count(distinct a.user_id) as n
        from deals d join trading_accounts a on a.id = d.account_id
        where a.tenant_id = ${tenantId} and d.close_time >= ${range.fromMs}
          and d.close_time < ${range.endMs} ${scope}
        group by 1`.execute(db),
      sql<{ day: string; currency: string; kind: string; amount: string | number }>`
        select ${dayOfMs('l.created_at')} as day, a.currency, l.kind, sum(l.amount) as amount
        from ledger_entries l join trading_accounts a on a.id = l.account_id
        where a.tenant_id = ${tenantId} and l.kind in ('deposit', 'withdrawal')
          and l.ledger_account like 'trader:%'
          and l.created_at >= ${range.fromMs} and l.created_at < ${range.endMs} ${scope}
        group by 1, 2, 3`.execute(db),
      db
        .selectFrom('instruments')
        .select(['symbol', 'contract_size', 'digits', 'profit_currency'])
        .where('tenant_id', '=', tenantId)
        .execute(),
    ]);

  const byDay = new Map<string, TFigures>();
  for (let ms = range.fromMs; ms < range.endMs; ms += DAY_MS) byDay.set(utcDay(ms), zero());
  const dayOf = (day: string) => byDay.get(day) ?? zero();
  const totals = zero();
  const bySymbol = new Map<string, TFigures>();
  const instrument = new Map(instruments.map((i) => [i.symbol, i]));

  for (const row of registrations.rows) {
    dayOf(row.day).registrations += Number(row.n);
    totals.registrations += Number(row.n);
  }
  for (const row of deals.rows) {
    const spec = instrument.get(row.symbol);
    let notional = new Big(0);
    const quoteRate = spec ? rates.rate(spec.profit_currency) : null;
    if (spec && quoteRate) {
      // volume is in hundredths of a lot and prices in points (price x 10^digits).
      notional = new Big(row.volume_price)
        .times(spec.contract_size)
        .div(new Big(10).pow(spec.digits + 2))
        .times(quoteRate);
    } else unconverted.add(spec ? spec.profit_currency : row.symbol);
    const profit = usdMinor(row.profit, row.currency);
    const brokerPnl = profit.plus(usdMinor(row.costs, row.currency)).times(-1);
    const symbol = bySymbol.get(row.symbol) ?? zero();
    bySymbol.set(row.symbol, symbol);
    for (const target of [dayOf(row.day), totals, symbol]) {
      target.deals += Number(row.deals);
      target.volume += Number(row.volume);
      target.notional = target.notional.plus(notional);
      target.clientProfit = target.clientProfit.plus(profit);
      target.brokerPnl = target.brokerPnl.plus(brokerPnl);
    }
  }
  for (const row of traders.rows) dayOf(row.day).activeTraders = Number(row.n);
  totals.activeTraders = Number(tradersTotal.rows[0]?.n ?? 0);
  for (const row of tradersBySymbol.rows) {
    const symbol = bySymbol.get(row.symbol);
    if (symbol) symbol.activeTraders = Number(row.n);
  }
  for (const row of funding.rows) {
    const amount = usdMinor(row.amount, row.currency).abs();
    for (const target of [dayOf(row.day), totals]) {
      if (row.kind === 'deposit') target.deposits = target.deposits.plus(amount);
      else target.withdrawals = target.withdrawals.plus(amount);
    }
  }

  return {
    from: range.from,
    to: range.to,
    scope: input.scope,
    currency: 'USD' as const,
    days: [...byDay].map(([day, figures]) => ({ day, ...figuresText(figures) })),
    totals: figuresText(totals),
    symbols: [...bySymbol]
      .map(([symbol, f]) => {
        const text = figuresText(f);
        return {
          symbol,
          deals: text.deals,
          traders: text.activeTraders,
          volumeLots: text.volumeLots,
          notionalUsd: text.notionalUsd,
          clientProfitUsd: text.clientProfitUsd,
          brokerPnlUsd: text.brokerPnlUsd,
        };
      })
      .sort((a, b) => b.deals - a.deals || a.symbol.localeCompare(b.symbol)),
    unconverted: [...unconverted].sort(),
  };
}
