import type { TRouteOutput } from '@broker/contracts/routes';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { TActor } from '../../actor';
import type { TDatabaseSchema } from '../../db/schema';
import { actorAccount } from './account-access';
import type { EngineHost } from './engine-host';
import type { TRouteInput, TTradingPorts } from './ports';
import { fromScaled, money, unitsToLots } from './units';

/** A page of an account's history between two times (ms since the epoch). */
export interface THistoryQuery {
  accountId: number;
  from: number;
  to: number;
  symbol?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/**
 * A history filter's symbol as a LIKE pattern: the symbol or its beginning, any case ("btc" finds
 * BTCUSDT), with LIKE's own wildcards taken literally.
 */
function symbolPrefix(symbol: string): string {
  return `${symbol
    .trim()
    .toUpperCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The last 30 days unless the query says otherwise. */
function range(input: { from?: number | undefined; to?: number | undefined }) {
  const to = input.to ?? Date.now();
  const from = input.from ?? to - 30 * 86_400_000;
  return { from, to };
}

type THistoryTable = 'deals' | 'order_history';

/**
 * One page of an account's rows of a history table between two times, newest first, with the
 * total: the one pager of both histories.
 */
async function historyPage<T extends THistoryTable, R>(
  ports: TTradingPorts,
  table: T,
  timeColumn: 'close_time' | 'done_time',
  query: THistoryQuery,
  toItem: (row: Selectable<TDatabaseSchema[T]>) => R,
) {
  const { accountId, from, to, page = 1, size = 20 } = query;
  // biome-ignore lint/suspicious/noExplicitAny: one builder over either history table
  let rows = (ports.db.selectFrom(table) as unknown as SelectQueryBuilder<any, any, any>)
    .where('account_id', '=', accountId)
    .where(timeColumn, '>=', from)
    .where(timeColumn, '<=', to);
  if (query.symbol) rows = rows.where('symbol', 'like', symbolPrefix(query.symbol));
  const [{ total }, found] = await Promise.all([
    rows.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow() as Promise<{ total: string }>,
    rows
      .selectAll()
      .orderBy(timeColumn, 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
  ]);
  return { items: (found as Selectable<TDatabaseSchema[T]>[]).map(toItem), total: Number(total), page, size };
}

const digitsFor = (host: EngineHost, symbol: string) => host.digits(symbol) ?? 5;

/** One page of an account's closed positions (one row per close), newest first. */
export function dealPage(ports: TTradingPorts, query: THistoryQuery): Promise<TRouteOutput<'dealhistory'>> {
  return historyPage(ports, 'deals', 'close_time', query, (r) => {
    const digits = digitsFor(ports.host, r.symbol);
    return {
      id: Number(r.id),
      position_id: Number(r.position_id),
      symbol: r.symbol,
      side: r.side as 'buy' | 'sell',
      volume: unitsToLots(r.volume),
      open_price: fromScaled(Number(r.open_price), digits),
      close_price: fromScaled(Number(r.close_price), digits),
      open_time: Number(r.open_time),
      close_time: Number(r.close_time),
      hold_seconds: Math.max(0, Math.round((Number(r.close_time) - Number(r.open_time)) / 1000)),
      profit: money(Number(r.profit)),
      swap: money(Number(r.swap)),
      commission: money(Number(r.commission)),
      close_reason: r.reason,
      strategy_id: r.strategy_id === null ? null : Number(r.strategy_id),
    };
  });
}

/** One page of an account's filled and cancelled pending orders, newest first. */
export function finishedOrderPage(
  ports: TTradingPorts,
  query: THistoryQuery,
): Promise<TRouteOutput<'orderhistory'>> {
  return historyPage(ports, 'order_history', 'done_time', query, (r) => {
    const digits = digitsFor(ports.host, r.symbol);
    const px = (v: string | number | null) => (v === null ? null : fromScaled(Number(v), digits));
    return {
      order_id: Number(r.id),
      symbol: r.symbol,
      type: r.order_type,
      volume: unitsToLots(r.volume),
      price: fromScaled(Number(r.price), digits),
      limit_price: px(r.limit_price),
      take_profit: px(r.take_profit),
      stop_loss: px(r.stop_loss),
      placed_time: Number(r.placed_time),
      done_time: Number(r.done_time),
      status: r.status,
      cancel_reason: r.cancel_reason,
      position_id: r.position_id === null ? null : Number(r.position_id),
      fill_price: px(r.fill_price),
      strategy_id: r.strategy_id === null ? null : Number(r.strategy_id),
    };
  });
}

/** The deal history of an account the actor may see. */
export function dealHistory(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'dealhistory'> & { actor: TActor },
) {
  actorAccount(ports, actor, input.account_id);
  return dealPage(ports, {
    accountId: input.account_id,
    ...range(input),
    symbol: input.symbol,
    page: input.page,
    size: input.size,
  });
}

/** The finished pending orders of an account the actor may see. */
export function orderHistory(
  ports: TTradingPorts,
  { actor, ...input }: TRouteInput<'orderhistory'> & { actor: TActor },
) {
  actorAccount(ports, actor, input.account_id);
  return finishedOrderPage(ports, {
    accountId: input.account_id,
    ...range(input),
    symbol: input.symbol,
    page: input.page,
    size: input.size,
  });
}
