/**
 * The martingale (DCA) bot. A round opens `firstVolume` at the market; add k (1 to `maxAdds`) waits as
 * a limit order k steps of `stepBp` of the round's first price against it, for `firstVolume` x
 * (multiplier)^k rounded down onto the symbol's steps. Every position of the round carries the round's
 * take-profit, `takeProfitBp` from the round's average price (moved at each add), so the whole round
 * closes on one quote (close reason 3). Then a new round starts at once (cycle "repeat") or the bot
 * stops ("stop"). Its stop-loss, `stopLossBp` from the round's first price, stops the bot (reason 5).
 * It never adds beyond `maxAdds`.
 */
import type { TTradingErrorCode } from '../../errors';
import { mulDiv } from '../../money';
import { minDistance, type TSide, validateOpening, validateVolume } from '../../orders';
import { removeOrder } from '../positions';
import type { Account, EngineState, Position, Strategy, SymbolState } from '../state';
import { logBot, openBotMarket, placeBotOrder, refused, setTakeProfit, stopBot, touch } from './core';
import {
  MAX_MARTINGALE_ADDS,
  MAX_MULTIPLIER_BP,
  MIN_MULTIPLIER_BP,
  type TMartingaleParams,
  type TMartingaleParamsInput,
  type TMartingaleRuntime,
} from './types';

const isCount = (v: number, min: number, max: number) => Number.isSafeInteger(v) && v >= min && v <= max;

export function martingaleParams(input: TMartingaleParamsInput): TMartingaleParams | null {
  const p: TMartingaleParams = {
    symbol: input.symbol,
    direction: input.direction,
    firstVolume: input.firstVolume,
    stepBp: input.stepBp,
    multiplierBp: input.multiplierBp,
    maxAdds: input.maxAdds,
    takeProfitBp: input.takeProfitBp,
    stopLossBp: input.stopLossBp ?? null,
    cycle: input.cycle ?? 'repeat',
    triggerPrice: input.triggerPrice ?? null,
  };
  if (typeof p.symbol !== 'string' || !['long', 'short'].includes(p.direction)) return null;
  if (!['repeat', 'stop'].includes(p.cycle)) return null;
  if (!isCount(p.stepBp, 1, 5_000) || !isCount(p.maxAdds, 0, MAX_MARTINGALE_ADDS)) return null;
  if (!isCount(p.multiplierBp, MIN_MULTIPLIER_BP, MAX_MULTIPLIER_BP)) return null;
  if (!isCount(p.takeProfitBp, 1, 10_000)) return null;
  if (p.triggerPrice !== null && !isCount(p.triggerPrice, 1, Number.MAX_SAFE_INTEGER)) return null;
  // every add lies above zero, and the stop-loss beyond the last add (else it would never add them all)
  if (p.direction === 'long' && p.maxAdds * p.stepBp >= 10_000) return null;
  if (p.stopLossBp !== null && !isCount(p.stopLossBp, p.maxAdds * p.stepBp + 1, 10_000)) return null;
  return p;
}

function onSteps(volume: number, minVolume: number, volumeStep: number): number {
  if (volume < minVolume) return 0;
  return minVolume + Math.floor((volume - minVolume) / volumeStep) * volumeStep;
}

/** Add k's volume: firstVolume x (multiplier / 10,000)^k, rounded down onto the symbol's steps. */
export function addVolume(p: TMartingaleParams, k: number, minVolume: number, volumeStep: number): number {
  const exact = (BigInt(p.firstVolume) * BigInt(p.multiplierBp) ** BigInt(k)) / 10_000n ** BigInt(k);
  const capped = exact > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(exact);
  return onSteps(capped, minVolume, volumeStep);
}

/** Add k's price: k steps of the round's first price against the position. */
export function addPrice(p: TMartingaleParams, firstPrice: number, k: number): number {
  return p.direction === 'long'
    ? mulDiv(firstPrice, 10_000 - k * p.stepBp, 10_000, 'floor')
    : mulDiv(firstPrice, 10_000 + k * p.stepBp, 10_000, 'ceil');
}

