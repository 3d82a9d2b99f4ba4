/**
 * Bots inside the single writer: the start and stop commands, and each step's reactions. After a
 * command or a tick has run (and its margin checks), `strategyEvents` walks the step's events: a bot's
 * order filled, its position closed (take-profit, stop-out, the trader), its order refused at fill,
 * commission and swap charged to its positions, its account stopped out or closed. Then, on a tick,
 * `strategyPrices` looks at the bots of that symbol whose band of bid the quote left (a trigger
 * crossed, a cell to arm, a take-profit or stop-loss price, the range left): one comparison per bot
 * otherwise. Each bot changed in the step reports `strategy_changed` once, at its end.
 */
import { TradeType } from '../../calculations';
import { CloseReason, validateClosing } from '../../orders';
import type { TOutcome, TStartStrategyCommand, TStopStrategyCommand } from '../commands';
import type { TEngineEvent } from '../events';
import { stateFor } from '../market';
import { marginAllows, openingCosts } from '../order-entry';
import { type Account, type EngineState, emit, type Strategy } from '../state';
import { allocationOf, profitOf, riskEquity, syncCopyThresholds } from '../views';
import {
  botOrders,
  botPositions,
  copyGrid,
  logBot,
  stopBot,
  strategyView,
  touch,
  unwatch,
  watch,
} from './core';
import {
  cellOf,
  gridBand,
  gridEmptied,
  gridFilled,
  gridLevels,
  gridParams,
  gridPrices,
  startGrid,
  validateGrid,
} from './grid';
import {
  emptyRound,
  martingaleAddCancelled,
  martingaleBand,
  martingaleClosed,
  martingaleFilled,
  martingaleParams,
  martingalePrices,
  sideOf,
  startRound,
  validateMartingale,
} from './martingale';
import type { TGridParams, TMartingaleParams, TStrategyView } from './types';

// ---------------------------------------------------------------- commands

/**
 * Starts a bot on a strategy account (see `TStartStrategyCommand`). Everything is checked before
 * anything changes: the account (a strategy sub-account in standard mode, holding nothing, with money),
 * the parameters against the symbol and the quote, and for a martingale starting at once, its first
 * order's margin.
 */
export function startStrategy(st: EngineState, account: Account, c: TStartStrategyCommand): TOutcome<null> {
  if (account.purpose !== 'strategy' || account.parentId === null) return 'STRATEGY_NOT_ALLOWED';
  if (account.tradeType === TradeType.NOVICE) return 'STRATEGY_NOVICE_MODE';
  if (!Number.isSafeInteger(c.strategyId) || c.strategyId <= 0) return 'STRATEGY_INVALID';
  if (st.strategies.has(c.strategyId)) return 'STRATEGY_EXISTS';
  if (account.bot !== null || account.positions.length > 0 || account.orders.size > 0)
    return 'STRATEGY_ACCOUNT_BUSY';
  if (account.balance <= 0) return 'INSUFFICIENT_FUNDS';
  const grid = c.kind === 'grid' ? gridParams(c.params) : null;
  const martingale = c.kind === 'martingale' ? martingaleParams(c.params) : null;
  const params = grid ?? martingale;
  if (params === null) return 'STRATEGY_INVALID';
  const sym = stateFor(st, account, params.symbol);
  if (sym === undefined) return 'SYMBOL_UNKNOWN';
  const error =
    grid !== null ? validateGrid(st, account, sym, grid) : validateMartingale(st, account, sym, martingale!);
  if (error) return error;
  if (st.risk.inCall[account.slot] === 1) return 'MARGIN_LEVEL_TOO_LOW';
  const trigger = params.triggerPrice;
  const waits = trigger !== null && trigger !== sym.bid;
  if (martingale !== null && !waits) {
    const side = sideOf(martingale);
    const price = side === 'buy' ? sym.ask : sym.bid;
    const costs = openingCosts(st, account, sym, side, martingale.firstVolume, price);
    if (typeof costs === 'string') return costs;
    const marginError = marginAllows(st, account, costs);
    if (marginError) return marginError;
  }
  const bot: Strategy = {
    id: c.strategyId,
    account,
    sym,
    kind: c.kind,
    grid,
    martingale,
    state: 'waiting',
    stopReason: null,
    createdAt: st.now,
    updatedAt: st.now,
    startedAt: null,
    triggerAbove: waits ? trigger > sym.bid : null,
    // the money in the account now (it holds nothing): the investment, moved by later transfers
    investmentBase: account.balance - allocationOf(account),
    realizedProfit: 0,
    fees: 0,
    closedTrades: 0,
    gridRun: grid === null ? null : { levels: gridLevels(grid, sym.terms)!, cells: [], trails: 0 },
    martingaleRun: martingale === null ? null : emptyRound(0),
    low: Number.NEGATIVE_INFINITY,
    high: Number.POSITIVE_INFINITY,
    lastRefusal: null,
  };
  attachBot(st, bot);
  logBot(st, bot, 'started', { reason: c.kind, price: trigger });
  if (waits) logBot(st, bot, 'waiting', { price: trigger, reason: bot.triggerAbove ? 'above' : 'below' });
  else run(st, bot);
  touch(st, bot);
  return null;
}

