/**
 * Strategy bots (issue 19): the parameters of a grid and a martingale bot, their states (spec 4), and
 * the runtime each keeps. Types only: the engine's command, event and state files import them.
 * Integers throughout: prices in the symbol's points, volumes in hundredths of a lot, money in minor
 * units of the strategy account, percentages in basis points. docs/strategies.md has worked numbers.
 */
import type { TSide } from '../../orders';

export type TStrategyKind = 'grid' | 'martingale';

export type TGridDirection = 'long' | 'short' | 'neutral';

/** A grid bot's parameters, as stored (every optional field present, null for none). */
export interface TGridParams {
  symbol: string;
  direction: TGridDirection;
  /** The range's lowest and highest level, points. */
  lowerPrice: number;
  upperPrice: number;
  /** Cells between the levels: 2 to 200 (so grids + 1 levels). */
  grids: number;
  /** Equal steps in points, or equal ratios. */
  spacing: 'arithmetic' | 'geometric';
  /** Hundredths of a lot each cell buys or sells. */
  volumePerGrid: number;
  /** Wait ("waiting for signal") until the bid crosses this price; null starts at once. */
  triggerPrice: number | null;
  /** Stop the whole bot (closing everything, reason 5) when the bid reaches a price... */
  takeProfitPrice: number | null;
  stopLossPrice: number | null;
  /** ...or when the bot's profit reaches these basis points of its investment (gain or loss). */
  takeProfitBp: number | null;
  stopLossBp: number | null;
  /** Long grids: when the bid leaves the range upward, the range moves up a level at a time. */
  trailingUp: boolean;
  /** When the bid leaves the range (and does not trail): keep working, or stop (reason 5). */
  outOfRange: 'keep' | 'stop';
}

/** A martingale (DCA) bot's parameters, as stored. */
export interface TMartingaleParams {
  symbol: string;
  direction: 'long' | 'short';
  /** Hundredths of a lot of each round's first order (at the market). */
  firstVolume: number;
  /** Basis points of the round's first price between one add and the next (against the position). */
  stepBp: number;
  /** Each add's volume over the one before, basis points (20,000 = x2), 10,000 to 50,000. */
  multiplierBp: number;
  /** The most adds in a round, 0 to 30. */
  maxAdds: number;
  /** The round's take-profit, basis points from its average price. */
  takeProfitBp: number;
  /** Stop the bot (closing the round, reason 5) this many basis points from the round's first price. */
  stopLossBp: number | null;
  /** After a round's take-profit: start the next round, or stop. */
  cycle: 'repeat' | 'stop';
  /** Wait until the bid crosses this price; null starts at once. */
  triggerPrice: number | null;
}

/** A command's parameters: the optional fields may be left out (null). */
export type TGridParamsInput = Omit<
  TGridParams,
  | 'triggerPrice'
  | 'takeProfitPrice'
  | 'stopLossPrice'
  | 'takeProfitBp'
  | 'stopLossBp'
  | 'trailingUp'
  | 'outOfRange'
> &
  Partial<
    Pick<
      TGridParams,
      | 'triggerPrice'
      | 'takeProfitPrice'
      | 'stopLossPrice'
      | 'takeProfitBp'
      | 'stopLossBp'
      | 'trailingUp'
      | 'outOfRange'
    >
  >;

export type TMartingaleParamsInput = Omit<TMartingaleParams, 'stopLossBp' | 'cycle' | 'triggerPrice'> &
  Partial<Pick<TMartingaleParams, 'stopLossBp' | 'cycle' | 'triggerPrice'>>;

export type TStrategySpecInput =
  | { kind: 'grid'; params: TGridParamsInput }
  | { kind: 'martingale'; params: TMartingaleParamsInput };

export type TStrategySpec =
  | { kind: 'grid'; params: TGridParams }
  | { kind: 'martingale'; params: TMartingaleParams };

/** Spec 4: waiting for signal, running, stopped with position open, stopped and closed. */
export type TStrategyState = 'waiting' | 'running' | 'stopped_open' | 'stopped_closed';

