/**
 * The grid bot. Its range [lower, upper] is cut into `grids` cells by grids + 1 levels (equal steps in
 * points, or equal ratios). A long cell buys at its lower level with a take-profit at its upper one; a
 * short cell sells at its upper level with a take-profit at its lower one; a neutral grid's cells below
 * the price at the start are long, the others short. Each cell holds at most one thing: its pending
 * order, or the position that order became. When the position takes its profit the cell is empty and
 * is re-armed as soon as the price allows a limit order at its level again (a long cell: bid at least
 * the stops distance above its entry). Levels and cells are kept (and persisted), never recomputed.
 */
import type { TTradingErrorCode } from '../../errors';
import type { TInstrumentTerms } from '../../instrument-terms';
import { mulDiv } from '../../money';
import { minDistance, validateOpening, validateVolume } from '../../orders';
import { removeOrder } from '../positions';
import type { Account, EngineState, Strategy, SymbolState } from '../state';
import { logBot, placeBotOrder, refused, stopBot, touch } from './core';
import { MAX_GRIDS, MIN_GRIDS, type TGridCell, type TGridParams, type TGridParamsInput } from './types';

const isPrice = (v: number) => Number.isSafeInteger(v) && v > 0;
const isBp = (v: number, max: number) => Number.isSafeInteger(v) && v > 0 && v <= max;

/** The command's parameters with their defaults, or null when one is malformed. */
export function gridParams(input: TGridParamsInput): TGridParams | null {
  const p: TGridParams = {
    symbol: input.symbol,
    direction: input.direction,
    lowerPrice: input.lowerPrice,
    upperPrice: input.upperPrice,
    grids: input.grids,
    spacing: input.spacing,
    volumePerGrid: input.volumePerGrid,
    triggerPrice: input.triggerPrice ?? null,
    takeProfitPrice: input.takeProfitPrice ?? null,
    stopLossPrice: input.stopLossPrice ?? null,
    takeProfitBp: input.takeProfitBp ?? null,
    stopLossBp: input.stopLossBp ?? null,
    trailingUp: input.trailingUp ?? false,
    outOfRange: input.outOfRange ?? 'keep',
  };
  if (typeof p.symbol !== 'string') return null;
  if (!['long', 'short', 'neutral'].includes(p.direction)) return null;
  if (!['arithmetic', 'geometric'].includes(p.spacing)) return null;
  if (!['keep', 'stop'].includes(p.outOfRange) || typeof p.trailingUp !== 'boolean') return null;
  if (!isPrice(p.lowerPrice) || !isPrice(p.upperPrice) || p.upperPrice <= p.lowerPrice) return null;
  if (!Number.isSafeInteger(p.grids) || p.grids < MIN_GRIDS || p.grids > MAX_GRIDS) return null;
  for (const price of [p.triggerPrice, p.takeProfitPrice, p.stopLossPrice])
    if (price !== null && !isPrice(price)) return null;
  if (p.takeProfitBp !== null && !isBp(p.takeProfitBp, 1_000_000)) return null;
  if (p.stopLossBp !== null && !isBp(p.stopLossBp, 10_000)) return null;
  // the range follows the price up: a long grid's
  if (p.trailingUp && p.direction !== 'long') return null;
  return p;
}

/**
 * The levels: arithmetic lower + floor(i x (upper - lower) / grids); geometric
 * round(lower x (upper / lower)^(i / grids)), computed once at the start and kept, so that a restart or
 * another machine never recomputes them differently. Null when two levels are closer than the
 * symbol's stops distance (a take-profit one level away must be a valid one).
 */
export function gridLevels(p: TGridParams, terms: TInstrumentTerms): number[] | null {
  const levels: number[] = [];
  for (let i = 0; i <= p.grids; i++) {
    if (i === 0) levels.push(p.lowerPrice);
    else if (i === p.grids) levels.push(p.upperPrice);
    else if (p.spacing === 'arithmetic')
      levels.push(p.lowerPrice + mulDiv(p.upperPrice - p.lowerPrice, i, p.grids, 'floor'));
    else levels.push(Math.round(p.lowerPrice * (p.upperPrice / p.lowerPrice) ** (i / p.grids)));
  }
  const distance = minDistance(terms);
  for (let i = 1; i < levels.length; i++) if (levels[i]! - levels[i - 1]! < distance) return null;
  return levels;
}