/** From waiting to running: the grid arms its cells, the martingale opens its first round. */
function run(st: EngineState, bot: Strategy): void {
  bot.state = 'running';
  bot.startedAt = st.now;
  bot.triggerAbove = null;
  syncCopyThresholds(st, bot.account);
  if (bot.kind === 'grid') startGrid(st, bot);
  else startRound(st, bot);
  touch(st, bot);
}

/**
 * The trader stops a bot (see `TStopStrategyCommand`). Closing needs what a trader's close needs: the
 * account allowed to close, every position's market open and priced.
 */
export function stopStrategy(st: EngineState, account: Account, c: TStopStrategyCommand): TOutcome<null> {
  const bot = st.strategies.get(c.strategyId);
  if (bot === undefined || bot.account !== account || bot.state === 'stopped_closed')
    return 'STRATEGY_NOT_FOUND';
  const positions = botPositions(bot);
  if (bot.state === 'stopped_open' && !c.closePositions) return 'STRATEGY_STOPPED';
  if (c.closePositions && positions.length > 0) {
    if (account.restrictions.noClose) return 'ACCOUNT_RESTRICTED';
    for (const p of positions) {
      const error = validateClosing(p.sym.terms, st.now);
      if (error) return error;
      if (!p.sym.hasQuote || p.bucket.converter.rates === undefined) return 'NO_PRICE';
    }
  }
  stopBot(st, bot, c.by ?? 'client', c.closePositions);
  return null;
}

/** Indexes a bot: the engine's map, its account, its symbol's watch list, its equity thresholds. */
export function attachBot(st: EngineState, bot: Strategy): void {
  st.strategies.set(bot.id, bot);
  bot.account.bot = bot;
  if (bot.state === 'waiting' || bot.state === 'running') watch(bot);
  syncCopyThresholds(st, bot.account);
  band(bot);
}

/** The band of bid inside which the bot has nothing to do (see the file comment). */
export function band(bot: Strategy): void {
  if (bot.state === 'waiting') {
    const trigger = (bot.grid ?? bot.martingale)!.triggerPrice!;
    bot.low = bot.triggerAbove ? Number.NEGATIVE_INFINITY : trigger;
    bot.high = bot.triggerAbove ? trigger : Number.POSITIVE_INFINITY;
  } else if (bot.state !== 'running') {
    bot.low = Number.NEGATIVE_INFINITY;
    bot.high = Number.POSITIVE_INFINITY;
  } else if (bot.kind === 'grid') gridBand(bot);
  else martingaleBand(bot);
}

// ---------------------------------------------------------------- each step

/**
 * Walks the step's events from `from` on (including those the bots add as they go) and lets the bots
 * react; returns where it stopped. Events of accounts without a bot cost a map lookup.
 */
