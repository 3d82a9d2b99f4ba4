/**
 * The trading core: a synchronous, deterministic, single-writer state machine with no I/O.
 * `apply(command)` and `onTick(symbol, bid, ask, time)` change state and return the events that the
 * server persists in one transaction before it acknowledges anything. Same commands and ticks in, same
 * events out. Model and formulas: docs/trading.md.
 *
 * This file is the engine's public face: `TradingEngine` composes the parts in `./engine/` (which file
 * holds what: docs/trading.md, "The engine's parts"), each a set of functions of one `EngineState`.
 */

import { applyCommand, recordedFingerprint, recordedResult } from './engine/apply';
import { fingerprint, type TCommand } from './engine/commands';
import { relationView } from './engine/copy';
import type {
  TAccountView,
  TApplyResult,
  TCopyRelationView,
  TEngineEvent,
  TOrderView,
  TPositionView,
} from './engine/events';
import { checkInvariants } from './engine/invariants';
import { createState, quote, setProfile } from './engine/market';
import { previewOpen } from './engine/order-entry';
import { restoreInto, type TEngineSnapshot, takeSnapshot } from './engine/snapshot';
import type { EngineState, TEngineConfig } from './engine/state';
import { strategyReport, type TStrategyReport } from './engine/strategy/run';
import { primeQuotes, tick } from './engine/triggers';
import {
  accountIds,
  accountView,
  countsOf,
  ordersOf,
  orderView,
  positionsOf,
  positionView,
} from './engine/views';
import type { TTradingErrorCode } from './errors';
import type { TInstrumentTerms } from './instrument-terms';
import type { TSide } from './orders';

export {
  COPY_MODES,
  idempotencyKeyOf,
  type TBalanceCommand,
  type TCancelOrderCommand,
  type TCloseAccountCommand,
  type TCloseAllCommand,
  type TClosePositionCommand,
  type TCommand,
  type TCopyMode,
  type TCopySettings,
  type TCreateAccountCommand,
  type TModifyOrderCommand,
  type TModifyPositionCommand,
  type TOpenMarketCommand,
  type TPauseCopyCommand,
  type TPlacePendingCommand,
  type TRolloverCommand,
  type TSetCopyCommand,
  type TSetExternalEquityCommand,
  type TSetLeaderCommand,
  type TSetLevelsCommand,
  type TSetProfileCommand,
  type TSetRestrictionsCommand,
  type TStartStrategyCommand,
  type TStopCopyCommand,
  type TStopStrategyCommand,
} from './engine/commands';
export type {
  TAccountView,
  TApplyResult,
  TCopyRelationView,
  TCopySkipReason,
  TCopyStatus,
  TCopyStopReason,
  TEngineEvent,
  TLedgerKind,
  TOrderCancelReason,
  TOrderView,
  TPositionView,
  TPosting,
} from './engine/events';
export { LedgerAccount, traderLedgerAccount } from './engine/ledger';
export type { TAccountRow, TEngineSnapshot, TOrderRow, TPositionRow } from './engine/snapshot';
export {
  DEFAULT_MARGIN_CALL_BP,
  DEFAULT_STOP_OUT_BP,
  DEMO_INITIAL_BALANCE_MINOR,
  EXPERIENCE_DEPOSIT_CAP_MINOR,
  MAX_FOLLOWED_LEADERS,
  MAX_FOLLOWERS,
  type TEngineConfig,
} from './engine/state';
export type { TStrategyReport } from './engine/strategy/run';
export type {
  TGridCell,
  TGridParams,
  TGridParamsInput,
  TGridRuntime,
  TMartingaleParams,
  TMartingaleParamsInput,
  TMartingaleRuntime,
  TStrategyAction,
  TStrategyKind,
  TStrategySpec,
  TStrategySpecInput,
  TStrategyState,
  TStrategyStopReason,
  TStrategyView,
} from './engine/strategy/types';
export { STRATEGY_STATES } from './engine/strategy/types';

export class TradingEngine {
  private readonly st: EngineState;

  constructor(config: TEngineConfig) {
    this.st = createState(config);
  }

  /**
   * Defines or replaces a profile's terms (the broker changed its market configuration). The catalogue
   * fields (digits, contract size, currencies) must equal the base terms. Quotes keep their values
   * until the next tick of each symbol applies the new markup; the host replays the last tick at once.
   */
  setProfile(profile: string, list: readonly TInstrumentTerms[]): void {
    setProfile(this.st, profile, list);
  }

  // ---------------------------------------------------------------- ticks

  /**
   * A new raw quote (points, before markup). Fires crossed pending orders and take-profit/stop-loss,
   * revalues the positions the quote moves (its symbol's, and those converted through it), then
   * margin-checks only the accounts whose equity moved: margin call flag, stop-out, negative-balance
   * protection.
   */
  onTick(symbol: string, rawBid: number, rawAsk: number, time: number): readonly TEngineEvent[] {
    return tick(this.st, symbol, rawBid, rawAsk, time);
  }

  /**
   * Loads the latest raw quote of many symbols at once (after a restore without quotes), revaluing
   * every position but firing nothing: triggers and margin checks start with the next real tick, so a
   * half-priced book can never stop an account out.
   */
  primeQuotes(quotes: readonly { symbol: string; bid: number; ask: number; time: number }[]): void {
    primeQuotes(this.st, quotes);
  }

