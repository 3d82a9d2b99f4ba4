/**
 * What grid and martingale bots share: their log, their change reports, the orders and positions they
 * make (through the same checks as a trader's, with their strategy id on them), and stopping.
 */
import type { TTradingErrorCode } from '../../errors';
import {
  CloseReason,
  minDistance,
  type TPendingType,
  type TSide,
  validateOpening,
  validatePendingPrice,
} from '../../orders';
import { marginAllows, openingCosts } from '../order-entry';
import {
  addOrderTrigger,
  addPositionTriggers,
  closePosition,
  openPosition,
  removeOrder,
  removePositionTriggers,
} from '../positions';
import { type EngineState, emit, type Order, type Position, type Strategy } from '../state';

export { isWorking } from './guards';

import { orderView, syncCopyThresholds } from '../views';
import type { TGridCell, TGridRuntime, TStrategyAction, TStrategyStopReason, TStrategyView } from './types';

export function strategyView(bot: Strategy): TStrategyView {
  const common = {
    strategyId: bot.id,
    accountId: bot.account.id,
    state: bot.state,
    stopReason: bot.stopReason,
    createdAt: bot.createdAt,
    updatedAt: bot.updatedAt,
    startedAt: bot.startedAt,
    triggerAbove: bot.triggerAbove,
    investmentBase: bot.investmentBase,
    realizedProfit: bot.realizedProfit,
    fees: bot.fees,
    closedTrades: bot.closedTrades,
    lastRefusal: bot.lastRefusal,
    grid: bot.gridRun === null ? null : copyGrid(bot.gridRun),
    martingale:
      bot.martingaleRun === null
        ? null
        : { ...bot.martingaleRun, positions: bot.martingaleRun.positions.slice() },
  };
  return bot.kind === 'grid'
    ? { kind: 'grid', params: { ...bot.grid! }, ...common }
    : { kind: 'martingale', params: { ...bot.martingale! }, ...common };
}

/** A copy of a grid's runtime (plain objects: cheaper than structuredClone on the tick path). */
export function copyGrid(run: TGridRuntime): TGridRuntime {
  const cells: TGridCell[] = new Array(run.cells.length);
  for (let i = 0; i < cells.length; i++) {
    const c = run.cells[i]!;
    cells[i] = { side: c.side, entry: c.entry, exit: c.exit, ticket: c.ticket, holding: c.holding };
  }
  return { levels: run.levels.slice(), cells, trails: run.trails };
}

/** The bot changed: it reports `strategy_changed` once at the end of the step. */
export function touch(st: EngineState, bot: Strategy): void {
  bot.updatedAt = st.now;
  st.changedStrategies.add(bot);
}

export function logBot(
  st: EngineState,
  bot: Strategy,
  action: TStrategyAction,
  fields: {
    reason?: string | null;
    level?: number | null;
    price?: number | null;
    volume?: number | null;
    ticket?: number | null;
    profit?: number | null;
  } = {},
): void {
  emit(st, {
    type: 'strategy_log',
    accountId: bot.account.id,
    strategyId: bot.id,
    action,
    reason: fields.reason ?? null,
    level: fields.level ?? null,
    price: fields.price ?? null,
    volume: fields.volume ?? null,
    ticket: fields.ticket ?? null,
    profit: fields.profit ?? null,
    time: st.now,
  });
}

/** A refusal to place or open, logged once until a different one (or a success) comes. */
export function refused(st: EngineState, bot: Strategy, error: string, level: number | null): void {
  if (bot.lastRefusal === error) return;
  bot.lastRefusal = error;
  logBot(st, bot, 'order_refused', { reason: error, level });
  touch(st, bot);
}

/** The bot's positions, in ticket order. */
export function botPositions(bot: Strategy): Position[] {
  return bot.account.positions.filter((p) => p.strategyId === bot.id).sort((a, b) => a.ticket - b.ticket);
}

export function botOrders(bot: Strategy): Order[] {
  return [...bot.account.orders].filter((o) => o.strategyId === bot.id).sort((a, b) => a.ticket - b.ticket);
}

/** Whether the account and symbol let the bot open on this side now (the trader's checks). */
export function openingAllowed(st: EngineState, bot: Strategy, side: TSide): TTradingErrorCode | null {
  if (bot.account.restrictions.noOpen) return 'ACCOUNT_RESTRICTED';
  const error = validateOpening(bot.sym.terms, side, st.now);
  if (error) return error;
  if (!bot.sym.hasQuote) return 'NO_PRICE';
  return null;
}

/**
 * Places a bot's limit order with its strategy id, checked like a trader's (restrictions, symbol,
 * session, margin-call flag, price against the quote); the ticket, or why not.
 */