export function strategyEvents(st: EngineState, from: number): number {
  const out = st.out;
  if (out === null) return from;
  // positions closed in this step: their closing commission and swap are still theirs
  let closedBy: Map<number, Strategy> | null = null;
  let i = from;
  for (; i < out.length; i++) {
    const event = out[i]!;
    switch (event.type) {
      case 'order_filled': {
        const bot = st.accounts.get(event.accountId)?.bot;
        if (bot == null || bot.state === 'stopped_closed') break;
        onFilled(st, bot, event.orderId, event.price);
        break;
      }
      case 'order_cancelled': {
        if (event.reason === 'strategy') break;
        const bot = st.accounts.get(event.accountId)?.bot;
        if (bot == null) break;
        onCancelled(st, bot, event.orderId, event.reason);
        break;
      }
      case 'position_closed': {
        if (event.strategyId === null) break;
        const bot = st.strategies.get(event.strategyId);
        if (bot === undefined) break;
        if (event.remainingVolume === 0) {
          closedBy ??= new Map();
          closedBy.set(event.positionId, bot);
        }
        onClosed(st, bot, event);
        break;
      }
      case 'ledger': {
        if (event.positionId === null || (event.kind !== 'commission' && event.kind !== 'swap')) break;
        const position = st.positions.get(event.positionId);
        const bot =
          position !== undefined
            ? position.strategyId === null
              ? undefined
              : st.strategies.get(position.strategyId)
            : closedBy?.get(event.positionId);
        if (bot === undefined) break;
        bot.fees += event.postings[0]!.amount;
        touch(st, bot);
        break;
      }
      case 'stop_out': {
        const bot = st.accounts.get(event.accountId)?.bot;
        if (bot != null && (bot.state === 'running' || bot.state === 'waiting'))
          stopBot(st, bot, 'stop_out', true);
        break;
      }
      case 'account_closed': {
        const bot = st.accounts.get(event.accountId)?.bot;
        if (bot != null && bot.state !== 'stopped_closed') stopBot(st, bot, 'account_closed', true);
        break;
      }
      default:
        break;
    }
  }
  return i;
}

function onFilled(st: EngineState, bot: Strategy, ticket: number, price: number): void {
  if (bot.kind === 'grid') {
    const at = cellOf(bot, ticket);
    if (at >= 0) gridFilled(st, bot, at, price);
  } else if (bot.martingaleRun!.addOrder === ticket) {
    const position = st.positions.get(ticket);
    if (position !== undefined && bot.state === 'running') martingaleFilled(st, bot, position);
  }
}

function onCancelled(st: EngineState, bot: Strategy, ticket: number, reason: string): void {
  if (bot.kind === 'grid') {
    const at = cellOf(bot, ticket);
    if (at < 0) return;
    logBot(st, bot, 'order_cancelled', { reason, level: at, ticket });
    gridEmptied(st, bot, at);
  } else if (bot.martingaleRun!.addOrder === ticket) martingaleAddCancelled(st, bot, reason);
}

function onClosed(
  st: EngineState,
  bot: Strategy,
  e: Extract<TEngineEvent, { type: 'position_closed' }>,
): void {
  bot.realizedProfit += e.profit;
  touch(st, bot);
  if (e.remainingVolume > 0) return;
  bot.closedTrades++;
  const at = bot.kind === 'grid' ? cellOf(bot, e.positionId) : -1;
  logBot(st, bot, 'position_closed', {
    reason: String(e.reason),
    level: at >= 0 ? at : null,
    price: e.closePrice,
    volume: e.volume,
    ticket: e.positionId,
    profit: e.profit,
  });
  if (bot.kind === 'grid') {
    if (at >= 0) gridEmptied(st, bot, at);
  } else martingaleClosed(st, bot, e.positionId, e.reason === CloseReason.TAKE_PROFIT_OR_STOP_LOSS);
  // a bot stopped with positions open is stopped and closed once the last one is gone
  if (bot.state === 'stopped_open' && botPositions(bot).length === 0) {
    bot.state = 'stopped_closed';
    touch(st, bot);
  }
}

/**
 * A tick of a symbol state with bots: a disabled (or close-only) symbol stops them all (reason 5);
 * otherwise each bot whose band the bid left acts, in strategy id order.
 */
