/**
 * The engine's state: configuration, the internal records (accounts, symbols, positions, orders) and
 * `EngineState`, the one object every part of the engine reads and changes. No logic beyond `emit`.
 */
import type { TAccountType, TTradeType } from '../calculations';
import type { PositionBucket } from '../exposure';
import type { TInstrumentTerms } from '../instrument-terms';
import { DEFAULT_PEGS, type TConversion, type TConversionStep, type TPeg, type TQuote } from '../money';
import type { TPendingType, TRestrictions, TSide } from '../orders';
import { AccountRiskBook, type SymbolTriggers } from '../trigger-book';
import type { TCopySettings } from './commands';
import type { TApplyResult, TEngineEvent } from './events';
import type {
  TGridParams,
  TGridRuntime,
  TMartingaleParams,
  TMartingaleRuntime,
  TStrategyKind,
  TStrategyState,
  TStrategyStopReason,
} from './strategy/types';

/** Demo accounts start with 100,000 of their currency (spec 9), in minor units. */
export const DEMO_INITIAL_BALANCE_MINOR = 10_000_000;
/** Experience accounts: 100 USDT = 10,000 USC, in USC minor units (spec 9). */
export const EXPERIENCE_DEPOSIT_CAP_MINOR = 1_000_000;
export const DEFAULT_MARGIN_CALL_BP = 10_000;
export const DEFAULT_STOP_OUT_BP = 5_000;
/** Spec 9: a user follows at most 10 traders; a trader has at most 1,000 followers. */
export const MAX_FOLLOWED_LEADERS = 10;
export const MAX_FOLLOWERS = 1_000;

export interface TEngineConfig {
  /** The base terms of every symbol: accounts without a profile trade on them, and conversions read them. */
  instruments: readonly TInstrumentTerms[];
  /**
   * Terms profiles (a broker's account group): their own terms of some symbols, with their own markup,
   * quotes and trigger books. A symbol a profile does not list is traded on its base terms.
   */
  profiles?: Readonly<Record<string, readonly TInstrumentTerms[]>>;
  pegs?: Readonly<Record<string, TPeg>>;
  experienceDepositCapMinor?: number;
  /** Copy-trading limits (spec 9 by default); smaller ones let tests reach them. */
  copyLimits?: { maxFollowedLeaders: number; maxFollowers: number };
}

export interface Account {
  id: number;
  /** Index in the risk book, where floating profit, margin and the margin-call flag live. */
  slot: number;
  type: TAccountType;
  tradeType: TTradeType;
  currency: string;
  leverage: number;
  balance: number;
  followEquity: number;
  strategyEquity: number;
  initMoney: number;
  totalIn: number;
  totalOut: number;
  marginCallBp: number;
  stopOutBp: number;
  nbp: boolean;
  restrictions: TRestrictions;
  closed: boolean;
  profile: string | null;
  /** The main account of a copy or strategy sub-account; null for a main account. */
  parentId: number | null;
  purpose: 'copy' | 'strategy' | null;
  /** A main account's sub-accounts (their equity shows in its follow and strategy equity). */
  children: Account[];
  positions: Position[];
  orders: Set<Order>;
  /** A copy account's relation with the leader it copies; null otherwise. */
  copy: CopyRelation | null;
  /** A leader's relations with its followers, in copy-account id order; null when it has none. */
  followers: CopyRelation[] | null;
  /** A leader's main account taking no new followers for now. */
  followersPaused: boolean;
  /** A leader suspended by the broker: no new followers, nothing new copied. */
  leaderSuspended: boolean;
  /** A strategy account's bot (waiting, running, or stopped with positions open); null otherwise. */
  bot: Strategy | null;
}

/** A grid or martingale bot on a strategy account (strategy/), with what it holds. */
export interface Strategy {
  id: number;
  account: Account;
  sym: SymbolState;
  kind: TStrategyKind;
  grid: TGridParams | null;
  martingale: TMartingaleParams | null;
  state: TStrategyState;
  stopReason: TStrategyStopReason | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  triggerAbove: boolean | null;
  investmentBase: number;
  realizedProfit: number;
  fees: number;
  closedTrades: number;
  gridRun: TGridRuntime | null;
  martingaleRun: TMartingaleRuntime | null;
  /** Nothing to do while low < bid < high (recomputed whenever the bot changes). */
  low: number;
  high: number;
  /** The last refusal logged, so a bot that cannot place an order logs it once, not every tick. */
  lastRefusal: string | null;
}

/** A copy account copying a leader's main account: its settings, and how many copies are open. */
export interface CopyRelation {
  follower: Account;
  leader: Account;
  settings: TCopySettings;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
  /** The follower's open positions linked to one of the leader's. */
  openCopies: number;
  /** The copy's profit before fees on which the fee has been settled (minor units). */
  hwm: number;
  /** Fees paid to the leader so far (minor units). */
  feesPaid: number;
}

