/**
 * The trading core: a synchronous, deterministic, single-writer state machine with no I/O.
 * `apply(command)` and `onTick(symbol, bid, ask, time)` change state and return the events that the
 * server persists in one transaction before it acknowledges anything. Same commands and ticks in, same
 * events out. Model and formulas: docs/trading.md.
 */
import {
  AccountType,
  accountProfit,
  isMetaTrader,
  marginLevelBp,
  type TAccountFigures,
  type TAccountType,
  type TTradeType,
  totalEquity,
  usableMargin,
} from './calculations';
import type { TTradingErrorCode } from './errors';
import { PositionBucket } from './exposure';
import { type TInstrumentTerms, tierLeverage } from './instrument-terms';
import {
  applyMarkup,
  CONVERSION_IDENTITY,
  commissionMinor,
  conversionPath,
  conversionRates,
  convert,
  DEFAULT_PEGS,
  marginMinor,
  mulDiv,
  pathSymbols,
  profitMinor,
  swapMinor,
  swapMultiplier,
  type TConversion,
  type TConversionStep,
  type TPeg,
  type TQuote,
} from './money';
import {
  CLIENT_CLOSE_REASONS,
  CloseReason,
  checkRestriction,
  entryPrice,
  minDistance,
  NO_RESTRICTIONS,
  PENDING_TYPES,
  pendingTrigger,
  sideOfPending,
  stopLossBook,
  type TBook,
  type TCloseReason,
  type TPendingType,
  type TRestrictions,
  TriggerKind,
  type TSide,
  type TTriggerKind,
  takeProfitBook,
  validateClosing,
  validateOpening,
  validatePendingPrice,
  validateStops,
  validateVolume,
} from './orders';
import { AccountRiskBook, MarginState, marginState, SymbolTriggers } from './trigger-book';

/** Demo accounts start with 100,000 of their currency (spec 9), in minor units. */
export const DEMO_INITIAL_BALANCE_MINOR = 10_000_000;
/** Experience accounts: 100 USDT = 10,000 USC, in USC minor units (spec 9). */
export const EXPERIENCE_DEPOSIT_CAP_MINOR = 1_000_000;
export const DEFAULT_MARGIN_CALL_BP = 10_000;
export const DEFAULT_STOP_OUT_BP = 5_000;

/** Double-entry counter-accounts; a trader's own balance is `trader:<accountId>`. */
export const LedgerAccount = {
  BROKER_PNL: 'broker:pnl',
  BROKER_COMMISSION: 'broker:commission',
  BROKER_SWAP: 'broker:swap',
  BROKER_NBP: 'broker:negative_balance_protection',
  BROKER_ADJUSTMENT: 'broker:adjustment',
  BROKER_DEMO_CREDIT: 'broker:demo_credit',
  EXTERNAL_FUNDING: 'external:funding',
} as const;

export function traderLedgerAccount(accountId: number): string {
  return `trader:${accountId}`;
}

export type TLedgerKind =
  | 'initial_balance'
  | 'deposit'
  | 'withdrawal'
  | 'adjustment'
  | 'realized_pnl'
  | 'commission'
  | 'swap'
  | 'negative_balance_protection';

/** One leg of a ledger transaction: a positive amount increases that ledger account's balance. */
export interface TPosting {
  ledgerAccount: string;
  amount: number;
}

interface TCommandBase {
  /** The client's idempotency key; unique per account (or per engine for account-less commands). */
  clientKey: string;
  /** Server time in ms; the engine has no clock of its own. */
  time: number;
}

export interface TCreateAccountCommand extends TCommandBase {
  type: 'create_account';
  accountId: number;
  accountType: TAccountType;
  tradeType: TTradeType;
  /** Account currency; experience accounts use USC (the US cent). */
  currency: string;
  leverage: number;
  initialBalance: number;
  marginCallBp?: number;
  stopOutBp?: number;
  /** Defaults to on for real and experience accounts, off for demo and MT accounts. */
  negativeBalanceProtection?: boolean;
  restrictions?: Partial<TRestrictions>;
  /** The terms profile (the broker's account group) whose instrument terms the account trades on. */
  profile?: string | null;
}

export interface TOpenMarketCommand extends TCommandBase {
  type: 'open_market';
  accountId: number;
  symbol: string;
  side: TSide;
  volume: number;
  takeProfit?: number | null;
  stopLoss?: number | null;
}

export interface TPlacePendingCommand extends TCommandBase {
  type: 'place_pending';
  accountId: number;
  symbol: string;
  orderType: TPendingType;
  volume: number;
  /** The limit or stop price; for a stop-limit, the stop. */
  price: number;
  /** Stop-limit orders only: the limit price it becomes once the stop is reached. */
  limitPrice?: number | null;
  takeProfit?: number | null;
  stopLoss?: number | null;
}

export interface TModifyPositionCommand extends TCommandBase {
  type: 'modify_position';
  accountId: number;
  positionId: number;
  takeProfit: number | null;
  stopLoss: number | null;
}

export interface TModifyOrderCommand extends TCommandBase {
  type: 'modify_order';
  accountId: number;
  orderId: number;
  price: number;
  limitPrice?: number | null;
  takeProfit: number | null;
  stopLoss: number | null;
}

export interface TCancelOrderCommand extends TCommandBase {
  type: 'cancel_order';
  accountId: number;
  orderId: number;
}

export interface TClosePositionCommand extends TCommandBase {
  type: 'close_position';
  accountId: number;
  positionId: number;
  /** Hundredths of a lot to close; the whole position when omitted. */
  volume?: number;
  reason?: TCloseReason;
}

export interface TCloseAllCommand extends TCommandBase {
  type: 'close_all';
  accountId: number;
  /** Only this symbol's positions when given. */
  symbol?: string;
  reason?: TCloseReason;
}

export interface TBalanceCommand extends TCommandBase {
  type: 'deposit' | 'withdraw' | 'adjust_balance';
  accountId: number;
  /** Minor units; positive for deposit and withdraw, signed for an adjustment. */
  amount: number;
}

export interface TSetRestrictionsCommand extends TCommandBase {
  type: 'set_restrictions';
  accountId: number;
  restrictions: TRestrictions;
}

/** The broker changed the account's group levels: margin call, stop-out, negative-balance protection. */
export interface TSetLevelsCommand extends TCommandBase {
  type: 'set_levels';
  accountId: number;
  marginCallBp: number;
  stopOutBp: number;
  negativeBalanceProtection: boolean;
}

/** Moves the account to another terms profile; refused while it has positions or pending orders. */
export interface TSetProfileCommand extends TCommandBase {
  type: 'set_profile';
  accountId: number;
  profile: string | null;
}

export interface TSetExternalEquityCommand extends TCommandBase {
  type: 'set_external_equity';
  accountId: number;
  followEquity: number;
  strategyEquity: number;
}

/** The daily rollover (22:00 UTC): charges or pays swap on every open position. */
export interface TRolloverCommand extends TCommandBase {
  type: 'rollover';
}

/** Account cancellation: closes every position (reason 7), cancels every order, refuses anything after. */
export interface TCloseAccountCommand extends TCommandBase {
  type: 'close_account';
  accountId: number;
}

export type TCommand =
  | TCreateAccountCommand
  | TOpenMarketCommand
  | TPlacePendingCommand
  | TModifyPositionCommand
  | TModifyOrderCommand
  | TCancelOrderCommand
  | TClosePositionCommand
  | TCloseAllCommand
  | TBalanceCommand
  | TSetRestrictionsCommand
  | TSetLevelsCommand
  | TSetProfileCommand
  | TSetExternalEquityCommand
  | TRolloverCommand
  | TCloseAccountCommand;

export interface TPositionView {
  positionId: number;
  accountId: number;
  symbol: string;
  side: TSide;
  volume: number;
  openPrice: number;
  openTime: number;
  takeProfit: number | null;
  stopLoss: number | null;
  /** Margin held, account-currency minor units. */
  margin: number;
  /** Floating profit at the last quotes, account-currency minor units. */
  profit: number;
  /** Swap and commission charged so far (already in the balance). */
  swap: number;
  commission: number;
}

export interface TOrderView {
  orderId: number;
  accountId: number;
  symbol: string;
  type: TPendingType;
  volume: number;
  price: number;
  limitPrice: number | null;
  /** A stop-limit whose stop was reached and which now waits as a limit order. */
  activated: boolean;
  takeProfit: number | null;
  stopLoss: number | null;
  time: number;
}

export type TOrderCancelReason = 'client' | 'insufficient_margin' | 'restricted' | 'account_closed';