export function strategyPrices(st: EngineState, bots: readonly Strategy[]): void {
  const sym = bots[0]!.sym;
  if (!sym.terms.enabled || sym.terms.closeOnly) {
    for (const bot of [...bots]) stopBot(st, bot, 'symbol_disabled', true);
    return;
  }
  const bid = sym.bid;
  let due: Strategy[] | null = null;
  for (let i = 0; i < bots.length; i++) {
    const bot = bots[i]!;
    if (bid > bot.low && bid < bot.high) continue;
    due ??= [];
    due.push(bot);
  }
  if (due === null) return;
  for (const bot of due) {
    if (bot.state === 'waiting') {
      logBot(st, bot, 'triggered', { price: bid });
      run(st, bot);
    } else if (bot.state === 'running') {
      if (bot.kind === 'grid') gridPrices(st, bot);
      else martingalePrices(st, bot);
    }
    touch(st, bot);
  }
}

/** Recomputes the bands of the bots changed so far (a bot's change can move its band). */
export function strategyBands(st: EngineState): void {
  for (const bot of st.changedStrategies) band(bot);
}

/**
 * A running grid's account reached the take-profit or stop-loss of its investment (the risk book's
 * equity thresholds, checked with the margin): the bot stops, closing everything (reason 5).
 */
export function stopBotOnThreshold(st: EngineState, account: Account): void {
  const bot = account.bot;
  if (bot === null || bot.state !== 'running') return;
  const below = riskEquity(st, account) < st.risk.copyStopEquity[account.slot]!;
  stopBot(st, bot, below ? 'stop_loss' : 'take_profit', true);
}

/**
 * The end of a step: each changed bot reports `strategy_changed` once, in id order; a bot stopped
 * and closed leaves the engine (its row keeps its history).
 */
export function flushStrategies(st: EngineState): void {
  if (st.changedStrategies.size === 0) return;
  const changed = [...st.changedStrategies].sort((a, b) => a.id - b.id);
  st.changedStrategies.clear();
  for (const bot of changed) {
    band(bot);
    emit(st, {
      type: 'strategy_changed',
      accountId: bot.account.id,
      strategy: strategyView(bot),
      time: st.now,
    });
    if (bot.state === 'stopped_closed' && st.strategies.get(bot.id) === bot) {
      st.strategies.delete(bot.id);
      if (bot.account.bot === bot) bot.account.bot = null;
      unwatch(bot);
      syncCopyThresholds(st, bot.account);
    }
  }
}

// ---------------------------------------------------------------- reads and restore

/** A bot as reported to the trader: as stored, plus what moves with the price. */
export interface TStrategyReport {
  strategy: TStrategyView;
  /** Floating profit of its open positions. */
  unrealizedProfit: number;
  openPositions: number;
  openOrders: number;
}

export function strategyReport(bot: Strategy): TStrategyReport {
  const positions = botPositions(bot);
  return {
    strategy: strategyView(bot),
    unrealizedProfit: positions.reduce((sum, p) => sum + profitOf(p), 0),
    openPositions: positions.length,
    openOrders: botOrders(bot).length,
  };
}

/** Rebuilds a bot from its stored view (before the positions and orders that carry its id). */
export function restoreBot(st: EngineState, view: TStrategyView): void {
  const account = st.accounts.get(view.accountId);
  const params = view.params as TGridParams | TMartingaleParams;
  const sym = account === undefined ? undefined : stateFor(st, account, params.symbol);
  if (account === undefined || sym === undefined) throw new Error(`orphan strategy ${view.strategyId}`);
  attachBot(st, {
    id: view.strategyId,
    account,
    sym,
    kind: view.kind,
    grid: view.kind === 'grid' ? { ...view.params } : null,
    martingale: view.kind === 'martingale' ? { ...view.params } : null,
    state: view.state,
    stopReason: view.stopReason,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
    startedAt: view.startedAt,
    triggerAbove: view.triggerAbove,
    investmentBase: view.investmentBase,
    realizedProfit: view.realizedProfit,
    fees: view.fees,
    closedTrades: view.closedTrades,
    gridRun: view.grid === null ? null : copyGrid(view.grid),
    martingaleRun:
      view.martingale === null ? null : { ...view.martingale, positions: view.martingale.positions.slice() },
    low: Number.NEGATIVE_INFINITY,
    high: Number.POSITIVE_INFINITY,
    lastRefusal: view.lastRefusal ?? null,
  });
}
