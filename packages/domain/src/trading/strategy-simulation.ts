/**
 * The strategy bots' simulators (issue 19, docs/strategies.md "Before launch"): a bot run on a scratch
 * engine (the same code that runs live) over a price path, from the account it would have. The
 * worst-case path walks the price through and beyond the bot's whole range (a grid) or all its adds
 * (a martingale) and on until the account is stopped out, so that the maximum margin, the margin-call
 * and stop-out prices and the largest loss come from the engine's own margin and profit rules.
 */
import { AccountType, type TAccountType, type TTradeType } from './calculations';
import type { TEngineConfig } from './engine/state';
import { addPrice } from './engine/strategy/martingale';
import type { TStrategySpecInput } from './engine/strategy/types';
import { type TEngineEvent, TradingEngine } from './engine-core';
import type { TTradingErrorCode } from './errors';

export interface TSimulationAccount {
  accountType: TAccountType;
  tradeType: TTradeType;
  currency: string;
  leverage: number;
  profile: string | null;
  marginCallBp: number;
  stopOutBp: number;
  negativeBalanceProtection: boolean;
}

export interface TPathPoint {
  /** Raw (feed) prices in points, before the profile's markup. */
  bid: number;
  ask: number;
  time: number;
}

export interface TSimulationResult {
  /** The engine's refusal of the bot's start (nothing was simulated). */
  refused: TTradingErrorCode | null;
  /** The most margin the bot's positions held at once (minor units of the account). */
  maxMargin: number;
  /** Where (the bid, points) the margin call came first, and the stop-out; null when they did not. */
  marginCallPrice: number | null;
  stopOutPrice: number | null;
  /** The lowest equity and the equity at the end (minor units). */
  minEquity: number;
  finalEquity: number;
  /** The deepest fall of the equity from its peak, basis points of the peak. */
  maxDrawdownBp: number;
  /** Positions closed, their price results, and their commission and swap (negative: paid). */
  closedTrades: number;
  realizedProfit: number;
  fees: number;
  /** The bot's state at the end, and why it stopped (if it did). */
  state: string;
  stopReason: string | null;
  /** Equity after each point (minor units), for a curve. */
  equity: number[];
  /** A grid's levels, or a martingale's first price and its adds' prices (points), as the bot set them at its start. */
  levels: number[];
  /** Orders the bot could not place or fill on the walk (margin, mostly). */
  refusals: number;
}

const MAIN = 1;
const STRATEGY_ACCOUNT = 2;
const STRATEGY_ID = 1;

/**
 * Runs a bot on a scratch engine primed with today's quotes, over `path` (quotes of the bot's
 * symbol). The bot's account is a strategy sub-account funded with `investment` (minor units).
 */
