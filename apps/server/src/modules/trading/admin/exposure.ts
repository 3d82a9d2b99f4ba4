import type { TRouteOutput } from '@broker/contracts/routes';
import { AccountType } from '@broker/domain/trading/calculations';
import type { TAccountView, TPositionView } from '@broker/domain/trading/engine-core';
import Big from 'big.js';
import type { TActor } from '../../../actor';
import { type MarketService, UsdConverter as Usd, type UsdConverter, usd } from '../../market';
import type { EngineHost } from '../engine-host';
import type { TTradingPorts } from '../ports';
import { fromScaled, unitsToLots } from '../units';
import { customerNames, groupsOf } from './lookups';

export type TScope = 'real' | 'demo' | 'all';
type TExposure = TRouteOutput<'adminriskexposure'>;

/**
 * What the risk pages work with: the engine's live accounts, the database, the market's prices and
 * the book (A or B) each position is in.
 */
export interface TRiskPorts extends TTradingPorts {
  market: MarketService;
  liquidity: { bookOf(positionId: number): 'A' | 'B' };
}

/** Whether an account type counts in a scope: demo money is not the broker's risk. */
export function inScope(accountType: number, scope: TScope): boolean {
  if (scope === 'all') return true;
  return scope === 'demo' ? accountType === AccountType.DEMO : accountType !== AccountType.DEMO;
}

export interface TExposureAccount {
  view: TAccountView;
  userId: string;
  groupId: string | null;
  positions: readonly TPositionView[];
}

export interface TInstrumentFacts {
  digits: number;
  /** Units of the base per lot, decimal string. */
  contractSize: string;
  /** The currency prices are quoted in (the notional's currency). */
  quoteCurrency: string;
}

interface TNet {
  buy: number;
  sell: number;
}

const net = (n: TNet) => n.buy - n.sell;

/**
 * Sums the open positions of a broker's accounts (pure: the caller reads the engine and the names).
 * Lots are summed exactly in hundredths; money is converted to USD with one set of prices:
 * notional = net lots x contract size x the engine's mid price, from the quote currency to USD;
 * profit from each account's currency to USD. The broker's B-book result is the negative of its
 * B-book clients' floating profit.
 */