  // ---------------------------------------------------------------- commands

  /** The fingerprint a repeated idempotency key is compared with (time and key left out). */
  fingerprintOf(command: TCommand): string {
    return fingerprint(command);
  }

  /** The fingerprint recorded when this command's key was applied (no recomputing), else its own. */
  recordedFingerprint(command: TCommand): string {
    return recordedFingerprint(this.st, command);
  }

  /** The next ticket and ledger transaction numbers, for persisting alongside the state. */
  get counters(): { nextTicket: number; nextTxId: number } {
    return { nextTicket: this.st.nextTicket, nextTxId: this.st.nextTxId };
  }

  /**
   * What a repeat of this command's key answers (undefined before it was applied): its first result,
   * without the followers' events when it was a leader's trade that others copied.
   */
  recordedResult(command: TCommand): TApplyResult | undefined {
    return recordedResult(this.st, command);
  }

  /**
   * Applies one command. A repeated client key returns the first result and changes nothing (a
   * leader's command answers its own events then, not its followers': see `recordedResult`).
   */
  apply(command: TCommand): TApplyResult {
    return applyCommand(this.st, command);
  }

  // ---------------------------------------------------------------- reads

  account(accountId: number): TAccountView | undefined {
    return accountView(this.st, accountId);
  }

  accountIds(): number[] {
    return accountIds(this.st);
  }

  positionsOf(accountId: number): TPositionView[] {
    return positionsOf(this.st, accountId);
  }

  ordersOf(accountId: number): TOrderView[] {
    return ordersOf(this.st, accountId);
  }

  position(positionId: number): TPositionView | undefined {
    const p = this.st.positions.get(positionId);
    return p === undefined ? undefined : positionView(p);
  }

  order(orderId: number): TOrderView | undefined {
    const o = this.st.orders.get(orderId);
    return o === undefined ? undefined : orderView(o);
  }

  /** The copy relation of a copy account (running or paused), or undefined when it copies nobody. */
  copyRelation(accountId: number): TCopyRelationView | undefined {
    const relation = this.st.copyRelations.get(accountId);
    return relation === undefined ? undefined : relationView(relation);
  }

  /**
   * A bot waiting, running, or stopped with positions open (as stored, plus its unrealised profit and
   * what it holds); undefined once stopped and closed (its stored row keeps it).
   */
  strategy(strategyId: number): TStrategyReport | undefined {
    const bot = this.st.strategies.get(strategyId);
    return bot === undefined ? undefined : strategyReport(bot);
  }

  /** The bots in the engine, in strategy id order (all of them, or one account's). */
  strategies(accountId?: number): TStrategyReport[] {
    return [...this.st.strategies.values()]
      .filter((bot) => accountId === undefined || bot.account.id === accountId)
      .sort((a, b) => a.id - b.id)
      .map((bot) => strategyReport(bot));
  }

  /** The copy accounts following a leader's main account, in id order. */
  followersOf(leaderAccountId: number): number[] {
    return (this.st.accounts.get(leaderAccountId)?.followers ?? []).map((r) => r.follower.id);
  }

  /**
   * What opening `volume` of `symbol` on `side` would cost now (the order ticket's preview):
   * margin and commission in the account currency and the fill price, or the reason it would be
   * refused by the symbol or the quotes. Changes nothing.
   */
  previewOpen(
    accountId: number,
    symbol: string,
    side: TSide,
    volume: number,
  ): { margin: number; commission: number; price: number } | { error: TTradingErrorCode } {
    return previewOpen(this.st, accountId, symbol, side, volume);
  }

  /** The raw (feed) quotes of the base symbols that have one: what a scratch engine is primed with. */
  rawQuotes(): { symbol: string; bid: number; ask: number; time: number }[] {
    const out: { symbol: string; bid: number; ask: number; time: number }[] = [];
    for (const [symbol, s] of this.st.symbols)
      if (s.hasQuote) out.push({ symbol, bid: s.rawBid, ask: s.rawAsk, time: s.time });
    return out;
  }

  /** The quote after markup, or undefined before the first tick. */
  quote(
    symbol: string,
    profile: string | null = null,
  ): { bid: number; ask: number; time: number } | undefined {
    return quote(this.st, symbol, profile);
  }

  get counts(): { accounts: number; positions: number; orders: number; triggers: number } {
    return countsOf(this.st);
  }

  /**
   * Recomputes every running figure from scratch and lists what disagrees: account floating profit and
   * margin sums, each position's profit at the current quotes, positive margin, and that every take-
   * profit, stop-loss and pending order sits in its book (and nothing else does). Empty when sound.
   */
  checkInvariants(): string[] {
    return checkInvariants(this.st);
  }

  // ---------------------------------------------------------------- snapshot

  snapshot(): TEngineSnapshot {
    return takeSnapshot(this.st);
  }

  /** Rebuilds an engine from a snapshot (or from persisted rows shaped like one). */
  static restore(snapshot: TEngineSnapshot, config: TEngineConfig): TradingEngine {
    const engine = new TradingEngine(config);
    restoreInto(engine.st, snapshot);
    return engine;
  }
}