export type TEngineEvent =
  | { type: 'account_created'; accountId: number; time: number }
  | { type: 'account_closed'; accountId: number; time: number }
  | { type: 'restrictions_changed'; accountId: number; restrictions: TRestrictions; time: number }
  | { type: 'account_settings_changed'; accountId: number; time: number }
  | {
      type: 'external_equity_changed';
      accountId: number;
      followEquity: number;
      strategyEquity: number;
      time: number;
    }
  | { type: 'position_opened'; position: TPositionView; orderId: number | null; time: number }
  | {
      type: 'position_modified';
      positionId: number;
      accountId: number;
      takeProfit: number | null;
      stopLoss: number | null;
      time: number;
    }
  | {
      type: 'position_closed';
      positionId: number;
      accountId: number;
      symbol: string;
      side: TSide;
      /** Volume closed by this event. */
      volume: number;
      /** Volume still open (0 after a full close). */
      remainingVolume: number;
      openPrice: number;
      closePrice: number;
      /** Realised profit of the closed volume. */
      profit: number;
      reason: TCloseReason;
      time: number;
    }
  | { type: 'order_placed'; order: TOrderView; time: number }
  | { type: 'order_modified'; order: TOrderView; time: number }
  | { type: 'order_activated'; orderId: number; accountId: number; time: number }
  | {
      type: 'order_filled';
      orderId: number;
      accountId: number;
      positionId: number;
      price: number;
      time: number;
    }
  | { type: 'order_cancelled'; orderId: number; accountId: number; reason: TOrderCancelReason; time: number }
  | {
      type: 'ledger';
      txId: number;
      accountId: number;
      kind: TLedgerKind;
      currency: string;
      postings: readonly TPosting[];
      balanceAfter: number;
      positionId: number | null;
      time: number;
    }
  | { type: 'margin_call'; accountId: number; active: boolean; marginLevelBp: number; time: number }
  | { type: 'stop_out'; accountId: number; marginLevelBp: number; time: number };

export type TApplyResult =
  | {
      ok: true;
      events: readonly TEngineEvent[] /** The new position or order, when one was made. */;
      ticket: number | null;
    }
  | { ok: false; error: TTradingErrorCode };

export interface TAccountView {
  accountId: number;
  accountType: TAccountType;
  tradeType: TTradeType;
  currency: string;
  leverage: number;
  balance: number;
  /** balance + floating profit. */
  equity: number;
  totalProfit: number;
  margin: number;
  followEquity: number;
  strategyEquity: number;
  totalEquity: number;
  usableMargin: number;
  marginLevelBp: number;
  accountProfit: number;
  initMoney: number;
  totalInAmount: number;
  totalOutAmount: number;
  marginCallBp: number;
  stopOutBp: number;
  marginCall: boolean;
  negativeBalanceProtection: boolean;
  restrictions: TRestrictions;
  closed: boolean;
  profile: string | null;
}

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
}

export type TPositionRow = Omit<TPositionView, 'profit'>;

/** Everything needed to rebuild the engine, as plain JSON-able rows. */
export interface TEngineSnapshot {
  version: 1;
  nextTicket: number;
  nextTxId: number;
  /** Quotes after markup, as the engine last saw them. */
  quotes: Array<{ symbol: string; bid: number; ask: number; time: number }>;
  accounts: TAccountRow[];
  positions: TPositionRow[];
  orders: TOrderView[];
  idempotency: Array<{ key: string; fingerprint: string; result: TApplyResult }>;
}

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
}

interface Account {
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
  positions: Position[];
  orders: Set<Order>;
}

interface SymbolState extends TQuote {
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
  /** Conversions that read this symbol's quote. */
  converters: Converter[];
}

interface Converter {
  path: TConversionStep[];
  rates: TConversion | undefined;
}

/** Positions of one symbol held in one account currency: they share a quote and a conversion. */
interface Bucket {
  sym: SymbolState;
  converter: Converter;
  store: PositionBucket<Position>;
}

interface Position {
  ticket: number;
  account: Account;
  sym: SymbolState;
  side: TSide;
  volume: number;
  openPrice: number;
  openTime: number;
  takeProfit: number | null;
  stopLoss: number | null;
  margin: number;
  swap: number;
  commission: number;
  bucket: Bucket;
  /** Index in the bucket's store, where its floating profit lives. */
  bucketIndex: number;
  accountIndex: number;
}

interface Order {
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
}

const NO_EVENTS: readonly TEngineEvent[] = Object.freeze([]);

const profileKey = (symbol: string, profile: string) => `${symbol}@${profile}`;

function newSymbolState(key: string, terms: TInstrumentTerms): SymbolState {
  return {
    key,
    terms,
    bid: 0,
    ask: 0,
    rawBid: 0,
    rawAsk: 0,
    digits: terms.digits,
    hasQuote: false,
    time: 0,
    triggers: new SymbolTriggers(),
    affected: [],
    converters: [],
  };
}

function triggerId(ticket: number, kind: TTriggerKind): number {
  return ticket * 4 + kind;
}

/** The idempotency scope of a command: its account's, or engine-wide for account-less commands. */
export function idempotencyKeyOf(command: TCommand): string {
  return `${'accountId' in command ? String(command.accountId) : '*'}:${command.clientKey}`;
}