export function aggregateExposure(input: {
  accounts: readonly TExposureAccount[];
  bookOf: (positionId: number) => 'A' | 'B';
  instrument: (symbol: string) => TInstrumentFacts | undefined;
  quote: (symbol: string) => { bid: number; ask: number } | undefined;
  usd: UsdConverter;
  top: number;
  customerName: (userId: string) => { name: string; email: string };
  groupName: (groupId: string) => string;
  scope: TScope;
  time: number;
}): TExposure {
  const bySymbol = new Map<
    string,
    { total: TNet; a: TNet; b: TNet; positions: number; accounts: Set<number>; pnl: Big; pnlB: Big }
  >();
  type THolder = { accounts: Set<number>; positions: number; pnl: Big; equity: Big; nets: Map<string, TNet> };
  const byCustomer = new Map<string, THolder>();
  const byGroup = new Map<string, THolder>();
  const books = {
    A: { positions: 0, nets: new Map<string, TNet>(), pnl: new Big(0) },
    B: { positions: 0, nets: new Map<string, TNet>(), pnl: new Big(0) },
  };
  const add = (nets: Map<string, TNet>, symbol: string, side: 'buy' | 'sell', volume: number) => {
    const entry = nets.get(symbol) ?? { buy: 0, sell: 0 };
    entry[side] += volume;
    nets.set(symbol, entry);
  };
  const holder = (map: Map<string, THolder>, key: string) => {
    let h = map.get(key);
    if (!h) {
      h = { accounts: new Set(), positions: 0, pnl: new Big(0), equity: new Big(0), nets: new Map() };
      map.set(key, h);
    }
    return h;
  };
  let accountsWithPositions = 0;
  for (const account of input.accounts) {
    if (!inScope(account.view.accountType, input.scope) || account.view.closed) continue;
    const currency = account.view.currency;
    const customer = holder(byCustomer, account.userId);
    const group = account.groupId ? holder(byGroup, account.groupId) : null;
    const equity = input.usd.minor(account.view.equity, currency);
    customer.equity = customer.equity.plus(equity);
    customer.accounts.add(account.view.accountId);
    if (group) {
      group.equity = group.equity.plus(equity);
      group.accounts.add(account.view.accountId);
    }
    if (account.positions.length > 0) accountsWithPositions++;
    for (const p of account.positions) {
      const book = input.bookOf(p.positionId);
      const profit = input.usd.minor(p.profit, currency);
      let s = bySymbol.get(p.symbol);
      if (!s) {
        s = {
          total: { buy: 0, sell: 0 },
          a: { buy: 0, sell: 0 },
          b: { buy: 0, sell: 0 },
          positions: 0,
          accounts: new Set(),
          pnl: new Big(0),
          pnlB: new Big(0),
        };
        bySymbol.set(p.symbol, s);
      }
      s.total[p.side] += p.volume;
      s[book === 'A' ? 'a' : 'b'][p.side] += p.volume;
      s.positions++;
      s.accounts.add(account.view.accountId);
      s.pnl = s.pnl.plus(profit);
      if (book === 'B') s.pnlB = s.pnlB.plus(profit);
      books[book].positions++;
      books[book].pnl = books[book].pnl.plus(profit);
      add(books[book].nets, p.symbol, p.side, p.volume);
      for (const h of group ? [customer, group] : [customer]) {
        h.positions++;
        h.pnl = h.pnl.plus(profit);
        add(h.nets, p.symbol, p.side, p.volume);
      }
    }
  }

  const notionalCache = new Map<string, Big>();
  /** USD per hundredth of a lot of `symbol` at the mid price (0 without a price). */
  const usdPerUnit = (symbol: string): Big => {
    const known = notionalCache.get(symbol);
    if (known) return known;
    const facts = input.instrument(symbol);
    const quote = input.quote(symbol);
    let value = new Big(0);
    if (facts && quote) {
      const mid = new Big(quote.bid).plus(quote.ask).div(2).div(new Big(10).pow(facts.digits));
      value = input.usd.units(mid.times(facts.contractSize).div(100), facts.quoteCurrency);
    }
    notionalCache.set(symbol, value);
    return value;
  };
  const notional = (symbol: string, n: TNet) => usdPerUnit(symbol).times(net(n));
  const grossExposure = (nets: Map<string, TNet>) => {
    let total = new Big(0);
    for (const [symbol, n] of nets) total = total.plus(notional(symbol, n).abs());
    return total;
  };
  const topSymbols = (nets: Map<string, TNet>) =>
    [...nets]
      .filter(([, n]) => net(n) !== 0)
      .sort(
        ([sa, a], [sb, b]) =>
          notional(sb, b).abs().cmp(notional(sa, a).abs()) || (sa < sb ? -1 : sa > sb ? 1 : 0),
      )
      .slice(0, 5)
      .map(([symbol, n]) => ({ symbol, netLots: unitsToLots(net(n)) }));

  const symbols = [...bySymbol]
    .map(([symbol, s]) => {
      const facts = input.instrument(symbol);
      const digits = facts?.digits ?? 2;
      const quote = input.quote(symbol);
      return {
        symbol,
        digits,
        bid: quote ? fromScaled(quote.bid, digits) : null,
        ask: quote ? fromScaled(quote.ask, digits) : null,
        positions: s.positions,
        accounts: s.accounts.size,
        buyLots: unitsToLots(s.total.buy),
        sellLots: unitsToLots(s.total.sell),
        netLots: unitsToLots(net(s.total)),
        netLotsA: unitsToLots(net(s.a)),
        netLotsB: unitsToLots(net(s.b)),
        netNotionalUsd: usd(notional(symbol, s.total)),
        clientPnlUsd: usd(s.pnl),
        brokerPnlUsd: usd(s.pnlB.times(-1)),
        sortKey: notional(symbol, s.total).abs(),
      };
    })
    .sort((x, y) => y.sortKey.cmp(x.sortKey) || (x.symbol < y.symbol ? -1 : 1))
    .map(({ sortKey: _sortKey, ...row }) => row);

  const ranked = <K extends string>(map: Map<string, THolder>, key: K) =>
    [...map]
      .filter(([, h]) => h.positions > 0)
      .map(([id, h]) => ({ id, h, exposure: grossExposure(h.nets) }))
      .sort((x, y) => y.exposure.cmp(x.exposure) || y.h.pnl.abs().cmp(x.h.pnl.abs()))
      .map(({ id, h, exposure }) => ({
        [key]: id,
        accounts: h.accounts.size,
        positions: h.positions,
        exposureUsd: usd(exposure),
        floatingPnlUsd: usd(h.pnl),
        equityUsd: usd(h.equity),
        symbols: topSymbols(h.nets),
      })) as Array<Record<K, string> & Omit<TExposure['groups'][number], 'groupId' | 'name'>>;

  let totalPnl = new Big(0);
  let totalExposure = new Big(0);
  for (const [symbol, s] of bySymbol) {
    totalPnl = totalPnl.plus(s.pnl);
    totalExposure = totalExposure.plus(notional(symbol, s.total).abs());
  }
  const bookTotals = (book: 'A' | 'B') => ({
    positions: books[book].positions,
    exposureUsd: usd(grossExposure(books[book].nets)),
    clientPnlUsd: usd(books[book].pnl),
  });
  return {
    time: input.time,
    scope: input.scope,
    symbols,
    customers: ranked(byCustomer, 'userId')
      .slice(0, input.top)
      .map((row) => ({ ...row, ...input.customerName(row.userId) })),
    groups: ranked(byGroup, 'groupId').map((row) => ({ ...row, name: input.groupName(row.groupId) })),
    books: { A: bookTotals('A'), B: bookTotals('B') },
    totals: {
      accounts: accountsWithPositions,
      positions: books.A.positions + books.B.positions,
      exposureUsd: usd(totalExposure),
      clientPnlUsd: usd(totalPnl),
      brokerPnlUsd: usd(books.B.pnl.times(-1)),
    },
  };
}

