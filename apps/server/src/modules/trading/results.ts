import { AppError, AppErrorCode, type TAppErrorCode } from '@broker/domain/result-codes';
import type { TApplyResult, TCommand } from '@broker/domain/trading/engine-core';
import type { TTradingErrorCode } from '@broker/domain/trading/errors';
import type { EngineHost } from './engine-host';

/** Engine rejections as the client's stable codes (spec 8 texts where the spec names them). */
export const ERROR_CODES: Record<TTradingErrorCode, TAppErrorCode> = {
  INSUFFICIENT_MARGIN: AppErrorCode.INSUFFICIENT_MARGIN,
  MARGIN_LEVEL_TOO_LOW: AppErrorCode.MARGIN_LEVEL_TOO_LOW,
  INSUFFICIENT_FUNDS: AppErrorCode.INSUFFICIENT_FUNDS,
  DEPOSIT_CAP_EXCEEDED: AppErrorCode.DEPOSIT_CAP_EXCEEDED,
  ORDER_ALREADY_CLOSED: AppErrorCode.ORDER_ALREADY_DONE,
  POSITION_ALREADY_CLOSED: AppErrorCode.POSITION_ALREADY_CLOSED,
  ORDER_NOT_FOUND: AppErrorCode.ORDER_NOT_FOUND,
  POSITION_NOT_FOUND: AppErrorCode.ORDER_NOT_FOUND,
  ACCOUNT_NOT_FOUND: AppErrorCode.ACCOUNT_NOT_FOUND,
  ACCOUNT_EXISTS: AppErrorCode.INTERNAL,
  ACCOUNT_HAS_OPEN_TRADES: AppErrorCode.GROUP_HAS_OPEN_TRADES,
  ACCOUNT_CLOSED: AppErrorCode.ACCOUNT_CLOSED,
  ACCOUNT_RESTRICTED: AppErrorCode.ACCOUNT_RESTRICTED,
  SYMBOL_UNKNOWN: AppErrorCode.SYMBOL_DISABLED,
  SYMBOL_DISABLED: AppErrorCode.SYMBOL_DISABLED,
  SYMBOL_CLOSE_ONLY: AppErrorCode.CANNOT_CLOSE_OR_SHORT,
  SHORT_NOT_ALLOWED: AppErrorCode.CANNOT_CLOSE_OR_SHORT,
  MARKET_CLOSED: AppErrorCode.TRADING_TIME_ENDED,
  NO_PRICE: AppErrorCode.NO_PRICE,
  INVALID_VOLUME: AppErrorCode.INVALID_VOLUME,
  INVALID_PRICE: AppErrorCode.INVALID_PRICE,
  INVALID_STOPS: AppErrorCode.INVALID_STOPS,
  INVALID_TRAILING_STOP: AppErrorCode.INVALID_TRAILING_STOP,
  INVALID_AMOUNT: AppErrorCode.VALIDATION_FAILED,
  INVALID_CLOSE_REASON: AppErrorCode.VALIDATION_FAILED,
  IDEMPOTENCY_CONFLICT: AppErrorCode.IDEMPOTENCY_CONFLICT,
  // Copy trading (issue 18): its own social codes (-51xx).
  COPY_NOT_ALLOWED: AppErrorCode.COPY_NOT_ALLOWED,
  COPY_MODE_MISMATCH: AppErrorCode.COPY_MODE_MISMATCH,
  COPY_FOLLOWING_LIMIT: AppErrorCode.COPY_FOLLOWING_LIMIT,
  COPY_FOLLOWERS_LIMIT: AppErrorCode.COPY_FOLLOWERS_LIMIT,
  COPY_LEADER_PAUSED: AppErrorCode.COPY_LEADER_PAUSED,
  COPY_ALREADY_FOLLOWING: AppErrorCode.COPY_ALREADY_FOLLOWING,
  COPY_NOT_FOUND: AppErrorCode.COPY_NOT_FOUND,
  // Strategies (issue 19): mapped onto existing codes until the strategies module brings its own
  // (-52xx, with their translations).
  STRATEGY_NOT_ALLOWED: AppErrorCode.STRATEGY_NOT_ALLOWED,
  STRATEGY_NOVICE_MODE: AppErrorCode.STRATEGY_NOVICE_MODE,
  STRATEGY_ACCOUNT_BUSY: AppErrorCode.STRATEGY_ACCOUNT_BUSY,
  STRATEGY_EXISTS: AppErrorCode.IDEMPOTENCY_CONFLICT,
  STRATEGY_NOT_FOUND: AppErrorCode.STRATEGY_NOT_FOUND,
  STRATEGY_INVALID: AppErrorCode.STRATEGY_INVALID,
  STRATEGY_MANAGED: AppErrorCode.STRATEGY_MANAGED,
  STRATEGY_STOPPED: AppErrorCode.STRATEGY_STOPPED,
};

/** Engine errors that share a spec code but deserve their own message. */
const MESSAGE_KEYS: Partial<Record<TTradingErrorCode, string>> = {
  SYMBOL_CLOSE_ONLY: 'errors.-3002.closeOnly',
  SHORT_NOT_ALLOWED: 'errors.-3002.noShort',
};

/** An engine refusal as the AppError the client sees. */
export function engineError(error: TTradingErrorCode): AppError {
  return new AppError(
    ERROR_CODES[error] ?? AppErrorCode.INTERNAL,
    undefined,
    undefined,
    undefined,
    MESSAGE_KEYS[error],
  );
}

/** The accepted result, or its refusal thrown as an AppError. */
export function unwrap(result: TApplyResult) {
  if (!result.ok) throw engineError(result.error);
  return result;
}

/** Applies an engine command after its durable commit; a refusal becomes its AppError. */
export async function submitOrThrow(host: EngineHost, command: TCommand) {
  return unwrap(await host.submit(command));
}