/** JSON with sorted keys, without the retry-varying fields: two sends of one command match. */
function fingerprint(command: TCommand): string {
  // The text of JSON.stringify(sorted [key, value] entries), written out directly: it runs for
  // every command, and stored fingerprints must keep matching.
  const record = command as unknown as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '[';
  for (const key of keys) {
    const value = record[key];
    if (key === 'time' || key === 'clientKey' || value === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}[${JSON.stringify(key)},${JSON.stringify(value)}]`;
  }
  return `${text}]`;
}

function isAmount(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

export class TradingEngine {
  private readonly symbols = new Map<string, SymbolState>();
  /** The profile states of each symbol (the base state is in `symbols` under the symbol itself). */
  private readonly profileStates = new Map<string, SymbolState[]>();
  private readonly accounts = new Map<number, Account>();
  private readonly positions = new Map<number, Position>();
  private readonly orders = new Map<number, Order>();
  private readonly converters = new Map<string, Converter>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly idempotency = new Map<string, { fingerprint: string; result: TApplyResult }>();
  private readonly risk = new AccountRiskBook();
  private readonly accountsBySlot: Account[] = [];
  private readonly pegs: Readonly<Record<string, TPeg>>;
  private readonly experienceCap: number;
  private readonly fired: number[] = [];
  private readonly acting: number[] = [];
  private readonly quoteOf = (symbol: string): TQuote | undefined => {
    const s = this.symbols.get(symbol);
    return s?.hasQuote ? s : undefined;
  };
  private readonly hasSymbol = (symbol: string): boolean => this.symbols.has(symbol);
  private nextTicket = 1;
  private nextTxId = 1;
  private now = 0;
  private out: TEngineEvent[] | null = null;

  constructor(config: TEngineConfig) {
    this.pegs = config.pegs ?? DEFAULT_PEGS;
    this.experienceCap = config.experienceDepositCapMinor ?? EXPERIENCE_DEPOSIT_CAP_MINOR;
    for (const terms of config.instruments)
      this.symbols.set(terms.symbol, newSymbolState(terms.symbol, terms));
    for (const [profile, list] of Object.entries(config.profiles ?? {})) this.setProfile(profile, list);
  }

  /**
   * Defines or replaces a profile's terms (the broker changed its market configuration). The catalogue
   * fields (digits, contract size, currencies) must equal the base terms. Quotes keep their values
   * until the next tick of each symbol applies the new markup; the host replays the last tick at once.
   */
  setProfile(profile: string, list: readonly TInstrumentTerms[]): void {
    for (const terms of list) {
      const base = this.symbols.get(terms.symbol);
      if (base === undefined) throw new Error(`profile ${profile}: unknown symbol ${terms.symbol}`);
      const b = base.terms;
      if (
        terms.digits !== b.digits ||
        terms.profitCurrency !== b.profitCurrency ||
        terms.marginCurrency !== b.marginCurrency ||
        terms.contractSize.num !== b.contractSize.num ||
        terms.contractSize.den !== b.contractSize.den
      )
        throw new Error(`profile ${profile}: ${terms.symbol} changes catalogue fields`);
      const key = profileKey(terms.symbol, profile);
      const existing = this.symbols.get(key);
      if (existing !== undefined) {
        existing.terms = terms;
        continue;
      }
      const state = newSymbolState(key, terms);
      if (base.hasQuote) this.quoteState(state, base.rawBid, base.rawAsk, base.time);
      this.symbols.set(key, state);
      const list2 = this.profileStates.get(terms.symbol);
      if (list2) list2.push(state);
      else this.profileStates.set(terms.symbol, [state]);
    }
  }

  /** The symbol state an account trades `symbol` on: its profile's, else the base terms. */
  private stateFor(account: Account, symbol: string): SymbolState | undefined {
    if (account.profile !== null) {
      const own = this.symbols.get(profileKey(symbol, account.profile));
      if (own !== undefined) return own;
    }
    return this.symbols.get(symbol);
  }

  private quoteState(sym: SymbolState, rawBid: number, rawAsk: number, time: number): void {
    sym.rawBid = rawBid;
    sym.rawAsk = rawAsk;
    const markup = sym.terms.markupPoints;
    if (markup > 0) {
      const q = applyMarkup(rawBid, rawAsk, markup);
      sym.bid = q.bid;
      sym.ask = q.ask;
    } else {
      sym.bid = rawBid;
      sym.ask = rawAsk;
    }
    sym.hasQuote = true;
    sym.time = time;
  }

  // ---------------------------------------------------------------- ticks

  /**
   * A new raw quote (points, before markup). Fires crossed pending orders and take-profit/stop-loss,
   * revalues the positions the quote moves (its symbol's, and those converted through it), then
   * margin-checks only the accounts whose equity moved: margin call flag, stop-out, negative-balance
   * protection.
   */
  onTick(symbol: string, rawBid: number, rawAsk: number, time: number): readonly TEngineEvent[] {
    const sym = this.symbols.get(symbol);
    if (sym === undefined || !(rawBid > 0) || !(rawAsk >= rawBid)) return NO_EVENTS;
    if (!Number.isSafeInteger(rawBid) || !Number.isSafeInteger(rawAsk)) return NO_EVENTS;
    this.quoteState(sym, rawBid, rawAsk, time);
    const profiles = this.profileStates.get(symbol);
    if (profiles !== undefined) for (const p of profiles) this.quoteState(p, rawBid, rawAsk, time);
    this.now = time;
    this.out = null;
    this.risk.begin();
    for (const c of sym.converters) c.rates = conversionRates(c.path, this.quoteOf);
    if (sym.triggers.anyCrossed(sym.bid, sym.ask)) this.fireTriggers(sym);
    this.revalue(sym);
    if (profiles !== undefined)
      for (const p of profiles) {
        if (p.triggers.anyCrossed(p.bid, p.ask)) this.fireTriggers(p);
        this.revalue(p);
      }
    this.checkMargins();
    const events = this.out ?? NO_EVENTS;
    this.out = null;
    return events;
  }

  private fireTriggers(sym: SymbolState): void {
    const fired = this.fired;
    const deferred: number[] = [];
    // fills add take-profit/stop-loss and activations add limits that the same quote may cross
    for (let round = 0; round < 64 && sym.triggers.anyCrossed(sym.bid, sym.ask); round++) {
      fired.length = 0;
      sym.triggers.popCrossed(sym.bid, sym.ask, fired);
      const batch = fired.slice();
      // closes first (they free margin), then stop-limit activations, then fills
      for (const id of batch) {
        const kind = id % 4;
        if (kind !== TriggerKind.TAKE_PROFIT && kind !== TriggerKind.STOP_LOSS) continue;
        const position = this.positions.get((id - kind) / 4);
        if (position === undefined) continue;
        // not priced in the account currency yet (a cross pair has not ticked since a restore)
        if (position.bucket.converter.rates === undefined) deferred.push(id);
        else this.closePosition(position, position.volume, CloseReason.TAKE_PROFIT_OR_STOP_LOSS);
      }
      for (const id of batch) {
        if (id % 4 !== TriggerKind.ACTIVATION) continue;
        const order = this.orders.get((id - TriggerKind.ACTIVATION) / 4);
        if (order === undefined) continue;
        order.activated = true;
        this.emit({
          type: 'order_activated',
          orderId: order.ticket,
          accountId: order.account.id,
          time: this.now,
        });
        this.addOrderTrigger(order);
      }
      for (const id of batch) {
        if (id % 4 !== TriggerKind.ENTRY) continue;
        const order = this.orders.get((id - TriggerKind.ENTRY) / 4);
        if (order !== undefined && !this.fillOrder(order)) deferred.push(id);
      }
    }
    for (const id of deferred) {
      const kind = (id % 4) as TTriggerKind;
      const ticket = (id - kind) / 4;
      const position = this.positions.get(ticket);
      if (position !== undefined) {
        const book =
          kind === TriggerKind.TAKE_PROFIT ? takeProfitBook(position.side) : stopLossBook(position.side);
        sym.triggers.add(
          book,
          kind === TriggerKind.TAKE_PROFIT ? position.takeProfit! : position.stopLoss!,
          id,
        );
      }
      const order = this.orders.get(ticket);
      if (order !== undefined) this.addOrderTrigger(order);
    }
  }

  /** Recomputes every position the symbol's quote moves and pushes the deltas into account sums. */
  private revalue(sym: SymbolState): void {
    const affected = sym.affected;
    for (let i = 0; i < affected.length; i++) {
      const bucket = affected[i]!;
      const rates = bucket.converter.rates;
      const s = bucket.sym;
      if (bucket.store.count === 0 || rates === undefined || !s.hasQuote) continue;
      bucket.store.revalue(s.bid, s.ask, s.terms.point, rates, this.risk);
    }
  }

  /**
   * Margin-checks the accounts this tick or command moved. The scan only reads; the few accounts that
   * need something done are handled in account-id order, so events never depend on index order.
   */
  private checkMargins(): void {
    const acting = this.acting;
    acting.length = 0;
    if (this.risk.scan(acting) === 0) return;
    const accounts = acting.map((slot) => this.accountsBySlot[slot]!).sort((x, y) => x.id - y.id);
    const risk = this.risk;
    for (const account of accounts) {
      const slot = account.slot;
      let state = risk.state(slot);
      if (state === MarginState.STOP_OUT && this.fullyPriced(account)) {
        this.stopOut(account);
        state = risk.state(slot);
      }
      const inCall = state !== MarginState.OK;
      if (inCall !== (risk.inCall[slot] === 1)) {
        risk.inCall[slot] = inCall ? 1 : 0;
        this.emit({
          type: 'margin_call',
          accountId: account.id,
          active: inCall,
          marginLevelBp: marginLevelBp(this.figures(account)),
          time: this.now,
        });
      }
      if (account.nbp && account.positions.length === 0 && account.balance < 0) {
        this.post(account, 'negative_balance_protection', -account.balance, LedgerAccount.BROKER_NBP, null);
      }
    }
  }

  /** Whether every position of the account is valued at current quotes (not so right after a restore). */
  private fullyPriced(account: Account): boolean {
    for (const p of account.positions)
      if (!p.sym.hasQuote || p.bucket.converter.rates === undefined) return false;
    return true;
  }

  /** Closes the biggest loser first until the margin level is back at or above the stop-out level. */
  private stopOut(account: Account): void {
    this.emit({
      type: 'stop_out',
      accountId: account.id,
      marginLevelBp: marginLevelBp(this.figures(account)),
      time: this.now,
    });
    while (account.positions.length > 0 && this.risk.state(account.slot) === MarginState.STOP_OUT) {
      let worst = account.positions[0]!;
      let worstProfit = this.profitOf(worst);
      for (const p of account.positions) {
        const profit = this.profitOf(p);
        if (profit < worstProfit || (profit === worstProfit && p.ticket < worst.ticket)) {
          worst = p;
          worstProfit = profit;
        }
      }
      this.closePosition(worst, worst.volume, CloseReason.AUTOMATIC);
    }
  }

  /**
   * Loads the latest raw quote of many symbols at once (after a restore without quotes), revaluing
   * every position but firing nothing: triggers and margin checks start with the next real tick, so a
   * half-priced book can never stop an account out.
   */
  primeQuotes(quotes: readonly { symbol: string; bid: number; ask: number; time: number }[]): void {
    for (const q of quotes) {
      const sym = this.symbols.get(q.symbol);
      if (sym === undefined || !(q.bid > 0) || !(q.ask >= q.bid)) continue;
      this.quoteState(sym, q.bid, q.ask, q.time);
      for (const p of this.profileStates.get(q.symbol) ?? []) this.quoteState(p, q.bid, q.ask, q.time);
    }
    for (const c of this.converters.values()) c.rates = conversionRates(c.path, this.quoteOf);
    this.risk.begin();
    for (const bucket of this.buckets.values()) {
      const rates = bucket.converter.rates;
      if (rates !== undefined && bucket.sym.hasQuote)
        bucket.store.revalue(bucket.sym.bid, bucket.sym.ask, bucket.sym.terms.point, rates, this.risk);
    }
    this.risk.begin();
  }

  // ---------------------------------------------------------------- commands

  /** The fingerprint a repeated idempotency key is compared with (time and key left out). */
  fingerprintOf(command: TCommand): string {
    return fingerprint(command);
  }

  /** The fingerprint recorded when this command's key was applied (no recomputing), else its own. */
  recordedFingerprint(command: TCommand): string {
    return this.idempotency.get(idempotencyKeyOf(command))?.fingerprint ?? fingerprint(command);
  }

  /** The next ticket and ledger transaction numbers, for persisting alongside the state. */
  get counters(): { nextTicket: number; nextTxId: number } {
    return { nextTicket: this.nextTicket, nextTxId: this.nextTxId };
  }

  /** Applies one command. A repeated client key returns the first result and changes nothing. */
  apply(command: TCommand): TApplyResult {
    const key = idempotencyKeyOf(command);
    const print = fingerprint(command);
    const prior = this.idempotency.get(key);
    if (prior !== undefined)
      return prior.fingerprint === print ? prior.result : { ok: false, error: 'IDEMPOTENCY_CONFLICT' };
    this.now = command.time;
    this.out = null;
    this.risk.begin();
    let ticket: number | null = null;
    const outcome = this.execute(command);
    let result: TApplyResult;
    if (typeof outcome === 'string') {
      result = { ok: false, error: outcome };
    } else {
      ticket = outcome;
      this.checkMargins();
      result = { ok: true, events: this.out ?? [], ticket };
    }
    this.out = null;
    this.idempotency.set(key, { fingerprint: print, result });
    return result;
  }

  /** Validates everything first and only then changes state: an error leaves the engine untouched. */
  private execute(command: TCommand): TTradingErrorCode | number | null {
    if (command.type === 'create_account') return this.createAccount(command);
    if (command.type === 'rollover') return this.rollover();
    const account = this.accounts.get(command.accountId);
    if (account === undefined) return 'ACCOUNT_NOT_FOUND';
    if (account.closed) return 'ACCOUNT_CLOSED';
    switch (command.type) {
      case 'open_market':
        return this.openMarket(account, command);
      case 'place_pending':
        return this.placePending(account, command);
      case 'modify_position':
        return this.modifyPosition(account, command);
      case 'modify_order':
        return this.modifyOrder(account, command);
      case 'cancel_order':
        return this.cancelOrder(account, command);
      case 'close_position':
        return this.closeCommand(account, command);
      case 'close_all':
        return this.closeAll(account, command);
      case 'deposit':
      case 'withdraw':
      case 'adjust_balance':
        return this.balanceOperation(account, command);
      case 'set_restrictions':
        account.restrictions = { ...command.restrictions };
        this.emit({
          type: 'restrictions_changed',
          accountId: account.id,
          restrictions: { ...account.restrictions },
          time: this.now,
        });
        return null;
      case 'set_levels':
        return this.setLevels(account, command);
      case 'set_profile':
        if (account.positions.length > 0 || account.orders.size > 0) return 'ACCOUNT_HAS_OPEN_TRADES';
        account.profile = command.profile;
        this.emit({ type: 'account_settings_changed', accountId: account.id, time: this.now });
        return null;
      case 'set_external_equity':
        if (!Number.isSafeInteger(command.followEquity) || !Number.isSafeInteger(command.strategyEquity))
          return 'INVALID_AMOUNT';
        account.followEquity = command.followEquity;
        account.strategyEquity = command.strategyEquity;
        this.syncRisk(account);
        this.emit({
          type: 'external_equity_changed',
          accountId: account.id,
          followEquity: command.followEquity,
          strategyEquity: command.strategyEquity,
          time: this.now,
        });
        return null;
      case 'close_account':
        return this.closeAccount(account);
    }
  }

  private setLevels(account: Account, c: TSetLevelsCommand): TTradingErrorCode | null {
    const { marginCallBp, stopOutBp } = c;
    if (!Number.isSafeInteger(marginCallBp) || !Number.isSafeInteger(stopOutBp)) return 'INVALID_AMOUNT';
    if (stopOutBp < 0 || marginCallBp <= stopOutBp) return 'INVALID_AMOUNT';
    account.marginCallBp = marginCallBp;
    account.stopOutBp = stopOutBp;
    account.nbp = c.negativeBalanceProtection;
    this.risk.marginCallBp[account.slot] = marginCallBp;
    this.risk.stopOutBp[account.slot] = stopOutBp;
    this.syncRisk(account);
    this.emit({ type: 'account_settings_changed', accountId: account.id, time: this.now });
    return null;
  }

  private createAccount(c: TCreateAccountCommand): TTradingErrorCode | null {
    if (!Number.isSafeInteger(c.accountId) || c.accountId <= 0) return 'ACCOUNT_NOT_FOUND';
    if (this.accounts.has(c.accountId)) return 'ACCOUNT_EXISTS';
    if (!Number.isSafeInteger(c.initialBalance) || c.initialBalance < 0) return 'INVALID_AMOUNT';
    if (!Number.isSafeInteger(c.leverage) || c.leverage <= 0) return 'INVALID_AMOUNT';
    const account = this.registerAccount({
      id: c.accountId,
      slot: 0,
      type: c.accountType,
      tradeType: c.tradeType,
      currency: c.currency,
      leverage: c.leverage,
      balance: 0,
      followEquity: 0,
      strategyEquity: 0,
      initMoney: c.initialBalance,
      totalIn: 0,
      totalOut: 0,
      marginCallBp: c.marginCallBp ?? DEFAULT_MARGIN_CALL_BP,
      stopOutBp: c.stopOutBp ?? DEFAULT_STOP_OUT_BP,
      nbp:
        c.negativeBalanceProtection ??
        (c.accountType === AccountType.REAL || c.accountType === AccountType.EXPERIENCE),
      restrictions: { ...NO_RESTRICTIONS, ...c.restrictions },
      closed: false,
      profile: c.profile ?? null,
      positions: [],
      orders: new Set(),
    });
    this.emit({ type: 'account_created', accountId: account.id, time: this.now });
    const counter =
      c.accountType === AccountType.DEMO ? LedgerAccount.BROKER_DEMO_CREDIT : LedgerAccount.EXTERNAL_FUNDING;
    this.post(account, 'initial_balance', c.initialBalance, counter, null);
    return null;
  }

  /** Gives an account its risk-book slot and indexes it. */
  private registerAccount(account: Account): Account {
    const slot = this.risk.addSlot();
    account.slot = slot;
    this.accounts.set(account.id, account);
    this.accountsBySlot[slot] = account;
    this.risk.marginCallBp[slot] = account.marginCallBp;
    this.risk.stopOutBp[slot] = account.stopOutBp;
    this.syncRisk(account);
    return account;
  }

  private symbolFor(account: Account, symbol: string): SymbolState | TTradingErrorCode {
    return this.stateFor(account, symbol) ?? 'SYMBOL_UNKNOWN';
  }

  private stopsAllowed(
    account: Account,
    takeProfit: number | null,
    stopLoss: number | null,
    before: { takeProfit: number | null; stopLoss: number | null } | null,
  ): TTradingErrorCode | null {
    // a restriction forbids setting or moving the level; removing it stays possible
    if (takeProfit !== null && takeProfit !== before?.takeProfit) {
      const denied = checkRestriction(account.restrictions, 'take_profit');
      if (denied) return denied;
    }
    if (stopLoss !== null && stopLoss !== before?.stopLoss) {
      const denied = checkRestriction(account.restrictions, 'stop_loss');
      if (denied) return denied;
    }
    return null;
  }

  private openMarket(account: Account, c: TOpenMarketCommand): TTradingErrorCode | number {
    const sym = this.symbolFor(account, c.symbol);
    if (typeof sym === 'string') return sym;
    const takeProfit = c.takeProfit ?? null;
    const stopLoss = c.stopLoss ?? null;
    const error =
      checkRestriction(account.restrictions, 'open') ??
      validateOpening(sym.terms, c.side, this.now) ??
      validateVolume(sym.terms, c.volume) ??
      this.stopsAllowed(account, takeProfit, stopLoss, null);
    if (error) return error;
    if (!sym.hasQuote) return 'NO_PRICE';
    const stopsError = validateStops({
      side: c.side,
      reference: c.side === 'buy' ? sym.bid : sym.ask,
      takeProfit,
      stopLoss,
      distance: minDistance(sym.terms),
    });
    if (stopsError) return stopsError;
    const price = c.side === 'buy' ? sym.ask : sym.bid;
    const costs = this.openingCosts(account, sym, c.side, c.volume, price);
    if (typeof costs === 'string') return costs;
    const marginError = this.marginAllows(account, costs);
    if (marginError) return marginError;
    const ticket = this.nextTicket++;
    this.openPosition(account, sym, ticket, c.side, c.volume, price, takeProfit, stopLoss, costs, null);
    return ticket;
  }

  /** Margin, commission and the floating profit at open (the spread), all in account currency. */
  private openingCosts(
    account: Account,
    sym: SymbolState,
    side: TSide,
    volume: number,
    price: number,
  ): { margin: number; commission: number; profit: number } | TTradingErrorCode {
    const terms = sym.terms;
    const marginConv = this.converter(terms.marginInQuote ? terms.quote : terms.base, account.currency);
    const profitConv = this.converter(terms.profitCurrency, account.currency);
    const commissionConv =
      terms.commissionPerLotMinor > 0 ? this.converter(terms.commissionCurrency, account.currency) : null;
    if (marginConv?.rates === undefined || profitConv?.rates === undefined) return 'NO_PRICE';
    if (commissionConv !== null && commissionConv?.rates === undefined) return 'NO_PRICE';
    // The symbol's cap, lowered for large positions by its leverage tiers.
    const leverage = Math.min(account.leverage, tierLeverage(terms, volume));
    const margin = marginMinor({
      volume,
      contractSize: terms.contractSize,
      digits: terms.digits,
      price,
      marginInQuote: terms.marginInQuote,
      leverage,
      conversion: marginConv.rates,
    });
    const commission = commissionConv?.rates
      ? convert(commissionMinor(volume, terms.commissionPerLotMinor), commissionConv.rates)
      : 0;
    const diff = side === 'buy' ? sym.bid - price : price - sym.ask;
    const profit = profitMinor(diff, volume, terms.point, profitConv.rates);
    return { margin: Math.max(margin, 1), commission, profit };
  }

  /**
   * New exposure needs: no margin call in force; usable margin (spec 5, by trade type) covering the
   * margin plus the commission; and the margin level after the trade still at or above the margin-call
   * level.
   */
  private marginAllows(
    account: Account,
    costs: { margin: number; commission: number; profit: number },
  ): TTradingErrorCode | null {
    if (this.risk.inCall[account.slot] === 1) return 'MARGIN_LEVEL_TOO_LOW';
    const figures = this.figures(account);
    if (usableMargin(figures) - costs.commission < costs.margin) return 'INSUFFICIENT_MARGIN';
    const equityAfter = this.riskEquity(account) - costs.commission + costs.profit;
    const after = marginState(
      equityAfter,
      this.marginOf(account) + costs.margin,
      account.marginCallBp,
      account.stopOutBp,
    );
    return after === MarginState.OK ? null : 'MARGIN_LEVEL_TOO_LOW';
  }

  private openPosition(
    account: Account,
    sym: SymbolState,
    ticket: number,
    side: TSide,
    volume: number,
    price: number,
    takeProfit: number | null,
    stopLoss: number | null,
    costs: { margin: number; commission: number; profit: number },
    orderId: number | null,
  ): Position {
    const bucket = this.bucketFor(sym, account.currency);
    const position: Position = {
      ticket,
      account,
      sym,
      side,
      volume,
      openPrice: price,
      openTime: this.now,
      takeProfit,
      stopLoss,
      margin: costs.margin,
      swap: 0,
      commission: 0,
      bucket,
      bucketIndex: 0,
      accountIndex: 0,
    };
    this.attachPosition(position, costs.profit);
    this.emit({ type: 'position_opened', position: this.positionView(position), orderId, time: this.now });
    if (costs.commission !== 0) {
      position.commission -= costs.commission;
      this.post(account, 'commission', -costs.commission, LedgerAccount.BROKER_COMMISSION, ticket);
    }
    return position;
  }

  private placePending(account: Account, c: TPlacePendingCommand): TTradingErrorCode | number {
    const sym = this.symbolFor(account, c.symbol);
    if (typeof sym === 'string') return sym;
    if (!PENDING_TYPES.includes(c.orderType)) return 'INVALID_PRICE';
    const side = sideOfPending(c.orderType);
    const takeProfit = c.takeProfit ?? null;
    const stopLoss = c.stopLoss ?? null;
    const limitPrice = c.limitPrice ?? null;
    const error =
      checkRestriction(account.restrictions, 'open') ??
      validateOpening(sym.terms, side, this.now) ??
      validateVolume(sym.terms, c.volume) ??
      this.stopsAllowed(account, takeProfit, stopLoss, null);
    if (error) return error;
    if (!sym.hasQuote) return 'NO_PRICE';
    if (this.risk.inCall[account.slot] === 1) return 'MARGIN_LEVEL_TOO_LOW';
    const distance = minDistance(sym.terms);
    const priceError =
      validatePendingPrice({
        type: c.orderType,
        price: c.price,
        limitPrice,
        bid: sym.bid,
        ask: sym.ask,
        distance,
      }) ??
      validateStops({
        side,
        reference: entryPrice(c.orderType, c.price, limitPrice),
        takeProfit,
        stopLoss,
        distance,
      });
    if (priceError) return priceError;
    const order: Order = {
      ticket: this.nextTicket++,
      account,
      sym,
      type: c.orderType,
      volume: c.volume,
      price: c.price,
      limitPrice,
      activated: false,
      takeProfit,
      stopLoss,
      time: this.now,
    };
    this.orders.set(order.ticket, order);
    account.orders.add(order);
    this.addOrderTrigger(order);
    this.emit({ type: 'order_placed', order: this.orderView(order), time: this.now });
    return order.ticket;
  }

  private ownedPosition(account: Account, positionId: number): Position | TTradingErrorCode {
    const position = this.positions.get(positionId);
    if (position !== undefined) return position.account === account ? position : 'POSITION_NOT_FOUND';
    return Number.isSafeInteger(positionId) && positionId > 0 && positionId < this.nextTicket
      ? 'ORDER_ALREADY_CLOSED'
      : 'POSITION_NOT_FOUND';
  }

  private ownedOrder(account: Account, orderId: number): Order | TTradingErrorCode {
    const order = this.orders.get(orderId);
    if (order !== undefined) return order.account === account ? order : 'ORDER_NOT_FOUND';
    return Number.isSafeInteger(orderId) && orderId > 0 && orderId < this.nextTicket
      ? 'ORDER_ALREADY_CLOSED'
      : 'ORDER_NOT_FOUND';
  }

  private modifyPosition(account: Account, c: TModifyPositionCommand): TTradingErrorCode | null {
    const position = this.ownedPosition(account, c.positionId);
    if (typeof position === 'string') return position;
    const sym = position.sym;
    const error =
      validateClosing(sym.terms, this.now) ?? this.stopsAllowed(account, c.takeProfit, c.stopLoss, position);
    if (error) return error;
    const stopsError = validateStops({
      side: position.side,
      reference: position.side === 'buy' ? sym.bid : sym.ask,
      takeProfit: c.takeProfit,
      stopLoss: c.stopLoss,
      distance: minDistance(sym.terms),
    });
    if (stopsError) return stopsError;
    this.removePositionTriggers(position);
    position.takeProfit = c.takeProfit;
    position.stopLoss = c.stopLoss;
    this.addPositionTriggers(position);
    this.emit({
      type: 'position_modified',
      positionId: position.ticket,
      accountId: account.id,
      takeProfit: c.takeProfit,
      stopLoss: c.stopLoss,
      time: this.now,
    });
    return null;
  }

  private modifyOrder(account: Account, c: TModifyOrderCommand): TTradingErrorCode | null {
    const order = this.ownedOrder(account, c.orderId);
    if (typeof order === 'string') return order;
    const sym = order.sym;
    const limitPrice = c.limitPrice ?? null;
    const error =
      validateClosing(sym.terms, this.now) ?? this.stopsAllowed(account, c.takeProfit, c.stopLoss, order);
    if (error) return error;
    const distance = minDistance(sym.terms);
    // an activated stop-limit is a limit order now: only its limit price can move
    const priceError = order.activated
      ? c.price !== order.price
        ? 'INVALID_PRICE'
        : validatePendingPrice({
            type: order.type === 'buy_stop_limit' ? 'buy_limit' : 'sell_limit',
            price: limitPrice ?? 0,
            limitPrice: null,
            bid: sym.bid,
            ask: sym.ask,
            distance,
          })
      : validatePendingPrice({
          type: order.type,
          price: c.price,
          limitPrice,
          bid: sym.bid,
          ask: sym.ask,
          distance,
        });
    const stopsError =
      priceError ??
      validateStops({
        side: sideOfPending(order.type),
        reference: entryPrice(order.type, c.price, limitPrice),
        takeProfit: c.takeProfit,
        stopLoss: c.stopLoss,
        distance,
      });
    if (stopsError) return stopsError;
    this.removeOrderTrigger(order);
    order.price = c.price;
    order.limitPrice = limitPrice;
    order.takeProfit = c.takeProfit;
    order.stopLoss = c.stopLoss;
    this.addOrderTrigger(order);
    this.emit({ type: 'order_modified', order: this.orderView(order), time: this.now });
    return null;
  }

  private cancelOrder(account: Account, c: TCancelOrderCommand): TTradingErrorCode | null {
    const order = this.ownedOrder(account, c.orderId);
    if (typeof order === 'string') return order;
    this.removeOrder(order, 'client');
    return null;
  }

  private closeReason(reason: TCloseReason | undefined): TCloseReason | null {
    const r = reason ?? CloseReason.MANUAL;
    return CLIENT_CLOSE_REASONS.includes(r) ? r : null;
  }

  private closeCommand(account: Account, c: TClosePositionCommand): TTradingErrorCode | null {
    const position = this.ownedPosition(account, c.positionId);
    if (typeof position === 'string') return position;
    const reason = this.closeReason(c.reason);
    if (reason === null) return 'INVALID_CLOSE_REASON';
    const volume = c.volume ?? position.volume;
    // The no-close restriction binds the trader; the broker's own close (2, the dealer) is not held.
    const restricted =
      reason === CloseReason.AUTOMATIC ? null : checkRestriction(account.restrictions, 'close');
    const error = restricted ?? validateClosing(position.sym.terms, this.now);
    if (error) return error;
    const terms = position.sym.terms;
    if (volume !== position.volume) {
      // a partial close is a valid volume that leaves a valid volume open
      if (validateVolume(terms, volume) || volume > position.volume) return 'INVALID_VOLUME';
      const rest = position.volume - volume;
      if (rest < terms.minVolume || (rest - terms.minVolume) % terms.volumeStep !== 0)
        return 'INVALID_VOLUME';
    }
    if (!position.sym.hasQuote || position.bucket.converter.rates === undefined) return 'NO_PRICE';
    this.closePosition(position, volume, reason);
    return null;
  }

  private closeAll(account: Account, c: TCloseAllCommand): TTradingErrorCode | null {
    const reason = this.closeReason(c.reason);
    if (reason === null) return 'INVALID_CLOSE_REASON';
    if (c.symbol !== undefined && !this.symbols.has(c.symbol)) return 'SYMBOL_UNKNOWN';
    const denied = reason === CloseReason.AUTOMATIC ? null : checkRestriction(account.restrictions, 'close');
    if (denied) return denied;
    const targets = account.positions.filter(
      (p) => c.symbol === undefined || p.sym.terms.symbol === c.symbol,
    );
    for (const p of targets) {
      const error = validateClosing(p.sym.terms, this.now);
      if (error) return error;
    }
    for (const p of targets.sort((a, b) => a.ticket - b.ticket)) this.closePosition(p, p.volume, reason);
    return null;
  }

  private closeAccount(account: Account): TTradingErrorCode | null {
    for (const p of account.positions) {
      const error = validateClosing(p.sym.terms, this.now);
      if (error) return error;
    }
    for (const p of [...account.positions].sort((a, b) => a.ticket - b.ticket))
      this.closePosition(p, p.volume, CloseReason.ACCOUNT_CANCELLATION);
    for (const order of [...account.orders].sort((a, b) => a.ticket - b.ticket))
      this.removeOrder(order, 'account_closed');
    // settle a negative balance now: the account will not be margin-checked again
    if (account.nbp && account.balance < 0)
      this.post(account, 'negative_balance_protection', -account.balance, LedgerAccount.BROKER_NBP, null);
    account.closed = true;
    this.emit({ type: 'account_closed', accountId: account.id, time: this.now });
    return null;
  }

  private balanceOperation(account: Account, c: TBalanceCommand): TTradingErrorCode | null {
    if (c.type === 'adjust_balance') {
      if (!Number.isSafeInteger(c.amount) || c.amount === 0) return 'INVALID_AMOUNT';
      if (account.balance + c.amount < 0) return 'INSUFFICIENT_FUNDS';
      this.post(account, 'adjustment', c.amount, LedgerAccount.BROKER_ADJUSTMENT, null);
      return null;
    }
    if (!isAmount(c.amount)) return 'INVALID_AMOUNT';
    if (c.type === 'deposit') {
      if (
        account.type === AccountType.EXPERIENCE &&
        c.amount > this.experienceCap - totalEquity(this.figures(account))
      )
        return 'DEPOSIT_CAP_EXCEEDED';
      account.totalIn -= c.amount;
      this.post(account, 'deposit', c.amount, LedgerAccount.EXTERNAL_FUNDING, null);
      return null;
    }
    const denied = checkRestriction(account.restrictions, 'withdraw');
    if (denied) return denied;
    if (c.amount > account.balance || c.amount > usableMargin(this.figures(account)))
      return 'INSUFFICIENT_FUNDS';
    account.totalOut += c.amount;
    this.post(account, 'withdrawal', -c.amount, LedgerAccount.EXTERNAL_FUNDING, null);
    return null;
  }

  private rollover(): null {
    const weekday = new Date(this.now).getUTCDay();
    const ordered = [...this.positions.values()].sort((a, b) => a.ticket - b.ticket);
    for (const p of ordered) {
      const terms = p.sym.terms;
      const multiplier = swapMultiplier(terms.category, weekday);
      const rates = p.bucket.converter.rates;
      if (multiplier === 0 || rates === undefined) continue;
      const swap = swapMinor({
        volume: p.volume,
        swapCentiPoints: p.side === 'buy' ? terms.swapLongCentiPoints : terms.swapShortCentiPoints,
        point: terms.point,
        multiplier,
        conversion: rates,
      });
      if (swap === 0) continue;
      p.swap += swap;
      this.post(p.account, 'swap', swap, LedgerAccount.BROKER_SWAP, p.ticket);
    }
    return null;
  }

  // ---------------------------------------------------------------- state changes

  /** Fills (or refuses and cancels) a triggered order; false when it cannot be priced yet and must wait. */
  private fillOrder(order: Order): boolean {
    const account = order.account;
    const sym = order.sym;
    const side = sideOfPending(order.type);
    const price = side === 'buy' ? sym.ask : sym.bid;
    this.removeOrderTrigger(order);
    const costs = this.openingCosts(account, sym, side, order.volume, price);
    if (costs === 'NO_PRICE') return false;
    const refusal: TOrderCancelReason | null =
      account.restrictions.noOpen || !sym.terms.enabled || sym.terms.closeOnly
        ? 'restricted'
        : typeof costs === 'string' || this.marginAllows(account, costs) !== null
          ? 'insufficient_margin'
          : null;
    if (refusal !== null || typeof costs === 'string') {
      this.removeOrder(order, refusal ?? 'insufficient_margin');
      return true;
    }
    this.orders.delete(order.ticket);
    account.orders.delete(order);
    this.emit({
      type: 'order_filled',
      orderId: order.ticket,
      accountId: account.id,
      positionId: order.ticket,
      price,
      time: this.now,
    });
    this.openPosition(
      account,
      sym,
      order.ticket,
      side,
      order.volume,
      price,
      order.takeProfit,
      order.stopLoss,
      costs,
      order.ticket,
    );
    return true;
  }

  /** Indexes a position: its bucket, its account, the risk sums and its take-profit/stop-loss triggers. */
  private attachPosition(position: Position, profit: number): void {
    const account = position.account;
    const slot = account.slot;
    position.bucketIndex = position.bucket.store.add(
      position,
      position.openPrice,
      position.volume,
      position.side === 'buy' ? 1 : -1,
      slot,
      profit,
    );
    position.accountIndex = account.positions.length;
    account.positions.push(position);
    this.positions.set(position.ticket, position);
    const risk = this.risk;
    risk.margin[slot] = risk.margin[slot]! + position.margin;
    risk.floating[slot] = risk.floating[slot]! + profit;
    risk.openPositions[slot] = account.positions.length;
    this.addPositionTriggers(position);
    risk.refresh(slot);
  }

  private removeOrder(order: Order, reason: TOrderCancelReason): void {
    this.removeOrderTrigger(order);
    this.orders.delete(order.ticket);
    order.account.orders.delete(order);
    this.emit({
      type: 'order_cancelled',
      orderId: order.ticket,
      accountId: order.account.id,
      reason,
      time: this.now,
    });
  }

  /**
   * Closes `volume` of a position at the current quote (bid for a buy, ask for a sell): realises the
   * profit of that volume, charges the closing commission, releases margin pro rata (the remainder
   * keeps ceil(margin x rest / volume)).
   */
  private closePosition(position: Position, volume: number, reason: TCloseReason): void {
    const account = position.account;
    const sym = position.sym;
    const terms = sym.terms;
    const rates = position.bucket.converter.rates ?? CONVERSION_IDENTITY;
    const closePrice = position.side === 'buy' ? sym.bid : sym.ask;
    const diff = position.side === 'buy' ? closePrice - position.openPrice : position.openPrice - closePrice;
    const realized = profitMinor(diff, volume, terms.point, rates);
    const rest = position.volume - volume;
    const restMargin = rest === 0 ? 0 : mulDiv(position.margin, rest, position.volume, 'ceil');
    const restProfit = rest === 0 ? 0 : profitMinor(diff, rest, terms.point, rates);
    const risk = this.risk;
    const store = position.bucket.store;
    risk.margin[account.slot] = risk.margin[account.slot]! - (position.margin - restMargin);
    risk.floating[account.slot] =
      risk.floating[account.slot]! + restProfit - store.profit[position.bucketIndex]!;
    position.margin = restMargin;
    position.volume = rest;
    store.profit[position.bucketIndex] = restProfit;
    store.volume[position.bucketIndex] = rest;
    if (rest === 0) this.detachPosition(position);
    risk.refresh(account.slot);
    this.emit({
      type: 'position_closed',
      positionId: position.ticket,
      accountId: account.id,
      symbol: terms.symbol,
      side: position.side,
      volume,
      remainingVolume: rest,
      openPrice: position.openPrice,
      closePrice,
      profit: realized,
      reason,
      time: this.now,
    });
    if (realized !== 0)
      this.post(account, 'realized_pnl', realized, LedgerAccount.BROKER_PNL, position.ticket);
    if (terms.commissionPerLotMinor > 0) {
      const conv = this.converter(terms.commissionCurrency, account.currency)?.rates;
      const commission = conv ? convert(commissionMinor(volume, terms.commissionPerLotMinor), conv) : 0;
      if (commission !== 0) {
        position.commission -= commission;
        this.post(account, 'commission', -commission, LedgerAccount.BROKER_COMMISSION, position.ticket);
      }
    }
  }

  private detachPosition(position: Position): void {
    this.removePositionTriggers(position);
    this.positions.delete(position.ticket);
    const moved = position.bucket.store.removeAt(position.bucketIndex);
    if (moved !== undefined) moved.bucketIndex = position.bucketIndex;
    const inAccount = position.account.positions;
    const lastInAccount = inAccount.pop()!;
    if (lastInAccount !== position) {
      inAccount[position.accountIndex] = lastInAccount;
      lastInAccount.accountIndex = position.accountIndex;
    }
    this.risk.openPositions[position.account.slot] = inAccount.length;
  }

  private addPositionTriggers(p: Position): void {
    const triggers = p.sym.triggers;
    if (p.takeProfit !== null)
      triggers.add(takeProfitBook(p.side), p.takeProfit, triggerId(p.ticket, TriggerKind.TAKE_PROFIT));
    if (p.stopLoss !== null)
      triggers.add(stopLossBook(p.side), p.stopLoss, triggerId(p.ticket, TriggerKind.STOP_LOSS));
  }

  private removePositionTriggers(p: Position): void {
    const triggers = p.sym.triggers;
    if (p.takeProfit !== null)
      triggers.remove(takeProfitBook(p.side), p.takeProfit, triggerId(p.ticket, TriggerKind.TAKE_PROFIT));
    if (p.stopLoss !== null)
      triggers.remove(stopLossBook(p.side), p.stopLoss, triggerId(p.ticket, TriggerKind.STOP_LOSS));
  }

  private orderTrigger(order: Order): { book: TBook; price: number; kind: TTriggerKind } {
    return pendingTrigger(order.type, order.price, order.limitPrice, order.activated);
  }

  private addOrderTrigger(order: Order): void {
    const t = this.orderTrigger(order);
    order.sym.triggers.add(t.book, t.price, triggerId(order.ticket, t.kind));
  }

  private removeOrderTrigger(order: Order): void {
    const t = this.orderTrigger(order);
    order.sym.triggers.remove(t.book, t.price, triggerId(order.ticket, t.kind));
  }

  /** A balance change as a two-legged ledger transaction: the trader's balance against `counter`. */
  private post(
    account: Account,
    kind: TLedgerKind,
    amount: number,
    counter: string,
    positionId: number | null,
  ): void {
    if (amount === 0) return;
    account.balance += amount;
    this.syncRisk(account);
    this.emit({
      type: 'ledger',
      txId: this.nextTxId++,
      accountId: account.id,
      kind,
      currency: account.currency,
      postings: [
        { ledgerAccount: traderLedgerAccount(account.id), amount },
        { ledgerAccount: counter, amount: -amount },
      ],
      balanceAfter: account.balance,
      positionId,
      time: this.now,
    });
  }

  private emit(event: TEngineEvent): void {
    if (this.out === null) this.out = [];
    this.out.push(event);
  }

  private converter(from: string, to: string): Converter | undefined {
    const key = `${from}|${to}`;
    let converter = this.converters.get(key);
    if (converter === undefined) {
      const path = conversionPath(from, to, this.hasSymbol, this.pegs);
      if (path === undefined) return undefined;
      converter = { path, rates: conversionRates(path, this.quoteOf) };
      this.converters.set(key, converter);
      for (const symbol of pathSymbols(path)) this.symbols.get(symbol)?.converters.push(converter);
    }
    return converter;
  }

  private bucketFor(sym: SymbolState, currency: string): Bucket {
    const key = `${sym.key}|${currency}`;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      const converter = this.converter(sym.terms.profitCurrency, currency);
      if (converter === undefined)
        throw new Error(`no conversion ${sym.terms.profitCurrency} -> ${currency}`);
      bucket = { sym, converter, store: new PositionBucket<Position>() };
      this.buckets.set(key, bucket);
      sym.affected.push(bucket);
      for (const symbol of pathSymbols(converter.path)) {
        const other = this.symbols.get(symbol);
        if (other !== undefined && other !== sym && !other.affected.includes(bucket))
          other.affected.push(bucket);
      }
    }
    return bucket;
  }

  /**
   * Refreshes the risk book after a balance or external-equity change: the margin level is measured on
   * total equity for our accounts (spec 5) and on equity for MT accounts.
   */
  private syncRisk(account: Account): void {
    const slot = account.slot;
    this.risk.riskBase[slot] = isMetaTrader(account.type)
      ? account.balance
      : account.balance + account.followEquity + account.strategyEquity;
    this.risk.negativeProtected[slot] = account.nbp && account.balance < 0 ? 1 : 0;
    this.risk.refresh(slot);
  }

  private riskEquity(account: Account): number {
    return this.risk.riskBase[account.slot]! + this.risk.floating[account.slot]!;
  }

  private profitOf(position: Position): number {
    return position.bucket.store.profit[position.bucketIndex]!;
  }

  private floatingOf(account: Account): number {
    return this.risk.floating[account.slot]!;
  }

  private marginOf(account: Account): number {
    return this.risk.margin[account.slot]!;
  }

  private figures(account: Account): TAccountFigures {
    const floating = this.floatingOf(account);
    const margin = this.marginOf(account);
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

  account(accountId: number): TAccountView | undefined {
    const a = this.accounts.get(accountId);
    if (a === undefined) return undefined;
    const f = this.figures(a);
    return {
      accountId: a.id,
      accountType: a.type,
      tradeType: a.tradeType,
      currency: a.currency,
      leverage: a.leverage,
      balance: a.balance,
      equity: a.balance + this.floatingOf(a),
      totalProfit: this.floatingOf(a),
      margin: this.marginOf(a),
      followEquity: a.followEquity,
      strategyEquity: a.strategyEquity,
      totalEquity: totalEquity(f),
      usableMargin: usableMargin(f),
      marginLevelBp: marginLevelBp(f),
      accountProfit: accountProfit(f),
      initMoney: a.initMoney,
      totalInAmount: a.totalIn,
      totalOutAmount: a.totalOut,
      marginCallBp: a.marginCallBp,
      stopOutBp: a.stopOutBp,
      marginCall: this.risk.inCall[a.slot] === 1,
      negativeBalanceProtection: a.nbp,
      restrictions: { ...a.restrictions },
      closed: a.closed,
      profile: a.profile,
    };
  }

  accountIds(): number[] {
    return [...this.accounts.keys()].sort((a, b) => a - b);
  }

  positionsOf(accountId: number): TPositionView[] {
    const a = this.accounts.get(accountId);
    if (a === undefined) return [];
    return a.positions.map((p) => this.positionView(p)).sort((x, y) => x.positionId - y.positionId);
  }

  ordersOf(accountId: number): TOrderView[] {
    const a = this.accounts.get(accountId);
    if (a === undefined) return [];
    return [...a.orders].map((o) => this.orderView(o)).sort((x, y) => x.orderId - y.orderId);
  }

  position(positionId: number): TPositionView | undefined {
    const p = this.positions.get(positionId);
    return p === undefined ? undefined : this.positionView(p);
  }

  order(orderId: number): TOrderView | undefined {
    const o = this.orders.get(orderId);
    return o === undefined ? undefined : this.orderView(o);
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
    const account = this.accounts.get(accountId);
    if (account === undefined) return { error: 'ACCOUNT_NOT_FOUND' };
    const sym = this.symbolFor(account, symbol);
    if (typeof sym === 'string') return { error: sym };
    const volumeError = validateVolume(sym.terms, volume);
    if (volumeError) return { error: volumeError };
    if (!sym.hasQuote) return { error: 'NO_PRICE' };
    const price = side === 'buy' ? sym.ask : sym.bid;
    const costs = this.openingCosts(account, sym, side, volume, price);
    if (typeof costs === 'string') return { error: costs };
    return { margin: costs.margin, commission: costs.commission, price };
  }

  /** The quote after markup, or undefined before the first tick. */
  quote(
    symbol: string,
    profile: string | null = null,
  ): { bid: number; ask: number; time: number } | undefined {
    const s =
      (profile !== null ? this.symbols.get(profileKey(symbol, profile)) : undefined) ??
      this.symbols.get(symbol);
    return s?.hasQuote ? { bid: s.bid, ask: s.ask, time: s.time } : undefined;
  }

  get counts(): { accounts: number; positions: number; orders: number; triggers: number } {
    let triggers = 0;
    for (const s of this.symbols.values()) triggers += s.triggers.size;
    return {
      accounts: this.accounts.size,
      positions: this.positions.size,
      orders: this.orders.size,
      triggers,
    };
  }

  private positionView(p: Position): TPositionView {
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
      margin: p.margin,
      profit: this.profitOf(p),
      swap: p.swap,
      commission: p.commission,
    };
  }

  private orderView(o: Order): TOrderView {
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
    };
  }

  /**
   * Recomputes every running figure from scratch and lists what disagrees: account floating profit and
   * margin sums, each position's profit at the current quotes, positive margin, and that every take-
   * profit, stop-loss and pending order sits in its book (and nothing else does). Empty when sound.
   */
  checkInvariants(): string[] {
    const problems: string[] = [];
    const inBooks = new Set<string>();
    for (const sym of this.symbols.values())
      sym.triggers.books.forEach((book, b) => {
        for (const [key, id] of book.entries()) inBooks.add(`${sym.terms.symbol}:${b}:${key}:${id}`);
      });
    const bookHas = (sym: SymbolState, book: TBook, price: number, id: number) =>
      inBooks.has(`${sym.terms.symbol}:${book}:${book === 0 || book === 2 ? price : -price}:${id}`);
    let expectedTriggers = 0;
    for (const a of this.accounts.values()) {
      let floating = 0;
      let margin = 0;
      a.positions.forEach((p, i) => {
        const store = p.bucket.store;
        floating += this.profitOf(p);
        margin += p.margin;
        if (p.accountIndex !== i) problems.push(`position ${p.ticket} account index`);
        if (store.items[p.bucketIndex] !== p) problems.push(`position ${p.ticket} bucket index`);
        if (store.volume[p.bucketIndex] !== p.volume || store.open[p.bucketIndex] !== p.openPrice)
          problems.push(`position ${p.ticket} store out of step`);
        if (store.slot[p.bucketIndex] !== a.slot) problems.push(`position ${p.ticket} slot`);
        if (p.margin <= 0) problems.push(`position ${p.ticket} has no margin`);
        const rates = p.bucket.converter.rates;
        if (rates !== undefined && p.sym.hasQuote) {
          const diff = p.side === 'buy' ? p.sym.bid - p.openPrice : p.openPrice - p.sym.ask;
          const profit = profitMinor(diff, p.volume, p.sym.terms.point, rates);
          if (profit !== this.profitOf(p))
            problems.push(`position ${p.ticket} profit ${this.profitOf(p)} != ${profit}`);
        }
        const tp = p.takeProfit !== null;
        const sl = p.stopLoss !== null;
        expectedTriggers += (tp ? 1 : 0) + (sl ? 1 : 0);
        if (tp && !bookHas(p.sym, takeProfitBook(p.side), p.takeProfit!, triggerId(p.ticket, 0)))
          problems.push(`position ${p.ticket} take-profit missing`);
        if (sl && !bookHas(p.sym, stopLossBook(p.side), p.stopLoss!, triggerId(p.ticket, 1)))
          problems.push(`position ${p.ticket} stop-loss missing`);
      });
      if (floating !== this.floatingOf(a))
        problems.push(`account ${a.id} floating ${this.floatingOf(a)} != ${floating}`);
      if (margin !== this.marginOf(a))
        problems.push(`account ${a.id} margin ${this.marginOf(a)} != ${margin}`);
      if (this.risk.openPositions[a.slot] !== a.positions.length)
        problems.push(`account ${a.id} position count`);
      const base = isMetaTrader(a.type) ? a.balance : a.balance + a.followEquity + a.strategyEquity;
      if (this.risk.riskBase[a.slot] !== base) problems.push(`account ${a.id} risk base`);
      const exact = marginState(base + floating, margin, a.marginCallBp, a.stopOutBp);
      if (this.risk.state(a.slot) !== exact) problems.push(`account ${a.id} margin floors out of step`);
      for (const o of a.orders) {
        expectedTriggers++;
        const t = this.orderTrigger(o);
        if (!bookHas(o.sym, t.book, t.price, triggerId(o.ticket, t.kind)))
          problems.push(`order ${o.ticket} trigger missing`);
      }
    }
    let positionsInAccounts = 0;
    for (const a of this.accounts.values()) positionsInAccounts += a.positions.length;
    if (positionsInAccounts !== this.positions.size) problems.push('position index out of step');
    if (this.counts.triggers !== expectedTriggers)
      problems.push(`books hold ${this.counts.triggers} triggers, expected ${expectedTriggers}`);
    return problems;
  }

  // ---------------------------------------------------------------- snapshot

  snapshot(): TEngineSnapshot {
    const quotes: TEngineSnapshot['quotes'] = [];
    for (const s of this.symbols.values())
      if (s.hasQuote && s.key === s.terms.symbol)
        quotes.push({ symbol: s.terms.symbol, bid: s.bid, ask: s.ask, time: s.time });
    const accounts: TAccountRow[] = [];
    const positions: TPositionRow[] = [];
    const orders: TOrderView[] = [];
    for (const id of this.accountIds()) {
      const a = this.accounts.get(id)!;
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
        marginCall: this.risk.inCall[a.slot] === 1,
        negativeBalanceProtection: a.nbp,
        restrictions: { ...a.restrictions },
        closed: a.closed,
        profile: a.profile,
      });
      for (const p of this.positionsOf(id)) {
        const { profit: _profit, ...row } = p;
        positions.push(row);
      }
      orders.push(...this.ordersOf(id));
    }
    return {
      version: 1,
      nextTicket: this.nextTicket,
      nextTxId: this.nextTxId,
      quotes,
      accounts,
      positions,
      orders,
      idempotency: [...this.idempotency].map(([key, v]) => ({
        key,
        fingerprint: v.fingerprint,
        result: v.result,
      })),
    };
  }

  /** Rebuilds an engine from a snapshot (or from persisted rows shaped like one). */
  static restore(snapshot: TEngineSnapshot, config: TEngineConfig): TradingEngine {
    const engine = new TradingEngine(config);
    engine.nextTicket = snapshot.nextTicket;
    engine.nextTxId = snapshot.nextTxId;
    for (const q of snapshot.quotes) {
      const s = engine.symbols.get(q.symbol);
      if (s === undefined) continue;
      s.bid = q.bid;
      s.ask = q.ask;
      s.time = q.time;
      s.hasQuote = true;
      // The stored quote carries the base markup: take it off for the raw quote profiles derive from.
      const down = Math.floor(s.terms.markupPoints / 2);
      s.rawBid = q.bid + down;
      s.rawAsk = q.ask - (s.terms.markupPoints - down);
      for (const p of engine.profileStates.get(q.symbol) ?? [])
        engine.quoteState(p, s.rawBid, s.rawAsk, q.time);
    }
    for (const row of snapshot.accounts) {
      const account = engine.registerAccount({
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
        positions: [],
        orders: new Set(),
      });
      engine.risk.inCall[account.slot] = row.marginCall ? 1 : 0;
    }
    for (const row of snapshot.positions) {
      const account = engine.accounts.get(row.accountId);
      const sym = account === undefined ? undefined : engine.stateFor(account, row.symbol);
      if (account === undefined || sym === undefined) throw new Error(`orphan position ${row.positionId}`);
      const bucket = engine.bucketFor(sym, account.currency);
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
        margin: row.margin,
        swap: row.swap,
        commission: row.commission,
        bucket,
        bucketIndex: 0,
        accountIndex: 0,
      };
      engine.attachPosition(position, profit);
    }
    for (const row of snapshot.orders) {
      const account = engine.accounts.get(row.accountId);
      const sym = account === undefined ? undefined : engine.stateFor(account, row.symbol);
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
      };
      engine.orders.set(order.ticket, order);
      account.orders.add(order);
      engine.addOrderTrigger(order);
    }
    for (const entry of snapshot.idempotency)
      engine.idempotency.set(entry.key, { fingerprint: entry.fingerprint, result: entry.result });
    return engine;
  }
}
