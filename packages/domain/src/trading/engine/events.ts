/** What the engine reports: the events a command or tick produces, and the read views they carry. */
import type { TAccountType, TTradeType } from '../calculations';
import type { TTradingErrorCode } from '../errors';
import type { TCloseReason, TPendingType, TRestrictions, TSide } from '../orders';
import type { TCopySettings } from './commands';
import type { TStrategyAction, TStrategyView } from './strategy/types';

export type TLedgerKind =
  | 'initial_balance'
  | 'deposit'
  | 'withdrawal'
  | 'adjustment'
  | 'realized_pnl'
  | 'commission'
  | 'swap'
  | 'negative_balance_protection'
  | 'withdrawal_release'
  | 'withdrawal_settled'
  | 'coin_exchange'
  | 'transfer_follow_out'
  | 'transfer_follow_in'
  | 'transfer_strategy_out'
  | 'transfer_strategy_in'
  /** A leader's performance fee: a leg on the follower's copy account and one on the leader's. */
  | 'copy_fee';

/** One leg of a ledger transaction: a positive amount increases that ledger account's balance. */
export interface TPosting {
  ledgerAccount: string;
  amount: number;
}

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
  /** Trailing stop distance in points; null when the position has none. */
  trailingStop: number | null;
  /** Margin held, account-currency minor units. */
  margin: number;
  /** Floating profit at the last quotes, account-currency minor units. */
  profit: number;
  /** Swap and commission charged so far (already in the balance). */
  swap: number;
  commission: number;
  /** A copied position: the leader's position it copies (null for the account's own positions). */
  parentTicket: number | null;
  /** A bot's position: its strategy (null for the trader's own). */
  strategyId: number | null;
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
  /** A bot's order: its strategy (null for the trader's own). */
  strategyId: number | null;
}

/** `strategy`: cancelled by its bot (stopped, or its range moved). */
export type TOrderCancelReason =
  | 'client'
  | 'insufficient_margin'
  | 'restricted'
  | 'account_closed'
  | 'strategy';

export type TCopyStatus = 'active' | 'paused' | 'stopped';

/**
 * Why a relation ended: the follower stopped it (closing or keeping the copies), its copy stop-loss or
 * take-profit was reached, or the leader's or the follower's account was closed.
 */
export type TCopyStopReason =
  | 'client_close'
  | 'client_keep'
  | 'stop_loss'
  | 'take_profit'
  | 'leader_closed'
  | 'follower_closed';

/** A copy relation as stored: the copy account (`accountId`) copies the leader's main account. */
export interface TCopyRelationView extends TCopySettings {
  accountId: number;
  leaderAccountId: number;
  status: TCopyStatus;
  stopReason: TCopyStopReason | null;
  createdAt: number;
  updatedAt: number;
  /** The copy's profit before fees (minor units) on which the leader's fee has been settled. */
  hwm: number;
  /** Fees paid to the leader so far (minor units of the copy account). */
  feesPaid: number;
}

/** Why a leader's trade was not copied (or a close, a take-profit/stop-loss change not followed). */
export type TCopySkipReason =
  | 'paused'
  | 'below_min_volume'
  | 'max_volume'
  | 'max_positions'
  | 'slippage'
  | 'insufficient_margin'
  | 'margin_level'
  | 'market_closed'
  | 'symbol_unavailable'
  | 'restricted'
  | 'no_price'
  | 'no_equity'
  | 'invalid_stops'
  | 'leader_suspended';

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
      /** The trailing distance in points after the change (null: none). */
      trailingStop: number | null;
      time: number;
    }
  /**
   * A trailing stop moved the position's stop-loss after the price (the engine's move, on a tick).
   * Only the stop-loss changed; copies of the position trail on their own.
   */
  | { type: 'stop_loss_trailed'; positionId: number; accountId: number; stopLoss: number; time: number }
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
      /** A copy's leader position (null for the account's own positions). */
      parentTicket: number | null;
      /** A bot's position: its strategy. */
      strategyId: number | null;
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
  | { type: 'stop_out'; accountId: number; marginLevelBp: number; time: number }
  /** A copy relation started, changed, paused, resumed or stopped; `accountId` is the copy account. */
  | { type: 'copy_relation_changed'; accountId: number; relation: TCopyRelationView; time: number }
  /**
   * A leader's action a follower did not copy, never silently: an open (with the volume it scaled to,
   * when it got that far), a close it could not follow, or a take-profit/stop-loss change. `accountId`
   * is the follower's copy account.
   */
  | {
      type: 'copy_skipped';
      accountId: number;
      leaderAccountId: number;
      leaderPositionId: number;
      action: 'open' | 'close' | 'modify';
      reason: TCopySkipReason;
      /** Hundredths of a lot the copy scaled to, when it was computed. */
      volume: number | null;
      time: number;
    }
  /** A copied position became the follower's own: its link to the leader's position is gone. */
  | { type: 'position_unlinked'; accountId: number; positionId: number; parentTicket: number; time: number }
  /**
   * A copy's fee settlement (`settle_copy_fee`): the profit before fees, the mark before and after,
   * the fee charged to the copy account and credited (converted) to the leader's; `ledgerTxId` is the
   * ledger transaction, null when nothing was charged.
   */
  | {
      type: 'copy_fee_settled';
      accountId: number;
      leaderAccountId: number;
      /** `period`: a weekly settlement (`settle_copy_fee`); `stop`: the relation ended (follower, copy stop-loss or take-profit). */
      reason: 'period' | 'stop';
      profit: number;
      markBefore: number;
      markAfter: number;
      fee: number;
      credited: number;
      ledgerTxId: number | null;
      time: number;
    }
  /** A bot started, changed state, or changed what it holds (persisted: a restart restores it exactly). */
  | { type: 'strategy_changed'; accountId: number; strategy: TStrategyView; time: number }
  /** What a bot did and why: its log. */
  | {
      type: 'strategy_log';
      accountId: number;
      strategyId: number;
      action: TStrategyAction;
      /** Why: a stop reason, a refusal code, a close reason, the trigger... */
      reason: string | null;
      /** The grid cell (index) or martingale add (number) it concerns. */
      level: number | null;
      price: number | null;
      volume: number | null;
      ticket: number | null;
      profit: number | null;
      time: number;
    };

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
  /** Copy and strategy sub-accounts: their main account and purpose; null for main accounts. */
  parentId: number | null;
  purpose: 'copy' | 'strategy' | null;
  /** A leader's main account that takes no new followers for now. */
  followersPaused: boolean;
  /** Suspended by the broker: no new followers, nothing new copied. */
  leaderSuspended: boolean;
}