export function placeBotOrder(
  st: EngineState,
  bot: Strategy,
  type: TPendingType,
  volume: number,
  price: number,
  takeProfit: number | null,
): number | TTradingErrorCode {
  const side: TSide = type.startsWith('buy') ? 'buy' : 'sell';
  const error =
    openingAllowed(st, bot, side) ??
    (st.risk.inCall[bot.account.slot] === 1 ? 'MARGIN_LEVEL_TOO_LOW' : null) ??
    validatePendingPrice({
      type,
      price,
      limitPrice: null,
      bid: bot.sym.bid,
      ask: bot.sym.ask,
      distance: minDistance(bot.sym.terms),
    });
  if (error) return error;
  const order: Order = {
    ticket: st.nextTicket++,
    account: bot.account,
    sym: bot.sym,
    type,
    volume,
    price,
    limitPrice: null,
    activated: false,
    takeProfit,
    stopLoss: null,
    time: st.now,
    strategyId: bot.id,
  };
  st.orders.set(order.ticket, order);
  bot.account.orders.add(order);
  addOrderTrigger(order);
  emit(st, { type: 'order_placed', order: orderView(order), time: st.now });
  bot.lastRefusal = null;
  return order.ticket;
}

/** Opens a bot's position at the market (checked like a trader's market order); the ticket, or why not. */
export function openBotMarket(
  st: EngineState,
  bot: Strategy,
  side: TSide,
  volume: number,
): { ticket: number; price: number } | TTradingErrorCode {
  const error = openingAllowed(st, bot, side);
  if (error) return error;
  const sym = bot.sym;
  const price = side === 'buy' ? sym.ask : sym.bid;
  const costs = openingCosts(st, bot.account, sym, side, volume, price);
  if (typeof costs === 'string') return costs;
  const marginError = marginAllows(st, bot.account, costs);
  if (marginError) return marginError;
  const ticket = st.nextTicket++;
  openPosition(st, bot.account, sym, ticket, side, volume, price, null, null, costs, null, null, bot.id);
  bot.lastRefusal = null;
  return { ticket, price };
}

/** Moves a bot position's take-profit (the engine's own change: no trader restriction applies). */
export function setTakeProfit(st: EngineState, position: Position, takeProfit: number): void {
  if (position.takeProfit === takeProfit) return;
  removePositionTriggers(position);
  position.takeProfit = takeProfit;
  addPositionTriggers(position);
  emit(st, {
    type: 'position_modified',
    positionId: position.ticket,
    accountId: position.account.id,
    takeProfit,
    stopLoss: position.stopLoss,
    trailingStop: position.trailing > 0 ? position.trailing : null,
    time: st.now,
  });
}

/** Takes a bot off its symbol's list (it no longer watches the price). */
export function unwatch(bot: Strategy): void {
  const list = bot.sym.bots;
  if (list === null) return;
  const at = list.indexOf(bot);
  if (at >= 0) list.splice(at, 1);
  if (list.length === 0) bot.sym.bots = null;
}

/** Puts a bot on its symbol's list, in strategy id order. */
export function watch(bot: Strategy): void {
  const list = bot.sym.bots ?? [];
  if (list.includes(bot)) return;
  let at = list.length;
  while (at > 0 && list[at - 1]!.id > bot.id) at--;
  list.splice(at, 0, bot);
  bot.sym.bots = list;
}

/**
 * Stops a bot: its orders are cancelled; its positions are closed at the current quote (close reason 6
 * when the trader stopped it, 5 when it stopped itself) or kept ("stopped with position open"). A
 * position that cannot be priced yet (just after a restart) is kept. Engine closes, like a stop-out:
 * they ignore sessions and the no-close restriction (the checks of a trader's stop come before).
 */
export function stopBot(st: EngineState, bot: Strategy, reason: TStrategyStopReason, close: boolean): void {
  for (const order of botOrders(bot)) removeOrder(st, order, 'strategy');
  if (bot.gridRun !== null)
    for (const cell of bot.gridRun.cells)
      if (cell.holding === 'order') {
        cell.holding = null;
        cell.ticket = null;
      }
  if (bot.martingaleRun !== null) bot.martingaleRun.addOrder = null;
  const closeReason =
    reason === 'client' || reason === 'broker'
      ? CloseReason.STRATEGY_STOPPED_ACTIVELY
      : CloseReason.STRATEGY_STOPPED_AUTOMATICALLY;
  if (close)
    for (const p of botPositions(bot))
      if (p.sym.hasQuote && p.bucket.converter.rates !== undefined)
        closePosition(st, p, p.volume, closeReason);
  unwatch(bot);
  bot.stopReason = reason;
  bot.state = botPositions(bot).length > 0 ? 'stopped_open' : 'stopped_closed';
  bot.low = Number.NEGATIVE_INFINITY;
  bot.high = Number.POSITIVE_INFINITY;
  syncCopyThresholds(st, bot.account);
  logBot(st, bot, 'stopped', { reason });
  touch(st, bot);
}
