/** Account views: the risk book's running sums, the spec 5 figures, and the read views of the engine. */
import {
  accountProfit,
  isMetaTrader,
  marginLevelBp,
  type TAccountFigures,
  totalEquity,
  usableMargin,
} from '../calculations';
import { mulDiv } from '../money';
import type { TAccountView, TOrderView, TPositionView } from './events';
import type { Account, EngineState, Order, Position } from './state';

/**
 * Refreshes the risk book after a balance or external-equity change: the margin level is measured on
 * total equity for our accounts (spec 5) and on equity for MT accounts.
 */
export function syncRisk(st: EngineState, account: Account): void {
  const slot = account.slot;
  st.risk.riskBase[slot] = isMetaTrader(account.type)
    ? account.balance
    : account.balance + account.followEquity + account.strategyEquity;
  st.risk.negativeProtected[slot] = account.nbp && account.balance < 0 ? 1 : 0;
  if (account.copy !== null || account.bot !== null) syncCopyThresholds(st, account);
  st.risk.refresh(slot);
}

/** A copy account's allocated funds: the money moved in, less the money moved out. */
export function allocationOf(account: Account): number {
  return -account.totalIn - account.totalOut;
}

/**
 * The equity thresholds of a copy or strategy account, [stop, take): below `stop` its stop-loss is
 * reached, at or above `take` its take-profit (infinite: none). A copy account's are its copy
 * stop-loss and take-profit on the allocated funds: equity <= allocation x (1 - sl), equity >=
 * allocation x (1 + tp). A running grid bot's are its stop-loss and take-profit in basis points of its
 * investment (`investmentBase` + allocation). Exact in integers.
 */
export function equityThresholds(account: Account): [number, number] {
  let stop = Number.NEGATIVE_INFINITY;
  let take = Number.POSITIVE_INFINITY;
  let base = 0;
  let stopLossBp: number | null = null;
  let takeProfitBp: number | null = null;
  const bot = account.bot;
  if (account.copy !== null) {
    base = allocationOf(account);
    ({ stopLossBp, takeProfitBp } = account.copy.settings);
  } else if (bot !== null && bot.state === 'running' && bot.grid !== null) {
    base = bot.investmentBase + allocationOf(account);
    stopLossBp = bot.grid.stopLossBp;
    takeProfitBp = bot.grid.takeProfitBp;
  }
  if (base > 0) {
    // equity <= floor(a x (1 - sl))  <=>  equity < floor(a x (1 - sl)) + 1
    if (stopLossBp !== null) stop = mulDiv(base, 10_000 - stopLossBp, 10_000, 'floor') + 1;
    if (takeProfitBp !== null) take = mulDiv(base, 10_000 + takeProfitBp, 10_000, 'ceil');
  }
  return [stop, take];
}

/** Puts the account's equity thresholds (see `equityThresholds`) in the risk book. */
export function syncCopyThresholds(st: EngineState, account: Account): void {
  const [stop, take] = equityThresholds(account);
  st.risk.setCopyThresholds(account.slot, stop, take);
}

/** The equity the margin level is measured on (see `syncRisk`). */
export function riskEquity(st: EngineState, account: Account): number {
  return st.risk.riskBase[account.slot]! + st.risk.floating[account.slot]!;
}

export function profitOf(position: Position): number {
  return position.bucket.store.profit[position.bucketIndex]!;
}

export function floatingOf(st: EngineState, account: Account): number {
  return st.risk.floating[account.slot]!;
}

export function marginOf(st: EngineState, account: Account): number {
  return st.risk.margin[account.slot]!;
}