export function validateMartingale(
  st: EngineState,
  account: Account,
  sym: SymbolState,
  p: TMartingaleParams,
): TTradingErrorCode | null {
  const terms = sym.terms;
  if (account.restrictions.noOpen) return 'ACCOUNT_RESTRICTED';
  const error = validateOpening(terms, sideOf(p), st.now);
  if (error) return error;
  const volumeError = validateVolume(terms, p.firstVolume);
  if (volumeError) return volumeError;
  for (let k = 1; k <= p.maxAdds; k++)
    if (validateVolume(terms, addVolume(p, k, terms.minVolume, terms.volumeStep)) !== null)
      return 'STRATEGY_INVALID';
  if (!sym.hasQuote) return 'NO_PRICE';
  // a step must be a valid distance for a limit order at today's price
  if (p.maxAdds > 0 && mulDiv(sym.bid, p.stepBp, 10_000, 'floor') < minDistance(terms))
    return 'STRATEGY_INVALID';
  return null;
}

export function sideOf(p: TMartingaleParams): TSide {
  return p.direction === 'long' ? 'buy' : 'sell';
}

export function emptyRound(rounds: number): TMartingaleRuntime {
  return {
    rounds,
    firstPrice: null,
    adds: 0,
    positions: [],
    volume: 0,
    cost: 0,
    takeProfit: null,
    addOrder: null,
    addsHalted: false,
  };
}

/** Opens a round's first order at the market; the refusal when it could not. */
export function startRound(st: EngineState, bot: Strategy): TTradingErrorCode | null {
  const p = bot.martingale!;
  const opened = openBotMarket(st, bot, sideOf(p), p.firstVolume);
  if (typeof opened === 'string') {
    refused(st, bot, opened, 0);
    return opened;
  }
  const run = bot.martingaleRun!;
  run.firstPrice = opened.price;
  logBot(st, bot, 'round_started', {
    level: 0,
    price: opened.price,
    volume: p.firstVolume,
    ticket: opened.ticket,
    reason: String(run.rounds + 1),
  });
  added(st, bot, opened.ticket, p.firstVolume, opened.price);
  return null;
}

/** A position joined the round (its first order, or an add): the take-profit moves, the next add waits. */
function added(st: EngineState, bot: Strategy, ticket: number, volume: number, price: number): void {
  const p = bot.martingale!;
  const run = bot.martingaleRun!;
  run.positions.push(ticket);
  run.volume += volume;
  run.cost += volume * price;
  const sym = bot.sym;
  const distance = minDistance(sym.terms);
  // from the average price, and never closer to the quote than a trader's take-profit may be
  const target =
    p.direction === 'long'
      ? Math.max(mulDiv(run.cost, 10_000 + p.takeProfitBp, run.volume * 10_000, 'ceil'), sym.bid + distance)
      : Math.min(mulDiv(run.cost, 10_000 - p.takeProfitBp, run.volume * 10_000, 'floor'), sym.ask - distance);
  run.takeProfit = Math.max(1, target);
  for (const t of run.positions) {
    const position = st.positions.get(t);
    if (position !== undefined) setTakeProfit(st, position, run.takeProfit);
  }
  if (run.positions.length > 1)
    logBot(st, bot, 'take_profit_moved', { price: run.takeProfit, level: run.adds });
  touch(st, bot);
  nextAdd(st, bot);
}

/**
 * Places the next add as a limit order; an add whose price the market has already passed (a gap) is
 * opened at the market at once. Never beyond `maxAdds`.
 */