/** The checks of a grid's start: parameters against the symbol, the account and the quote. */
export function validateGrid(
  st: EngineState,
  account: Account,
  sym: SymbolState,
  p: TGridParams,
): TTradingErrorCode | null {
  const terms = sym.terms;
  if (account.restrictions.noOpen) return 'ACCOUNT_RESTRICTED';
  for (const side of p.direction === 'long'
    ? ['buy']
    : p.direction === 'short'
      ? ['sell']
      : ['buy', 'sell']) {
    const error = validateOpening(terms, side as 'buy' | 'sell', st.now);
    if (error) return error;
  }
  const volumeError = validateVolume(terms, p.volumePerGrid);
  if (volumeError) return volumeError;
  if (gridLevels(p, terms) === null) return 'STRATEGY_INVALID';
  if (!sym.hasQuote) return 'NO_PRICE';
  // take-profit and stop-loss prices on their sides of the price now (a short's the other way round)
  const bid = sym.bid;
  const up = p.direction !== 'short';
  if (p.takeProfitPrice !== null && (up ? p.takeProfitPrice <= bid : p.takeProfitPrice >= bid))
    return 'STRATEGY_INVALID';
  if (p.stopLossPrice !== null && (up ? p.stopLossPrice >= bid : p.stopLossPrice <= bid))
    return 'STRATEGY_INVALID';
  return null;
}

/**
 * From waiting to running (at the start, or when the trigger is crossed): the cells take their sides
 * from the bid now (neutral: long below it, short above), then every cell the price allows is armed.
 */
export function startGrid(st: EngineState, bot: Strategy): void {
  const p = bot.grid!;
  const run = bot.gridRun!;
  const bid = bot.sym.bid;
  const levels = run.levels;
  run.cells = [];
  for (let i = 0; i + 1 < levels.length; i++) {
    const long = p.direction === 'long' || (p.direction === 'neutral' && levels[i]! < bid);
    run.cells.push(
      long
        ? { side: 'buy', entry: levels[i]!, exit: levels[i + 1]!, ticket: null, holding: null }
        : { side: 'sell', entry: levels[i + 1]!, exit: levels[i]!, ticket: null, holding: null },
    );
  }
  armGrid(st, bot);
}

/** Whether the price allows the cell's limit order now. */
function armable(cell: TGridCell, bid: number, distance: number): boolean {
  return cell.side === 'buy' ? bid - cell.entry >= distance : cell.entry - bid >= distance;
}

/** Places the order of every empty cell the price allows, lowest cell first. */
function armGrid(st: EngineState, bot: Strategy): void {
  const run = bot.gridRun!;
  const distance = minDistance(bot.sym.terms);
  const bid = bot.sym.bid;
  for (let i = 0; i < run.cells.length; i++) {
    const cell = run.cells[i]!;
    if (cell.holding !== null || !armable(cell, bid, distance)) continue;
    const ticket = placeBotOrder(
      st,
      bot,
      cell.side === 'buy' ? 'buy_limit' : 'sell_limit',
      bot.grid!.volumePerGrid,
      cell.entry,
      cell.exit,
    );
    if (typeof ticket === 'string') {
      refused(st, bot, ticket, i);
      // the account or the symbol refuses every cell alike: try again on a later tick
      return;
    }
    cell.ticket = ticket;
    cell.holding = 'order';
    logBot(st, bot, 'order_placed', {
      level: i,
      price: cell.entry,
      volume: bot.grid!.volumePerGrid,
      ticket,
    });
    touch(st, bot);
  }
}

/** The cell holding this ticket, or -1. */
export function cellOf(bot: Strategy, ticket: number): number {
  const cells = bot.gridRun?.cells ?? [];
  for (let i = 0; i < cells.length; i++) if (cells[i]!.ticket === ticket) return i;
  return -1;
}

