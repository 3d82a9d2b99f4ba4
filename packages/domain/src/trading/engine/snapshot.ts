/** Snapshot and restore: the whole engine state as plain JSON-able rows, and back. */
import type { TAccountType, TTradeType } from '../calculations';
import { profitMinor } from '../money';
import type { TRestrictions } from '../orders';
import { registerAccount } from './accounts';
import { attachRelation, relationView } from './copy';
import type { TApplyResult, TCopyRelationView, TOrderView, TPositionView } from './events';
import { bucketFor, quoteState, stateFor } from './market';
import { addOrderTrigger, attachPosition } from './positions';
import type { EngineState, Order, Position } from './state';
import { strategyView } from './strategy/core';
import { restoreBot } from './strategy/run';
import type { TStrategyView } from './strategy/types';
import { accountIds, ordersOf, positionsOf } from './views';

export interface TAccountRow {
  accountId: number;
  accountType: TAccountType;
  tradeType: TTradeType;
  currency: string;
  leverage: number;
  balance: number;
  followEquity: number;
  strategyEquity: number;
  initMoney: number;
  totalInAmount: number;
  totalOutAmount: number;
  marginCallBp: number;
  stopOutBp: number;
  marginCall: boolean;
  negativeBalanceProtection: boolean;
  restrictions: TRestrictions;
  closed: boolean;
  profile?: string | null;
  /** Sub-accounts: the main account and the purpose (copy or strategy). */
  parentId?: number | null;
  purpose?: 'copy' | 'strategy' | null;
  /** A leader's main account taking no new followers for now. */
  followersPaused?: boolean;
  leaderSuspended?: boolean;
}

export type TPositionRow = Omit<TPositionView, 'profit' | 'parentTicket' | 'strategyId' | 'trailingStop'> & {
  /** The trailing stop distance in points (null or absent: none). */
  trailingStop?: number | null;
  /** A copy's leader position (null or absent for the account's own positions). */
  parentTicket?: number | null;
  /** A bot's position: its strategy (null or absent for the trader's own). */
  strategyId?: number | null;
};

/** A pending order as stored (the strategy id may be absent in rows written before bots). */
export type TOrderRow = Omit<TOrderView, 'strategyId'> & { strategyId?: number | null };

/** Everything needed to rebuild the engine, as plain JSON-able rows. */
export interface TEngineSnapshot {
  version: 1;
  nextTicket: number;
  nextTxId: number;
  /** Quotes after markup, as the engine last saw them. */
  quotes: Array<{ symbol: string; bid: number; ask: number; time: number }>;
  accounts: TAccountRow[];
  positions: TPositionRow[];
  orders: TOrderRow[];
  /** Bots waiting, running, or stopped with positions open, in strategy id order. */
  strategies?: TStrategyView[];
  /** Copy relations running or paused (stopped ones are history), in copy-account id order. */
  copyRelations?: TCopyRelationView[];
  idempotency: Array<{ key: string; fingerprint: string; result: TApplyResult }>;
}

/** The state as rows: base quotes, accounts in id order with their positions and orders, idempotency. */
export function takeSnapshot(st: EngineState): TEngineSnapshot {
  const quotes: TEngineSnapshot['quotes'] = [];
  for (const s of st.symbols.values())
    if (s.hasQuote && s.key === s.terms.symbol)
      quotes.push({ symbol: s.terms.symbol, bid: s.bid, ask: s.ask, time: s.time });
  const accounts: TAccountRow[] = [];
  const positions: TPositionRow[] = [];
  const orders: TOrderRow[] = [];
  for (const id of accountIds(st)) {
    const a = st.accounts.get(id)!;
    accounts.push({
      accountId: a.id,
      accountType: a.type,
      tradeType: a.tradeType,
      currency: a.currency,
      leverage: a.leverage,
      balance: a.balance,
      followEquity: a.followEquity,
      strategyEquity: a.strategyEquity,
      initMoney: a.initMoney,
      totalInAmount: a.totalIn,
      totalOutAmount: a.totalOut,
      marginCallBp: a.marginCallBp,
      stopOutBp: a.stopOutBp,
      marginCall: st.risk.inCall[a.slot] === 1,
      negativeBalanceProtection: a.nbp,
      restrictions: { ...a.restrictions },
      closed: a.closed,
      profile: a.profile,
      parentId: a.parentId,
      purpose: a.purpose,
      followersPaused: a.followersPaused,
      leaderSuspended: a.leaderSuspended,
    });
    for (const p of positionsOf(st, id)) {
      const { profit: _profit, ...row } = p;
      positions.push(row);
    }
    orders.push(...ordersOf(st, id));
  }
  return {
    version: 1,
    nextTicket: st.nextTicket,
    nextTxId: st.nextTxId,
    quotes,
    accounts,
    positions,
    orders,
    strategies: [...st.strategies.values()].sort((a, b) => a.id - b.id).map((bot) => strategyView(bot)),
    copyRelations: [...st.copyRelations.values()]
      .sort((a, b) => a.follower.id - b.follower.id)
      .map((relation) => relationView(relation)),
    idempotency: [...st.idempotency].map(([key, v]) => ({
      key,
      fingerprint: v.fingerprint,
      result: v.result,
    })),
  };
}