function nextAdd(st: EngineState, bot: Strategy): void {
  const p = bot.martingale!;
  const run = bot.martingaleRun!;
  if (run.addOrder !== null || run.addsHalted || run.adds >= p.maxAdds || run.firstPrice === null) return;
  const k = run.adds + 1;
  const terms = bot.sym.terms;
  const volume = addVolume(p, k, terms.minVolume, terms.volumeStep);
  const price = addPrice(p, run.firstPrice, k);
  const distance = minDistance(terms);
  const passed = p.direction === 'long' ? bot.sym.ask - price < distance : price - bot.sym.bid < distance;
  if (passed) {
    const opened = openBotMarket(st, bot, sideOf(p), volume);
    if (typeof opened === 'string') {
      refused(st, bot, opened, k);
      run.addsHalted = true;
      touch(st, bot);
      return;
    }
    run.adds = k;
    logBot(st, bot, 'added', {
      level: k,
      price: opened.price,
      volume,
      ticket: opened.ticket,
      reason: 'market',
    });
    added(st, bot, opened.ticket, volume, opened.price);
    return;
  }
  const ticket = placeBotOrder(
    st,
    bot,
    p.direction === 'long' ? 'buy_limit' : 'sell_limit',
    volume,
    price,
    null,
  );
  if (typeof ticket === 'string') {
    refused(st, bot, ticket, k);
    run.addsHalted = true;
    touch(st, bot);
    return;
  }
  run.addOrder = ticket;
  logBot(st, bot, 'add_placed', { level: k, price, volume, ticket });
  touch(st, bot);
}

/** The add's order filled. */
export function martingaleFilled(st: EngineState, bot: Strategy, position: Position): void {
  const run = bot.martingaleRun!;
  run.addOrder = null;
  run.adds++;
  logBot(st, bot, 'added', {
    level: run.adds,
    price: position.openPrice,
    volume: position.volume,
    ticket: position.ticket,
  });
  added(st, bot, position.ticket, position.volume, position.openPrice);
}

/** The add's order was cancelled at its fill (margin, restrictions): no more adds this round. */
export function martingaleAddCancelled(st: EngineState, bot: Strategy, reason: string): void {
  const run = bot.martingaleRun!;
  run.addOrder = null;
  run.addsHalted = true;
  logBot(st, bot, 'order_cancelled', { reason, level: run.adds + 1 });
  touch(st, bot);
}

/**
 * A round's position closed. When it was the last one: a round ended by its take-profit counts, and
 * the next starts at once (cycle "repeat") or the bot stops (cycle "stop").
 */
export function martingaleClosed(st: EngineState, bot: Strategy, ticket: number, takeProfit: boolean): void {
  const run = bot.martingaleRun!;
  const at = run.positions.indexOf(ticket);
  if (at < 0) return;
  run.positions.splice(at, 1);
  touch(st, bot);
  if (run.positions.length > 0 || bot.state !== 'running') return;
  if (run.addOrder !== null) {
    const order = st.orders.get(run.addOrder);
    if (order !== undefined) removeOrder(st, order, 'strategy');
  }
  const rounds = run.rounds + (takeProfit ? 1 : 0);
  if (takeProfit) logBot(st, bot, 'round_closed', { reason: String(rounds), price: run.takeProfit });
  bot.martingaleRun = emptyRound(rounds);
  if (takeProfit && bot.martingale!.cycle === 'stop') {
    stopBot(st, bot, 'cycle_done', false);
    return;
  }
  startRound(st, bot);
}

/**
 * The band of bid inside which a running martingale has nothing to do: its stop-loss. Between rounds
 * (a first order that could not be placed) every tick tries again.
 */
export function martingaleBand(bot: Strategy): void {
  const p = bot.martingale!;
  const run = bot.martingaleRun!;
  bot.low = Number.NEGATIVE_INFINITY;
  bot.high = Number.POSITIVE_INFINITY;
  if (run.firstPrice === null) {
    bot.low = Number.POSITIVE_INFINITY;
    return;
  }
  if (p.stopLossBp === null) return;
  if (p.direction === 'long') bot.low = mulDiv(run.firstPrice, 10_000 - p.stopLossBp, 10_000, 'floor');
  else bot.high = mulDiv(run.firstPrice, 10_000 + p.stopLossBp, 10_000, 'ceil');
}

/** The price left the band: the stop-loss was reached, or a round waits to start. */
export function martingalePrices(st: EngineState, bot: Strategy): void {
  const run = bot.martingaleRun!;
  if (run.firstPrice === null) {
    startRound(st, bot);
    return;
  }
  const bid = bot.sym.bid;
  if (bid <= bot.low || bid >= bot.high) stopBot(st, bot, 'stop_loss', true);
}
