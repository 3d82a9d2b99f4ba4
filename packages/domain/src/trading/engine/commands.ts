/** The commands the engine applies, and how a repeated command is recognised (idempotency). */
import type { TAccountType, TTradeType } from '../calculations';
import type { TTradingErrorCode } from '../errors';
import type { TCloseReason, TPendingType, TRestrictions, TSide } from '../orders';
import type { TStrategySpecInput } from './strategy/types';

/** What a command's handler returns: the reason it was refused, else `T` (null, or the new ticket). */
export type TOutcome<T> = TTradingErrorCode | T;

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
  /**
   * A copy or strategy sub-account of a main account (same owner, type and currency): funded only by
   * transfers from it, its risk ring-fenced (its losses never stop out the main account, nor the reverse).
   */
  parentId?: number | null;
  purpose?: TSubAccountPurpose | null;
}

export type TSubAccountPurpose = 'copy' | 'strategy';

export type TTransferType =
  | 'transfer_follow_out'
  | 'transfer_follow_in'
  | 'transfer_strategy_out'
  | 'transfer_strategy_in';

/**
 * Spec 3 and 4 transfers between a main account and one of its sub-accounts: `_out` from the main
 * account to the sub-account, `_in` back. `accountId` is the paying account. Only from free margin.
 */
export interface TTransferCommand extends TCommandBase {
  type: 'transfer';
  accountId: number;
  toAccountId: number;
  transferType: TTransferType;
  amount: number;
}

/**
 * The withdrawal pipeline after the hold (`withdraw`): a rejected, failed or cancelled withdrawal is
 * released back to the balance; a completed one is settled out of the hold (less its fee, which the
 * broker keeps) without touching the balance again.
 */
export interface TWithdrawalStepCommand extends TCommandBase {
  type: 'release_withdrawal' | 'settle_withdrawal';
  accountId: number;
  /** The held amount (minor units). */
  amount: number;
  /** settle only: the broker's fee out of the amount. */
  fee?: number;
}

/** Coins exchanged into an experience account (1 coin = 1 cent), within its deposit cap. */
export interface TCoinCreditCommand extends TCommandBase {
  type: 'coin_credit';
  accountId: number;
  amount: number;
}