export const STRATEGY_STATES: readonly TStrategyState[] = [
  'waiting',
  'running',
  'stopped_open',
  'stopped_closed',
];

/**
 * Why a bot stopped: by the trader (`client`, close reason 6) or by the broker's staff (`broker`, close
 * reason 6: stopped actively, by a person), or automatically (close reason 5): its
 * own take-profit or stop-loss, a stop-out of its account (margin), its symbol disabled, the price
 * out of its range; a martingale in "stop" cycle mode after its round's take-profit; the account closed.
 */
export type TStrategyStopReason =
  | 'client'
  | 'broker'
  | 'take_profit'
  | 'stop_loss'
  | 'stop_out'
  | 'symbol_disabled'
  | 'out_of_range'
  | 'cycle_done'
  | 'account_closed';

/**
 * One grid cell, between two neighbouring levels: a buy at the lower (`entry`) taking profit at the
 * upper (`exit`), or a sell at the upper taking profit at the lower. It holds at most one thing: its
 * pending order or the position that order became (`ticket`), or nothing (re-armed when the price
 * allows).
 */
export interface TGridCell {
  side: TSide;
  entry: number;
  exit: number;
  ticket: number | null;
  holding: 'order' | 'position' | null;
}

export interface TGridRuntime {
  /** The levels, rising (the range moves when trailing up). */
  levels: number[];
  /** cells[i] lies between levels[i] and levels[i + 1]; empty while waiting for signal. */
  cells: TGridCell[];
  /** How many times the range moved up. */
  trails: number;
}

export interface TMartingaleRuntime {
  /** Rounds completed by their take-profit. */
  rounds: number;
  /** The open round: null between rounds (its first order could not be placed yet). */
  firstPrice: number | null;
  /** Adds filled in the open round. */
  adds: number;
  /** The open round's positions (tickets, in order). */
  positions: number[];
  /** Hundredths of a lot open in the round, and the sum of volume x price (the average's numerator). */
  volume: number;
  cost: number;
  /** The round's take-profit price (on every position of the round). */
  takeProfit: number | null;
  /** The pending order of the next add, if any. */
  addOrder: number | null;
  /** An add's fill was refused (margin): no more adds this round. */
  addsHalted: boolean;
}

/** A bot as stored and reported: what a restart restores exactly. */
export type TStrategyView = TStrategySpec & {
  strategyId: number;
  accountId: number;
  state: TStrategyState;
  stopReason: TStrategyStopReason | null;
  createdAt: number;
  updatedAt: number;
  /** When it left "waiting for signal" (null while waiting). */
  startedAt: number | null;
  /** Waiting: true fires when the bid rises to the trigger, false when it falls to it. */
  triggerAbove: boolean | null;
  /** The investment is this plus the money moved into the account (less the money out). */
  investmentBase: number;
  /** Price results of the bot's closed positions (the grid profit), minor units. */
  realizedProfit: number;
  /** Commission and swap charged to the bot's positions (negative: paid). */
  fees: number;
  /** Positions the bot closed (or saw closed). */
  closedTrades: number;
  /** The last refusal it logged (an order it could not place), null after a success. */
  lastRefusal: string | null;
  grid: TGridRuntime | null;
  martingale: TMartingaleRuntime | null;
};

/** What a bot did, and why: the log its detail page shows. */
export type TStrategyAction =
  | 'started'
  | 'waiting'
  | 'triggered'
  | 'order_placed'
  | 'order_refused'
  | 'order_cancelled'
  | 'filled'
  | 'position_closed'
  | 'round_started'
  | 'add_placed'
  | 'added'
  | 'round_closed'
  | 'take_profit_moved'
  | 'trailed'
  | 'stopped';

/** Grid steps and the martingale plan are bounded so every product stays a safe integer. */
export const MAX_GRIDS = 200;
export const MIN_GRIDS = 2;
export const MAX_MARTINGALE_ADDS = 30;
export const MIN_MULTIPLIER_BP = 10_000;
export const MAX_MULTIPLIER_BP = 50_000;