/** The spec 5 inputs of an account (MT fields filled as if the engine hosted the account). */
export function figuresOf(st: EngineState, account: Account): TAccountFigures {
  const floating = floatingOf(st, account);
  const margin = marginOf(st, account);
  const equity = account.balance + floating;
  return {
    accountType: account.type,
    tradeType: account.tradeType,
    balance: account.balance,
    totalProfit: floating,
    totalMargin: margin,
    followEquity: account.followEquity,
    strategyEquity: account.strategyEquity,
    initMoney: account.initMoney,
    totalInAmount: account.totalIn,
    totalOutAmount: account.totalOut,
    mtEquity: equity,
    mtMargin: margin,
    mtFreeMargin: equity - margin,
    mtProfit: floating,
  };
}

// ---------------------------------------------------------------- reads

export function accountView(st: EngineState, accountId: number): TAccountView | undefined {
  const a = st.accounts.get(accountId);
  if (a === undefined) return undefined;
  const own = figuresOf(st, a);
  // A main account's totals include its sub-accounts' equity (spec 5 total equity); its margin level
  // and usable margin stay its own (sub-accounts are ring-fenced).
  let childFollow = 0;
  let childStrategy = 0;
  for (const child of a.children) {
    if (child.closed) continue;
    const equity = child.balance + floatingOf(st, child);
    if (child.purpose === 'copy') childFollow += equity;
    else childStrategy += equity;
  }
  const f = {
    ...own,
    followEquity: own.followEquity + childFollow,
    strategyEquity: own.strategyEquity + childStrategy,
  };
  return {
    accountId: a.id,
    accountType: a.type,
    tradeType: a.tradeType,
    currency: a.currency,
    leverage: a.leverage,
    balance: a.balance,
    equity: a.balance + floatingOf(st, a),
    totalProfit: floatingOf(st, a),
    margin: marginOf(st, a),
    followEquity: f.followEquity,
    strategyEquity: f.strategyEquity,
    totalEquity: totalEquity(f),
    usableMargin: usableMargin(own),
    marginLevelBp: marginLevelBp(own),
    accountProfit: accountProfit(f),
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
  };
}

export function accountIds(st: EngineState): number[] {
  return [...st.accounts.keys()].sort((a, b) => a - b);
}

export function positionsOf(st: EngineState, accountId: number): TPositionView[] {
  const a = st.accounts.get(accountId);
  if (a === undefined) return [];
  return a.positions.map((p) => positionView(p)).sort((x, y) => x.positionId - y.positionId);
}

export function ordersOf(st: EngineState, accountId: number): TOrderView[] {
  const a = st.accounts.get(accountId);
  if (a === undefined) return [];
  return [...a.orders].map((o) => orderView(o)).sort((x, y) => x.orderId - y.orderId);
}

export function countsOf(st: EngineState): {
  accounts: number;
  positions: number;
  orders: number;
  triggers: number;
} {
  let triggers = 0;
  for (const s of st.symbols.values()) triggers += s.triggers.size;
  return {
    accounts: st.accounts.size,
    positions: st.positions.size,
    orders: st.orders.size,
    triggers,
  };
}

export function positionView(p: Position): TPositionView {
  return {
    positionId: p.ticket,
    accountId: p.account.id,
    symbol: p.sym.terms.symbol,
    side: p.side,
    volume: p.volume,
    openPrice: p.openPrice,
    openTime: p.openTime,
    takeProfit: p.takeProfit,
    stopLoss: p.stopLoss,
    trailingStop: p.trailing > 0 ? p.trailing : null,
    margin: p.margin,
    profit: profitOf(p),
    swap: p.swap,
    commission: p.commission,
    parentTicket: p.parentTicket,
    strategyId: p.strategyId,
  };
}

export function orderView(o: Order): TOrderView {
  return {
    orderId: o.ticket,
    accountId: o.account.id,
    symbol: o.sym.terms.symbol,
    type: o.type,
    volume: o.volume,
    price: o.price,
    limitPrice: o.limitPrice,
    activated: o.activated,
    takeProfit: o.takeProfit,
    stopLoss: o.stopLoss,
    time: o.time,
    strategyId: o.strategyId,
  };
}