/** A cell's order filled: the cell now holds its position (same ticket). */
export function gridFilled(st: EngineState, bot: Strategy, at: number, price: number): void {
  const cell = bot.gridRun!.cells[at]!;
  cell.holding = 'position';
  logBot(st, bot, 'filled', { level: at, price, volume: bot.grid!.volumePerGrid, ticket: cell.ticket });
  touch(st, bot);
}

/** A cell's order or position is gone (take-profit, refused fill, closed): the cell is empty again. */
export function gridEmptied(st: EngineState, bot: Strategy, at: number): void {
  const cell = bot.gridRun!.cells[at]!;
  cell.holding = null;
  cell.ticket = null;
  touch(st, bot);
  if (bot.state === 'running') armGrid(st, bot);
}

/** The next level above the top: one more step of the same size (arithmetic) or ratio (geometric). */
function levelAbove(bot: Strategy): number {
  const levels = bot.gridRun!.levels;
  const top = levels[levels.length - 1]!;
  const below = levels[levels.length - 2]!;
  return bot.grid!.spacing === 'arithmetic'
    ? top + (top - below)
    : Math.max(top + 1, mulDiv(top, top, below, 'half_up'));
}

/**
 * The price left the band: a take-profit or stop-loss price, leaving the range (trail up, or stop), or
 * cells to arm.
 */
export function gridPrices(st: EngineState, bot: Strategy): void {
  const p = bot.grid!;
  const run = bot.gridRun!;
  const bid = bot.sym.bid;
  const up = p.direction !== 'short';
  if (p.takeProfitPrice !== null && (up ? bid >= p.takeProfitPrice : bid <= p.takeProfitPrice)) {
    stopBot(st, bot, 'take_profit', true);
    return;
  }
  if (p.stopLossPrice !== null && (up ? bid <= p.stopLossPrice : bid >= p.stopLossPrice)) {
    stopBot(st, bot, 'stop_loss', true);
    return;
  }
  const top = () => run.levels[run.levels.length - 1]!;
  if (p.trailingUp) {
    // one cell at a time: the lowest leaves (its order cancelled), a new one comes on top
    for (let moved = 0; bid > top() && moved < MAX_GRIDS; moved++) {
      const lowest = run.cells[0]!;
      if (lowest.holding === 'position') break;
      if (lowest.holding === 'order') {
        const order = st.orders.get(lowest.ticket!);
        if (order !== undefined) removeOrder(st, order, 'strategy');
      }
      const next = levelAbove(bot);
      run.cells.shift();
      run.levels.shift();
      run.cells.push({ side: 'buy', entry: top(), exit: next, ticket: null, holding: null });
      run.levels.push(next);
      run.trails++;
      logBot(st, bot, 'trailed', { price: next, level: run.cells.length - 1 });
      touch(st, bot);
    }
  }
  if (p.outOfRange === 'stop' && (bid > top() || bid < run.levels[0]!)) {
    stopBot(st, bot, 'out_of_range', true);
    return;
  }
  armGrid(st, bot);
}

/**
 * The band of bid inside which a running grid has nothing to do: every empty cell's arming price, the
 * take-profit and stop-loss prices, and the range's edges when leaving it does something.
 */
export function gridBand(bot: Strategy): void {
  const p = bot.grid!;
  const run = bot.gridRun!;
  const distance = minDistance(bot.sym.terms);
  let low = Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  for (const cell of run.cells) {
    if (cell.holding !== null) continue;
    if (cell.side === 'buy') high = Math.min(high, cell.entry + distance);
    else low = Math.max(low, cell.entry - distance);
  }
  const up = p.direction !== 'short';
  if (p.takeProfitPrice !== null) {
    if (up) high = Math.min(high, p.takeProfitPrice);
    else low = Math.max(low, p.takeProfitPrice);
  }
  if (p.stopLossPrice !== null) {
    if (up) low = Math.max(low, p.stopLossPrice);
    else high = Math.min(high, p.stopLossPrice);
  }
  const top = run.levels[run.levels.length - 1]!;
  if (p.trailingUp || p.outOfRange === 'stop') high = Math.min(high, top + 1);
  if (p.outOfRange === 'stop') low = Math.max(low, run.levels[0]! - 1);
  bot.low = low;
  bot.high = high;
}
