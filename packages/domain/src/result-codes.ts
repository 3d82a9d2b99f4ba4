/**
 * Stable result codes, grouped by range as in exchange-core:
 * authentication -1xxx, risk -2xxx, orders -3xxx, funding -4xxx, social and contests -5xxx,
 * back office -6xxx, system -9xxx.
 * Each code has a translation key `errors.<code>` in every locale catalog.
 */
export const AppErrorCode = {
  TOKEN_INVALID: -1001,
  ACCOUNT_OR_PASSWORD_WRONG: -1002,
  EMAIL_ALREADY_REGISTERED: -1003,
  USER_NOT_FOUND: -1004,
  PHONE_FORMAT_WRONG: -1005,
  CAPTCHA_FAILED: -1006,
  VERIFICATION_CODE_WRONG: -1007,
  LOCKED_OUT: -1008,
  FORBIDDEN: -1009,
  CSRF_REJECTED: -1010,
  REGION_FORBIDDEN: -1011,
  CODE_TOO_FREQUENT: -1012,
  CODE_EXPIRED: -1013,
  MESSAGE_NOT_DELIVERED: -1014,
  PHONE_ALREADY_REGISTERED: -1015,
  TWO_FACTOR_REQUIRED: -1016,
  TWO_FACTOR_WRONG: -1017,
  IDENTITY_PROVIDER_FAILED: -1018,
  IDENTITY_BOUND_ELSEWHERE: -1019,
  LAST_SIGN_IN_METHOD: -1020,
  HANDOFF_INVALID: -1021,
  INSUFFICIENT_MARGIN: -2001,
  MARGIN_LEVEL_TOO_LOW: -2002,
  ORDER_ALREADY_DONE: -3001,
  CANNOT_CLOSE_OR_SHORT: -3002,
  SYMBOL_DISABLED: -3003,
  TRADING_TIME_ENDED: -3004,
  ORDER_NOT_FOUND: -3005,
  ACCOUNT_NOT_FOUND: -3006,
  ACCOUNT_CLOSED: -3007,
  ACCOUNT_RESTRICTED: -3008,
  NO_PRICE: -3009,
  INVALID_VOLUME: -3010,
  INVALID_PRICE: -3011,
  INVALID_STOPS: -3012,
  IDEMPOTENCY_CONFLICT: -3013,
  ORDER_SIGNATURE_INVALID: -3014,
  ACCOUNT_LIMIT_REACHED: -3015,
  /** Closing or changing a position that is already closed (not a pending order: -3001). */
  POSITION_ALREADY_CLOSED: -3016,
  /** A trailing stop distance that is not whole points between the symbol's stops level and 1,000,000. */
  INVALID_TRAILING_STOP: -3017,
  INSUFFICIENT_FUNDS: -4001,
  DEPOSIT_CAP_EXCEEDED: -4002,
  /** Funding (issue 17): -41xx. */
  KYC_REQUIRED: -4101,
  FUND_PASSWORD_REQUIRED: -4102,
  FUND_PASSWORD_WRONG: -4103,
  WITHDRAW_LOCKED: -4104,
  METHOD_UNAVAILABLE: -4105,
  AMOUNT_OUT_OF_LIMITS: -4106,
  WITHDRAWAL_NOT_CANCELLABLE: -4107,
  FUNDING_NOT_ALLOWED: -4108,
  COINS_INSUFFICIENT: -4109,
  DESTINATION_INVALID: -4110,
  PROVIDER_FAILED: -4111,
  SECOND_APPROVER_REQUIRED: -4112,
  /** KYC (issue 17): -42xx. A level already waiting for review: one pending submission per level. */
  KYC_PENDING: -4201,
  /** The level is approved already: nothing to submit again. */
  KYC_ALREADY_APPROVED: -4202,
  /** The senior level opens once the basic level is approved. */
  KYC_BASIC_FIRST: -4203,
  VOTE_TOO_FREQUENT: -5001,
  DAILY_VOTE_LIMIT: -5002,
  NOT_REGISTERED_FOR_CONTEST: -5003,
  /** Copy trading (issue 18): -51xx. This account cannot copy this leader (type, own account, sub-account). */
  COPY_NOT_ALLOWED: -5101,
  /** Spec 5: only traders in the same mode can be followed. */
  COPY_MODE_MISMATCH: -5102,
  /** The leader takes no new followers (paused by the leader, or suspended by the broker). */
  COPY_LEADER_PAUSED: -5103,
  /** Spec 9: a trader has at most 1,000 followers. */
  COPY_FOLLOWERS_LIMIT: -5104,
  /** Spec 9: a user follows at most 10 traders. */
  COPY_FOLLOWING_LIMIT: -5105,
  COPY_ALREADY_FOLLOWING: -5106,
  /** The copy account copies nobody (stopped, or not a copy of this trader). */
  COPY_NOT_FOUND: -5107,
  /** No approved leader with this account. */
  LEADER_NOT_FOUND: -5108,
  /** The account has applied to lead already. */
  LEADER_EXISTS: -5109,
  /** Below the leader's minimum copy amount. */
  COPY_AMOUNT_TOO_LOW: -5110,
  /** A performance fee above the broker's maximum (at most 30 %). */
  LEADER_FEE_TOO_HIGH: -5111,
  /** Only a main real or demo account that is not copying anyone can lead. */
  LEADER_NOT_ELIGIBLE: -5112,
  /** Strategy bots (issue 19): -52xx. Not a strategy account of the trader's. */
  STRATEGY_NOT_ALLOWED: -5201,
  /** Spec 6: novice mode (trade type 1) cannot use strategies. */
  STRATEGY_NOVICE_MODE: -5202,
  /** The strategy account runs a bot already, or holds positions or orders. */
  STRATEGY_ACCOUNT_BUSY: -5203,
  STRATEGY_NOT_FOUND: -5204,
  /** A parameter out of range or not valid for the symbol now. */
  STRATEGY_INVALID: -5205,
  /** The order or position belongs to a working bot: stop the bot first. */
  STRATEGY_MANAGED: -5206,
  /** The bot is stopped already. */
  STRATEGY_STOPPED: -5207,
  /** Its worst case breaches the margin rules: the margin call would come inside its own range. */
  STRATEGY_WORST_CASE: -5208,
  /** Price alerts (issue 21): -54xx. The trader has the most active alerts allowed (50). */
  ALERT_LIMIT_REACHED: -5401,
  /** No alert with this id among the trader's. */
  ALERT_NOT_FOUND: -5402,
  /** The price is already beyond the alert's level: it would fire at once. */
  ALERT_ALREADY_MET: -5403,
  /** A price with more decimals than the symbol has, or a level or move out of range. */
  ALERT_INVALID: -5404,
  /** The expiry is in the past or more than a year away. */
  ALERT_EXPIRY_INVALID: -5405,
  STAFF_USERNAME_TAKEN: -6001,
  ROLE_NAME_TAKEN: -6002,
  ROLE_PARENT_LOOP: -6003,
  PERMISSION_NOT_GRANTABLE: -6004,
  ROLE_IN_USE: -6005,
  PASSWORD_TOO_WEAK: -6006,
  TWO_FACTOR_SETUP_REQUIRED: -6007,
  CANNOT_CHANGE_SELF: -6008,
  RECORD_NOT_FOUND: -6009,
  APPROVAL_BY_REQUESTER: -6010,
  APPROVAL_NOT_PENDING: -6011,
  GROUP_HAS_OPEN_TRADES: -6012,
  CONFIG_INVALID: -6013,
  VERSION_EXISTS: -6014,
  MODULE_NOT_IN_PACKAGE: -6015,
  BROKER_SLUG_TAKEN: -6016,
  STALE_UPDATE: -6017,
  LAST_ADMINISTRATOR: -6018,
  PACKAGE_LIMIT_REACHED: -6019,
  /** A weakening change of the staff sign-in rules already waits for a second approver. */
  POLICY_CHANGE_PENDING: -6020,
  /** The change weakens a protection of permissions the staff member does not hold. */
  PROTECTION_BEYOND_ACTOR: -6021,
  VALIDATION_FAILED: -9001,
  ROUTE_NOT_FOUND: -9002,
  RATE_LIMITED: -9003,
  TENANT_UNKNOWN: -9004,
  SERVICE_UNAVAILABLE: -9005,
  FILE_TOO_LARGE: -9006,
  FILE_TYPE_REFUSED: -9007,
  /** Chunked uploads (issue 17): -91xx. A merge asked before every chunk arrived. */
  UPLOAD_INCOMPLETE: -9101,
  /** The chunks are being merged by another request: ask again in a moment. */
  UPLOAD_BUSY: -9102,
  /** The upload id was started with another purpose or chunk count, or is finished. */
  UPLOAD_CONFLICT: -9103,
  INTERNAL: -9999,
} as const;