export function simulateStrategy(input: {
  config: TEngineConfig;
  quotes: readonly { symbol: string; bid: number; ask: number; time: number }[];
  account: TSimulationAccount;
  investment: number;
  spec: TStrategySpecInput;
  path: readonly TPathPoint[];
  startTime: number;
}): TSimulationResult {
  const engine = new TradingEngine(input.config);
  engine.primeQuotes(input.quotes);
  let clock = input.startTime;
  let seq = 0;
  const apply = (body: Record<string, unknown>) =>
    engine.apply({ ...body, clientKey: `sim-${seq++}`, time: clock } as never);
  const base = {
    type: 'create_account',
    accountType:
      input.account.accountType === AccountType.DEMO ? AccountType.DEMO : input.account.accountType,
    tradeType: input.account.tradeType,
    currency: input.account.currency,
    leverage: input.account.leverage,
    profile: input.account.profile,
    marginCallBp: input.account.marginCallBp,
    stopOutBp: input.account.stopOutBp,
    negativeBalanceProtection: input.account.negativeBalanceProtection,
  };
  apply({ ...base, accountId: MAIN, initialBalance: input.investment });
  apply({ ...base, accountId: STRATEGY_ACCOUNT, initialBalance: 0, parentId: MAIN, purpose: 'strategy' });
  if (input.investment > 0)
    apply({
      type: 'transfer',
      accountId: MAIN,
      toAccountId: STRATEGY_ACCOUNT,
      transferType: 'transfer_strategy_out',
      amount: input.investment,
    });
  const started = apply({
    type: 'start_strategy',
    accountId: STRATEGY_ACCOUNT,
    strategyId: STRATEGY_ID,
    ...input.spec,
  });
  const result: TSimulationResult = {
    refused: started.ok ? null : started.error,
    maxMargin: 0,
    marginCallPrice: null,
    stopOutPrice: null,
    minEquity: input.investment,
    finalEquity: input.investment,
    maxDrawdownBp: 0,
    closedTrades: 0,
    realizedProfit: 0,
    fees: 0,
    state: 'waiting',
    stopReason: null,
    equity: [],
    levels: [],
    refusals: 0,
  };
  if (!started.ok) return result;
  const first = engine.strategy(STRATEGY_ID)?.strategy;
  if (first?.grid) result.levels = [...first.grid.levels];
  else if (first?.kind === 'martingale' && first.martingale?.firstPrice != null) {
    const firstPrice = first.martingale.firstPrice;
    result.levels = [firstPrice];
    for (let k = 1; k <= first.params.maxAdds; k++) result.levels.push(addPrice(first.params, firstPrice, k));
  }
  const symbol = input.spec.params.symbol;
  let peak = input.investment;
  const watch = (events: readonly TEngineEvent[], bid: number) => {
    for (const e of events) {
      if (e.type === 'margin_call' && e.accountId === STRATEGY_ACCOUNT && e.active)
        result.marginCallPrice ??= bid;
      if (e.type === 'stop_out' && e.accountId === STRATEGY_ACCOUNT) result.stopOutPrice ??= bid;
      if (e.type === 'strategy_log' && e.action === 'order_refused') result.refusals++;
      // a pending order reached whose fill the margin refused
      if (
        e.type === 'order_cancelled' &&
        e.accountId === STRATEGY_ACCOUNT &&
        e.reason === 'insufficient_margin'
      )
        result.refusals++;
    }
    const view = engine.account(STRATEGY_ACCOUNT);
    if (!view) return;
    result.maxMargin = Math.max(result.maxMargin, view.margin);
    result.minEquity = Math.min(result.minEquity, view.equity);
    peak = Math.max(peak, view.equity);
    if (peak > 0)
      result.maxDrawdownBp = Math.max(
        result.maxDrawdownBp,
        Math.floor(((peak - view.equity) * 10_000) / peak),
      );
    result.equity.push(view.equity);
  };
  watch(started.events, input.path[0]?.bid ?? 0);
  for (const point of input.path) {
    clock = Math.max(clock + 1, point.time);
    const events = engine.onTick(symbol, point.bid, point.ask, clock);
    watch(events, point.bid);
    // the bot's state changes only in a step that reports it (building its full report on every
    // quote cost most of a backtest's time)
    if (events.some((e) => e.type === 'strategy_changed' && e.strategy.state === 'stopped_closed')) break;
  }
  const view = engine.account(STRATEGY_ACCOUNT);
  const bot = engine.strategy(STRATEGY_ID);
  result.finalEquity = view?.equity ?? result.minEquity;
  if (bot) {
    result.state = bot.strategy.state;
    result.stopReason = bot.strategy.stopReason;
    result.closedTrades = bot.strategy.closedTrades;
    result.realizedProfit = bot.strategy.realizedProfit;
    result.fees = bot.strategy.fees;
  } else {
    result.state = 'stopped_closed';
  }
  return result;
}

/**
 * The worst-case path of a bot: from today's quote, against the bot one step at a time, through and
 * beyond its range (or its last add) to `floor` (long: down to it; short: up to it), keeping the
 * spread. `steps` points in all.
 */
export function worstCasePath(input: {
  bid: number;
  ask: number;
  /** The price the walk ends at. */
  to: number;
  steps: number;
  startTime: number;
}): TPathPoint[] {
  const spread = Math.max(0, input.ask - input.bid);
  const path: TPathPoint[] = [];
  for (let i = 1; i <= input.steps; i++) {
    const bid = Math.max(1, Math.round(input.bid + ((input.to - input.bid) * i) / input.steps));
    path.push({ bid, ask: bid + spread, time: input.startTime + i * 1_000 });
  }
  return path;
}