/** Loads a snapshot (or persisted rows shaped like one) into a freshly configured, empty state. */
export function restoreInto(st: EngineState, snapshot: TEngineSnapshot): void {
  st.nextTicket = snapshot.nextTicket;
  st.nextTxId = snapshot.nextTxId;
  for (const q of snapshot.quotes) {
    const s = st.symbols.get(q.symbol);
    if (s === undefined) continue;
    s.bid = q.bid;
    s.ask = q.ask;
    s.time = q.time;
    s.hasQuote = true;
    // The stored quote carries the base markup: take it off for the raw quote profiles derive from.
    const down = Math.floor(s.terms.markupPoints / 2);
    s.rawBid = q.bid + down;
    s.rawAsk = q.ask - (s.terms.markupPoints - down);
    for (const p of st.profileStates.get(q.symbol) ?? []) quoteState(p, s.rawBid, s.rawAsk, q.time);
  }
  for (const row of snapshot.accounts) {
    const account = registerAccount(st, {
      id: row.accountId,
      slot: 0,
      type: row.accountType,
      tradeType: row.tradeType,
      currency: row.currency,
      leverage: row.leverage,
      balance: row.balance,
      followEquity: row.followEquity,
      strategyEquity: row.strategyEquity,
      initMoney: row.initMoney,
      totalIn: row.totalInAmount,
      totalOut: row.totalOutAmount,
      marginCallBp: row.marginCallBp,
      stopOutBp: row.stopOutBp,
      nbp: row.negativeBalanceProtection,
      restrictions: { ...row.restrictions },
      closed: row.closed,
      profile: row.profile ?? null,
      parentId: row.parentId ?? null,
      purpose: row.purpose ?? null,
      children: [],
      positions: [],
      orders: new Set(),
      copy: null,
      followers: null,
      followersPaused: row.followersPaused ?? false,
      leaderSuspended: row.leaderSuspended ?? false,
      bot: null,
    });
    st.risk.setInCall(account.slot, row.marginCall);
  }
  for (const account of st.accounts.values())
    if (account.parentId !== null) st.accounts.get(account.parentId)?.children.push(account);
  // relations before positions: a copy counts itself in its relation as it is attached
  for (const row of snapshot.copyRelations ?? []) {
    const follower = st.accounts.get(row.accountId);
    const leader = st.accounts.get(row.leaderAccountId);
    if (follower === undefined || leader === undefined)
      throw new Error(`orphan copy relation ${row.accountId}`);
    const {
      accountId: _a,
      leaderAccountId: _l,
      status,
      stopReason: _r,
      createdAt,
      updatedAt,
      hwm,
      feesPaid,
      ...settings
    } = row;
    attachRelation(st, {
      follower,
      leader,
      settings: { ...settings, feeBp: settings.feeBp ?? 0 },
      paused: status === 'paused',
      createdAt,
      updatedAt,
      openCopies: 0,
      hwm: hwm ?? 0,
      feesPaid: feesPaid ?? 0,
    });
  }
  // bots before the positions and orders that carry their ids
  for (const view of snapshot.strategies ?? []) restoreBot(st, view);
  for (const row of snapshot.positions) {
    const account = st.accounts.get(row.accountId);
    const sym = account === undefined ? undefined : stateFor(st, account, row.symbol);
    if (account === undefined || sym === undefined) throw new Error(`orphan position ${row.positionId}`);
    const bucket = bucketFor(st, sym, account.currency);
    const rates = bucket.converter.rates;
    const diff = row.side === 'buy' ? sym.bid - row.openPrice : row.openPrice - sym.ask;
    const profit =
      rates !== undefined && sym.hasQuote ? profitMinor(diff, row.volume, sym.terms.point, rates) : 0;
    const position: Position = {
      ticket: row.positionId,
      account,
      sym,
      side: row.side,
      volume: row.volume,
      openPrice: row.openPrice,
      openTime: row.openTime,
      takeProfit: row.takeProfit,
      stopLoss: row.stopLoss,
      trailing: row.trailingStop ?? 0,
      margin: row.margin,
      swap: row.swap,
      commission: row.commission,
      bucket,
      bucketIndex: 0,
      accountIndex: 0,
      parentTicket: row.parentTicket ?? null,
      strategyId: row.strategyId ?? null,
    };
    attachPosition(st, position, profit);
  }
  // each leader position's copies in ticket order, as they were made
  for (const copies of st.copiesByParent.values()) copies.sort((a, b) => a.ticket - b.ticket);
  for (const row of snapshot.orders) {
    const account = st.accounts.get(row.accountId);
    const sym = account === undefined ? undefined : stateFor(st, account, row.symbol);
    if (account === undefined || sym === undefined) throw new Error(`orphan order ${row.orderId}`);
    const order: Order = {
      ticket: row.orderId,
      account,
      sym,
      type: row.type,
      volume: row.volume,
      price: row.price,
      limitPrice: row.limitPrice,
      activated: row.activated,
      takeProfit: row.takeProfit,
      stopLoss: row.stopLoss,
      time: row.time,
      strategyId: row.strategyId ?? null,
    };
    st.orders.set(order.ticket, order);
    account.orders.add(order);
    addOrderTrigger(order);
  }
  for (const entry of snapshot.idempotency)
    st.idempotency.set(entry.key, { fingerprint: entry.fingerprint, result: entry.result });
}