export type TAppErrorCode = (typeof AppErrorCode)[keyof typeof AppErrorCode];

/** HTTP status that accompanies each code on the wire. */
export function httpStatusFor(code: TAppErrorCode): number {
  switch (code) {
    case AppErrorCode.TOKEN_INVALID:
    case AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG:
    case AppErrorCode.TWO_FACTOR_REQUIRED:
    case AppErrorCode.TWO_FACTOR_WRONG:
      return 401;
    case AppErrorCode.FORBIDDEN:
    case AppErrorCode.CSRF_REJECTED:
    case AppErrorCode.REGION_FORBIDDEN:
      return 403;
    case AppErrorCode.ROUTE_NOT_FOUND:
    case AppErrorCode.USER_NOT_FOUND:
    case AppErrorCode.TENANT_UNKNOWN:
    case AppErrorCode.ACCOUNT_NOT_FOUND:
    case AppErrorCode.RECORD_NOT_FOUND:
    case AppErrorCode.ALERT_NOT_FOUND:
      return 404;
    case AppErrorCode.APPROVAL_BY_REQUESTER:
    case AppErrorCode.CANNOT_CHANGE_SELF:
    case AppErrorCode.TWO_FACTOR_SETUP_REQUIRED:
    case AppErrorCode.MODULE_NOT_IN_PACKAGE:
    case AppErrorCode.PACKAGE_LIMIT_REACHED:
    case AppErrorCode.PROTECTION_BEYOND_ACTOR:
      return 403;
    case AppErrorCode.STAFF_USERNAME_TAKEN:
    case AppErrorCode.ROLE_NAME_TAKEN:
    case AppErrorCode.ROLE_IN_USE:
    case AppErrorCode.APPROVAL_NOT_PENDING:
    case AppErrorCode.GROUP_HAS_OPEN_TRADES:
    case AppErrorCode.VERSION_EXISTS:
    case AppErrorCode.BROKER_SLUG_TAKEN:
    case AppErrorCode.STALE_UPDATE:
    case AppErrorCode.LAST_ADMINISTRATOR:
    case AppErrorCode.POLICY_CHANGE_PENDING:
      return 409;
    case AppErrorCode.ACCOUNT_RESTRICTED:
    case AppErrorCode.ORDER_SIGNATURE_INVALID:
      return 403;
    case AppErrorCode.IDEMPOTENCY_CONFLICT:
      return 409;
    case AppErrorCode.FILE_TOO_LARGE:
      return 413;
    case AppErrorCode.FILE_TYPE_REFUSED:
      return 415;
    case AppErrorCode.IDENTITY_PROVIDER_FAILED:
    case AppErrorCode.PROVIDER_FAILED:
      return 502;
    case AppErrorCode.KYC_REQUIRED:
    case AppErrorCode.SECOND_APPROVER_REQUIRED:
      return 403;
    case AppErrorCode.WITHDRAWAL_NOT_CANCELLABLE:
    case AppErrorCode.ALERT_LIMIT_REACHED:
      return 409;
    case AppErrorCode.KYC_PENDING:
    case AppErrorCode.KYC_ALREADY_APPROVED:
    case AppErrorCode.KYC_BASIC_FIRST:
    case AppErrorCode.UPLOAD_INCOMPLETE:
    case AppErrorCode.UPLOAD_BUSY:
    case AppErrorCode.UPLOAD_CONFLICT:
      return 409;
    case AppErrorCode.LOCKED_OUT:
    case AppErrorCode.RATE_LIMITED:
    case AppErrorCode.CODE_TOO_FREQUENT:
    case AppErrorCode.VOTE_TOO_FREQUENT:
    case AppErrorCode.DAILY_VOTE_LIMIT:
      return 429;
    case AppErrorCode.SERVICE_UNAVAILABLE:
    case AppErrorCode.MESSAGE_NOT_DELIVERED:
      return 503;
    case AppErrorCode.INTERNAL:
      return 500;
    default:
      return 400;
  }
}

/** The one error class of the app; the client parses the same shape back into it. */
export class AppError extends Error {
  readonly code: TAppErrorCode;
  /** Values interpolated into the translated message. */
  readonly details: Record<string, string | number> | undefined;
  /** Field-level problems for forms: field name -> translation key under `validation.`. */
  readonly fields: Record<string, string> | undefined;
  /** A more precise message than the code's own (`errors.<code>.<case>`); the code stays the same. */
  readonly messageKey: string | undefined;
  constructor(
    code: TAppErrorCode,
    details?: Record<string, string | number>,
    debugMessage?: string,
    fields?: Record<string, string>,
    messageKey?: string,
  ) {
    super(debugMessage ?? `AppError ${code}`);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.fields = fields;
    this.messageKey = messageKey;
  }

  /** A validation failure on named fields, e.g. `AppError.invalid({ password: 'passwordSameAsOld' })`. */
  static invalid(fields: Record<string, string>): AppError {
    return new AppError(AppErrorCode.VALIDATION_FAILED, undefined, undefined, fields);
  }
}

export const SUCCESS_CODE = 200;