/** The broker's accounts in the engine (never another broker's), with their open positions. */
export function brokerAccounts(
  engine: EngineHost,
  tenantId: string,
): Array<{
  view: TAccountView;
  userId: string;
  positions: TPositionView[];
}> {
  const list = [];
  for (const accountId of engine.core.accountIds()) {
    const owner = engine.ownerOf(accountId);
    if (owner?.tenantId !== tenantId) continue;
    const view = engine.core.account(accountId);
    if (!view) continue;
    list.push({ view, userId: owner.userId, positions: engine.core.positionsOf(accountId) });
  }
  return list;
}

export function instrumentFacts(market: MarketService, symbol: string): TInstrumentFacts | undefined {
  const spec = market.spec(symbol);
  if (!spec) return undefined;
  return { digits: spec.digits, contractSize: spec.contractSize, quoteCurrency: spec.quote };
}

export async function exposureReport(
  ports: TRiskPorts,
  { actor, ...input }: { actor: TActor; scope: TScope; top: number },
): Promise<TExposure> {
  const { db, host, market } = ports;
  const accounts = brokerAccounts(host, actor.tenantId).filter((a) =>
    inScope(a.view.accountType, input.scope),
  );
  const groups = await groupsOf(
    db,
    actor.tenantId,
    accounts.map((a) => a.view.accountId),
  );
  const customers = await customerNames(db, actor.tenantId, [
    ...new Set(accounts.filter((a) => a.positions.length > 0).map((a) => a.userId)),
  ]);
  return aggregateExposure({
    accounts: accounts.map((a) => ({ ...a, groupId: groups.accountGroup.get(a.view.accountId) ?? null })),
    bookOf: (id) => ports.liquidity.bookOf(id),
    instrument: (symbol) => instrumentFacts(market, symbol),
    quote: (symbol) => host.core.quote(symbol),
    usd: new Usd(market),
    top: input.top,
    customerName: (userId) => customers.get(userId) ?? { name: '', email: '' },
    groupName: (groupId) => groups.names.get(groupId) ?? '',
    scope: input.scope,
    time: Date.now(),
  });
}
