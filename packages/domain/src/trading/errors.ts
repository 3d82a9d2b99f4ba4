/**
 * Rejection reasons of the trading core. They are names, not numbers: the server maps each one to an
 * `AppErrorCode` (risk -2xxx, orders -3xxx, funding -4xxx) and its translated message.
 */
export const TRADING_ERROR_CODES = [
  /** Usable margin does not cover the margin (and commission) of the new position. */
  'INSUFFICIENT_MARGIN',
  /** The account is at or below its margin-call level: no new positions until it recovers. */
  'MARGIN_LEVEL_TOO_LOW',
  /** A withdrawal larger than the usable margin or the balance. */
  'INSUFFICIENT_FUNDS',
  /** An experience-account deposit above the cap minus the current net value (spec 5). */
  'DEPOSIT_CAP_EXCEEDED',
  /** The pending order was already filled or cancelled (spec 8). */
  'ORDER_ALREADY_CLOSED',
  /** The position was already closed. */
  'POSITION_ALREADY_CLOSED',
  'ORDER_NOT_FOUND',
  'POSITION_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'ACCOUNT_EXISTS',
  /** The account was closed (cancelled); it accepts nothing more. */
  'ACCOUNT_CLOSED',
  /** The account still has positions or pending orders (moving it to another group). */
  'ACCOUNT_HAS_OPEN_TRADES',
  /** A per-account restriction forbids this (no open, close, take-profit, stop-loss or withdrawal). */
  'ACCOUNT_RESTRICTED',
  'SYMBOL_UNKNOWN',
  'SYMBOL_DISABLED',
  /** The symbol only accepts closing trades (spec 8: cannot be closed or short-sold). */
  'SYMBOL_CLOSE_ONLY',
  'SHORT_NOT_ALLOWED',
  /** Outside the symbol's trading sessions (spec 8: trading time ended). */
  'MARKET_CLOSED',
  /** No quote yet for the symbol or for a pair needed to convert its currencies. */
  'NO_PRICE',
  /** Below the minimum, above the maximum, or not a multiple of the volume step. */
  'INVALID_VOLUME',
  /** A pending price on the wrong side of the market, or a stop-limit whose limit is past its stop. */
  'INVALID_PRICE',
  /** Take-profit or stop-loss on the wrong side of the reference price or too close to it. */
  'INVALID_STOPS',
  /**
   * A trailing stop distance that is not a whole number of points between the symbol's stops level
   * and `MAX_TRAILING_POINTS` (orders.ts).
   */
  'INVALID_TRAILING_STOP',
  /** An amount that is not a positive safe integer. */
  'INVALID_AMOUNT',
  /** A close reason the client may not give (2 and 3 belong to the engine). */
  'INVALID_CLOSE_REASON',
  /** The idempotency key was used before for a different command. */
  'IDEMPOTENCY_CONFLICT',
  /**
   * Copy trading: the follower is not a copy sub-account, the leader not another owner's main account
   * of the same account type, or the copy account already copies someone else.
   */
  'COPY_NOT_ALLOWED',
  /** Spec 5: only traders in the same mode (trade type) can be followed. */
  'COPY_MODE_MISMATCH',
  /** Spec 9: a main account follows at most 10 leaders. */
  'COPY_FOLLOWING_LIMIT',
  /** Spec 9: a leader has at most 1,000 followers. */
  'COPY_FOLLOWERS_LIMIT',
  /** The leader takes no new followers for now. */
  'COPY_LEADER_PAUSED',
  /** The main account already copies this leader through another copy account. */
  'COPY_ALREADY_FOLLOWING',
  /** The copy account copies nobody. */
  'COPY_NOT_FOUND',
  /** Strategies (issue 19): not a strategy sub-account, or its main account is another's. */
  'STRATEGY_NOT_ALLOWED',
  /** Spec 6: novice mode (trade type 1) cannot use strategies. */
  'STRATEGY_NOVICE_MODE',
  /** The strategy account runs a bot already, or holds positions or orders a new bot would not own. */
  'STRATEGY_ACCOUNT_BUSY',
  /** The strategy id is in use. */
  'STRATEGY_EXISTS',
  /** No such bot on this account (or it is stopped and closed). */
  'STRATEGY_NOT_FOUND',
  /** A bot's parameter is out of range (levels, grids, volumes, steps, prices, percentages). */
  'STRATEGY_INVALID',
  /** The order or position belongs to a running bot: stop the bot first. */
  'STRATEGY_MANAGED',
  /** The bot is stopped already and holds nothing to close. */
  'STRATEGY_STOPPED',
] as const;

export type TTradingErrorCode = (typeof TRADING_ERROR_CODES)[number];