export interface TOpenMarketCommand extends TCommandBase {
  type: 'open_market';
  accountId: number;
  symbol: string;
  side: TSide;
  volume: number;
  takeProfit?: number | null;
  stopLoss?: number | null;
  /** Trailing stop distance in points (null, 0 or absent: none). */
  trailingStop?: number | null;
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
  /** Trailing stop distance in points: null or 0 removes it, absent leaves it as it is. */
  trailingStop?: number | null;
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
  /**
   * An adjustment that restores a demo account's starting balance (demo reset): credited from the
   * demo credit like the first balance, so it is neither paid in nor paid out.
   */
  demoReset?: boolean;
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

/** How a copy relation sizes the leader's trades (docs/copy-trading.md has worked numbers). */
export type TCopyMode = 'fixed_lot' | 'fixed_margin' | 'ratio' | 'equity';

export const COPY_MODES: readonly TCopyMode[] = ['fixed_lot', 'fixed_margin', 'ratio', 'equity'];

/** A copy relation's sizing and the follower's risk controls; integers throughout, null for none. */
export interface TCopySettings {
  mode: TCopyMode;
  /**
   * fixed_lot: hundredths of a lot per trade; fixed_margin: margin per trade in minor units of the copy
   * account's currency; ratio: basis points of the leader's volume (10,000 = the same volume);
   * equity: unused (0), the copy account's equity over the leader's sizes the trade.
   */
  modeValue: number;
  /** Most hundredths of a lot one copied trade may have (the copy is cut down to it). */
  maxVolume: number | null;
  /** Most copied positions open at once in the copy account. */
  maxPositions: number | null;
  /** Skip a copy whose fill is worse than the leader's by more than this many points. */
  maxSlippagePoints: number | null;
  /** Copy stop-loss: stop (closing every copy) once the copy's loss reaches this share of the allocated funds, in basis points. */
  stopLossBp: number | null;
  /** Copy take-profit: stop (closing every copy) once the copy's profit reaches this share of the allocated funds. */
  takeProfitBp: number | null;
  /** Copy the leader's take-profit and stop-loss (and their changes) onto the copies. */
  copyStops: boolean;
  /** At the start, copy the leader's positions already open (else only new ones). */
  copyExisting: boolean;
  /**
   * The leader's performance fee, locked when the relation starts: basis points (0 to 3,000) of the
   * copy's profit above its high-water mark, settled by `settle_copy_fee`.
   */
  feeBp: number;
}

/**
 * Starts or changes a copy relation: the follower's copy sub-account (`accountId`) copies the leader's
 * main account. Starting one checks the limits (followed leaders per main account, followers per
 * leader) atomically; changing one keeps its leader and its open copies.
 */
export interface TSetCopyCommand
  extends TCommandBase,
    Partial<Omit<TCopySettings, 'mode' | 'modeValue'>>,
    Pick<TCopySettings, 'mode' | 'modeValue'> {
  type: 'set_copy';
  accountId: number;
  leaderAccountId: number;
}

/**
 * Ends the copy relation of a copy account: its copies are closed at the market (close reason 4) or
 * kept as the follower's own positions, unlinked from the leader's.
 */
export interface TStopCopyCommand extends TCommandBase {
  type: 'stop_copy';
  accountId: number;
  closePositions: boolean;
}

/** Pausing copies nothing new (the open copies still follow the leader's closes); resuming ends it. */
export interface TPauseCopyCommand extends TCommandBase {
  type: 'pause_copy' | 'resume_copy';
  accountId: number;
}

/** A leader's main account takes new followers or not (those copying it already carry on). */
export interface TSetLeaderCommand extends TCommandBase {
  type: 'set_leader';
  accountId: number;
  followersPaused: boolean;
  /**
   * Suspended by the broker: no new followers, and nothing new is copied (`leader_suspended`); the
   * open copies still follow the leader's closes. Unchanged when absent.
   */
  suspended?: boolean;
}

/**
 * Settles the leader's performance fee of a copy account (weekly, and when the copy stops): the
 * copy's profit before fees (balance − allocated + fees paid) above its high-water mark, times the
 * relation's fee, moves from the copy account to the leader's account as one ledger transaction;
 * the mark rises to that profit. Nothing is charged at or below the mark. Only realised profit
 * counts (the balance), and only what the copy account's free margin allows is taken: the mark then
 * rises only by the profit that was paid for.
 */
export interface TSettleCopyFeeCommand extends TCommandBase {
  type: 'settle_copy_fee';
  accountId: number;
}

/**
 * Starts a grid or martingale bot on a strategy sub-account (docs/strategies.md): one bot at a time per
 * strategy account, which must hold no position or order. `strategyId` is the server's number for it;
 * every order and position the bot makes carries it.
 */
export type TStartStrategyCommand = TCommandBase & {
  type: 'start_strategy';
  accountId: number;
  strategyId: number;
} & TStrategySpecInput;

/**
 * Stops a bot at the trader's request: its pending orders are cancelled, and its positions closed at
 * the market with close reason 6, or kept ("stopped with position open": a later close by the trader
 * is reason 6 too). On a bot already stopped with positions open, `closePositions` closes them.
 */
export interface TStopStrategyCommand extends TCommandBase {
  type: 'stop_strategy';
  accountId: number;
  strategyId: number;
  closePositions: boolean;
  /** Who stops it: the trader (default) or the broker's staff acting for the trader (stop reason `broker`). */
  by?: 'client' | 'broker';
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
  | TCloseAccountCommand
  | TTransferCommand
  | TWithdrawalStepCommand
  | TCoinCreditCommand
  | TSetCopyCommand
  | TStopCopyCommand
  | TPauseCopyCommand
  | TSetLeaderCommand
  | TSettleCopyFeeCommand
  | TStartStrategyCommand
  | TStopStrategyCommand;

/** The idempotency scope of a command: its account's, or engine-wide for account-less commands. */
export function idempotencyKeyOf(command: TCommand): string {
  return `${'accountId' in command ? String(command.accountId) : '*'}:${command.clientKey}`;
}

/** JSON with sorted keys, without the retry-varying fields: two sends of one command match. */
export function fingerprint(command: TCommand): string {
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