export interface SymbolState extends TQuote {
  /** The key in the symbol map: the symbol, or `symbol@profile` for a profile's state. */
  key: string;
  terms: TInstrumentTerms;
  /** The feed's quote before markup (profiles derive theirs from the base state's). */
  rawBid: number;
  rawAsk: number;
  hasQuote: boolean;
  time: number;
  triggers: SymbolTriggers;
  /** Buckets to revalue on this symbol's tick: its own, and those whose conversion reads it. */
  affected: Bucket[];
  /** Running and waiting bots trading on this state, in strategy id order; null when none. */
  bots: Strategy[] | null;
  /** Conversions that read this symbol's quote. */
  converters: Converter[];
}

export interface Converter {
  path: TConversionStep[];
  rates: TConversion | undefined;
}

/** Positions of one symbol held in one account currency: they share a quote and a conversion. */
export interface Bucket {
  sym: SymbolState;
  converter: Converter;
  store: PositionBucket<Position>;
}

export interface Position {
  ticket: number;
  account: Account;
  sym: SymbolState;
  side: TSide;
  volume: number;
  openPrice: number;
  openTime: number;
  takeProfit: number | null;
  stopLoss: number | null;
  /** Trailing stop distance in points (0: none); the engine moves `stopLoss` after the price. */
  trailing: number;
  margin: number;
  swap: number;
  commission: number;
  bucket: Bucket;
  /** Index in the bucket's store, where its floating profit lives. */
  bucketIndex: number;
  accountIndex: number;
  /** A copy: the leader's position it follows (null for the account's own positions). */
  parentTicket: number | null;
  /** A bot's position: its strategy id (null for the trader's own). */
  strategyId: number | null;
}

export interface Order {
  ticket: number;
  account: Account;
  sym: SymbolState;
  type: TPendingType;
  volume: number;
  price: number;
  limitPrice: number | null;
  activated: boolean;
  takeProfit: number | null;
  stopLoss: number | null;
  time: number;
  /** A bot's order: its strategy id (null for the trader's own). */
  strategyId: number | null;
}

/** The mutable state of one engine; the parts of the engine are functions of it. */
export class EngineState {
  readonly symbols = new Map<string, SymbolState>();
  /** The profile states of each symbol (the base state is in `symbols` under the symbol itself). */
  readonly profileStates = new Map<string, SymbolState[]>();
  readonly accounts = new Map<number, Account>();
  readonly positions = new Map<number, Position>();
  readonly orders = new Map<number, Order>();
  readonly converters = new Map<string, Converter>();
  readonly buckets = new Map<string, Bucket>();
  readonly idempotency = new Map<string, { fingerprint: string; result: TApplyResult }>();
  readonly risk = new AccountRiskBook();
  /** Copy relations by copy account id. */
  readonly copyRelations = new Map<number, CopyRelation>();
  /** The open copies of each leader position (by the leader's ticket), in ticket order. */
  readonly copiesByParent = new Map<number, Position[]>();
  /** Bots waiting, running, or stopped with positions open, by strategy id. */
  readonly strategies = new Map<number, Strategy>();
  /** Bots changed in the step being applied: each reports `strategy_changed` once, at its end. */
  readonly changedStrategies = new Set<Strategy>();
  readonly maxFollowedLeaders: number;
  readonly maxFollowers: number;
  readonly accountsBySlot: Account[] = [];
  readonly pegs: Readonly<Record<string, TPeg>>;
  readonly experienceCap: number;
  /** Scratch arrays of the tick path (fired trigger ids, accounts to act on), reused to spare allocation. */
  readonly fired: number[] = [];
  readonly acting: number[] = [];
  readonly quoteOf = (symbol: string): TQuote | undefined => {
    const s = this.symbols.get(symbol);
    return s?.hasQuote ? s : undefined;
  };
  readonly hasSymbol = (symbol: string): boolean => this.symbols.has(symbol);
  nextTicket = 1;
  nextTxId = 1;
  /** The time of the command or tick being applied: the engine has no clock of its own. */
  now = 0;
  /** The events of the command or tick being applied (null until the first). */
  out: TEngineEvent[] | null = null;

  constructor(config: TEngineConfig) {
    this.pegs = config.pegs ?? DEFAULT_PEGS;
    this.experienceCap = config.experienceDepositCapMinor ?? EXPERIENCE_DEPOSIT_CAP_MINOR;
    this.maxFollowedLeaders = config.copyLimits?.maxFollowedLeaders ?? MAX_FOLLOWED_LEADERS;
    this.maxFollowers = config.copyLimits?.maxFollowers ?? MAX_FOLLOWERS;
  }
}

/** Records an event of the command or tick being applied. */
export function emit(st: EngineState, event: TEngineEvent): void {
  if (st.out === null) st.out = [];
  st.out.push(event);
}
