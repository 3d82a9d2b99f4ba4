import { z } from 'zod';
import { define } from './route-kit';
import { ROUTE_PATHS } from './route-paths';

/** Decimal strings on the wire, integers inside: prices, lots and money are never floats. */
const ZDecimal = z.string().regex(/^-?\d{1,15}(\.\d{1,10})?$/, 'amountFormat');
const ZLots = z.string().regex(/^\d{1,6}(\.\d{1,2})?$/, 'lotsFormat');
const ZAccountId = z.coerce.number().int().positive();
const ZTicket = z.coerce.number().int().positive();
const ZSymbol = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,12}$/, 'symbolFormat');
/** An idempotency key: 8–64 printable ASCII characters (a UUID, say); written into group commits. */
const ZKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\x20-\x7e]+$/);
const ZSide = z.enum(['buy', 'sell']);
const ZOptionalPrice = ZDecimal.nullable().optional();
/**
 * A trailing stop distance in whole points of the symbol (0 or null: none). Its range (the symbol's
 * stops level to 1,000,000) is the engine's check, answered -3017.
 */
const ZTrailingPoints = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable();

/** Spec 3 Account (list entry). */
export const ZAccountEntry = z.object({
  account_id: z.number().int(),
  account_type: z.number().int(),
  trade_type: z.number().int(),
  /** 1 when the account's connection is abnormal (MT bridge down); the built-in engine is 0. */
  is_abnormal: z.number().int(),
  equity: z.string(),
  balance: z.string(),
  currency: z.string(),
  currency_symbol: z.string(),
  leverage: z.number().int(),
  created_at: z.string(),
});

/** Spec 3 Account info, plus the spec 5 derived figures. */
export const ZAccountInfo = z.object({
  account_id: z.number().int(),
  account_type: z.number().int(),
  trade_type: z.number().int(),
  currency: z.string(),
  currency_symbol: z.string(),
  leverage: z.number().int(),
  balance: z.string(),
  equity: z.string(),
  total_equity: z.string(),
  freeMargin: z.string(),
  margin: z.string(),
  profit: z.string(),
  floating_profit: z.string(),
  init_money: z.string(),
  total_in_amount: z.string(),
  total_out_amount: z.string(),
  follow_equity: z.string(),
  strategy_equity: z.string(),
  /** Margin level: equity / margin as a percentage with 2 decimals ("0.00" without margin). */
  margin_level: z.string(),
  margin_call_level: z.string(),
  stop_out_level: z.string(),
  margin_call: z.boolean(),
  restrictions: z.object({
    noOpen: z.boolean(),
    noClose: z.boolean(),
    noTakeProfit: z.boolean(),
    noStopLoss: z.boolean(),
    noWithdraw: z.boolean(),
  }),
  is_abnormal: z.number().int(),
});

export const ZPosition = z.object({
  order_id: z.number().int(),
  account_id: z.number().int(),
  symbol: z.string(),
  side: ZSide,
  volume: z.string(),
  open_price: z.string(),
  current_price: z.string(),
  open_time: z.number().int(),
  take_profit: z.string().nullable(),
  stop_loss: z.string().nullable(),
  /** Trailing stop distance in points (null: none); the engine moves `stop_loss` after the price. */
  trailing_stop: z.number().int().nullable(),
  margin: z.string(),
  swap: z.string(),
  commission: z.string(),
  profit: z.string(),
  digits: z.number().int(),
  /** A bot's position (spec 3 strategy order): its strategy's id; null for the trader's own. */
  strategy_id: z.number().int().nullable(),
});

export const ZPendingOrder = z.object({
  order_id: z.number().int(),
  account_id: z.number().int(),
  symbol: z.string(),
  type: z.enum(['buy_limit', 'sell_limit', 'buy_stop', 'sell_stop', 'buy_stop_limit', 'sell_stop_limit']),
  volume: z.string(),
  price: z.string(),
  limit_price: z.string().nullable(),
  activated: z.boolean(),
  take_profit: z.string().nullable(),
  stop_loss: z.string().nullable(),
  time: z.number().int(),
  digits: z.number().int(),
  /** A bot's order: its strategy's id; null for the trader's own. */
  strategy_id: z.number().int().nullable(),
});

export const ZDeal = z.object({
  id: z.number().int(),
  position_id: z.number().int(),
  symbol: z.string(),
  side: ZSide,
  volume: z.string(),
  open_price: z.string(),
  close_price: z.string(),
  open_time: z.number().int(),
  close_time: z.number().int(),
  /** Hold time in seconds (spec 5 shows it in s, min or h). */
  hold_seconds: z.number().int(),
  profit: z.string(),
  swap: z.string(),
  commission: z.string(),
  /** Spec 4 close reasons: 1 manual, 2 automatic (stop-out), 3 take-profit or stop-loss, 4–7 copy, strategy, cancellation. */
  close_reason: z.number().int(),
  /** A bot's position: its strategy's id; null for the trader's own. */
  strategy_id: z.number().int().nullable(),
});

export const ZFinishedOrder = z.object({
  order_id: z.number().int(),
  symbol: z.string(),
  type: z.string(),
  volume: z.string(),
  price: z.string(),
  limit_price: z.string().nullable(),
  take_profit: z.string().nullable(),
  stop_loss: z.string().nullable(),
  placed_time: z.number().int(),
  done_time: z.number().int(),
  status: z.enum(['filled', 'cancelled']),
  cancel_reason: z.string().nullable(),
  position_id: z.number().int().nullable(),
  fill_price: z.string().nullable(),
  /** A bot's order: its strategy's id; null for the trader's own. */
  strategy_id: z.number().int().nullable(),
});

const ZHistoryQuery = z
  .object({
    account_id: ZAccountId,
    /** Milliseconds since the epoch; default the last 30 days. */
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    symbol: ZSymbol.optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(200).default(20),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ['from'],
    message: 'periodReversed',
  });

const trade = { kind: 'user' } as const;

export const tradingRoutes = {
  accountcategory: define({
    name: 'accountcategory',
    path: ROUTE_PATHS.accountcategory,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Account types a trader can open, with their currency, starting balance and leverage choices',
    input: z.object({}).passthrough(),
    output: z.array(
      z.object({
        account_type: z.number().int(),
        trade_types: z.array(z.number().int()),
        currency: z.string(),
        currency_symbol: z.string(),
        initial_balance: z.string(),
        leverages: z.array(z.number().int()),
        default_leverage: z.number().int(),
        /** How many more of this type (per trade type) the trader may open. */
        remaining: z.record(z.string(), z.number().int()),
      }),
    ),
  }),
  accountlist: define({
    name: 'accountlist',
    path: ROUTE_PATHS.accountlist,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's accounts (spec 3 Account), demo first",
    input: z.object({}).passthrough(),
    output: z.array(ZAccountEntry),
  }),
  accountcreate: define({
    name: 'accountcreate',
    path: ROUTE_PATHS.accountcreate,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Opens a demo (100,000), real (0 until funded) or experience (cent) account',
    input: z.object({
      account_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      trade_type: z.union([z.literal(1), z.literal(2)]),
      leverage: z.number().int().min(1).max(3000),
      idempotencyKey: ZKey,
    }),
    output: ZAccountEntry,
  }),
  info: define({
    name: 'info',
    path: ROUTE_PATHS.info,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Live account info: balance, equity, margin, usable margin, margin level, profit',
    input: z.object({ account_id: ZAccountId }),
    output: ZAccountInfo,
  }),
  demoreset: define({
    name: 'demoreset',
    path: ROUTE_PATHS.demoreset,
    access: trade,
    mutates: true,
    trade: true,
    summary: 'Resets a demo account: closes everything and restores the 100,000 balance',
    input: z.object({ account_id: ZAccountId, idempotencyKey: ZKey }),
    output: ZAccountInfo,
  }),
  positions: define({
    name: 'positions',
    path: ROUTE_PATHS.positions,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Open positions with live profit',
    input: z.object({ account_id: ZAccountId }),
    output: z.array(ZPosition),
  }),
  pendingorders: define({
    name: 'pendingorders',
    path: ROUTE_PATHS.pendingorders,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Pending orders',
    input: z.object({ account_id: ZAccountId }),
    output: z.array(ZPendingOrder),
  }),
  ordersend: define({
    name: 'ordersend',
    path: ROUTE_PATHS.ordersend,
    access: trade,
    mutates: true,
    trade: true,
    summary:
      'Opens a market position or places a pending order; signed over open_lot, side, account_id, leverage, symbol_id and nonce (spec 7.9)',
    input: z.object({
      account_id: ZAccountId,
      symbol: ZSymbol,
      side: ZSide,
      type: z.enum(['market', 'limit', 'stop', 'stop_limit']),
      volume: ZLots,
      price: ZOptionalPrice,
      limit_price: ZOptionalPrice,
      take_profit: ZOptionalPrice,
      stop_loss: ZOptionalPrice,
      /** Market orders only: a trailing stop distance in points (a pending order with one: -3017). */
      trailing_stop: ZTrailingPoints.optional(),
      idempotencyKey: ZKey,
      nonce: z.string().regex(/^\d{13}-[A-Za-z0-9]{8,32}$/, 'nonceFormat'),
      signature: z.string().regex(/^[a-f0-9]{64}$/, 'signatureFormat'),
    }),
    output: z.object({ ticket: z.number().int(), kind: z.enum(['position', 'order']) }),
  }),
  ordermodify: define({
    name: 'ordermodify',
    path: ROUTE_PATHS.ordermodify,
    access: trade,
    mutates: true,
    trade: true,
    summary: "Changes a pending order's price, limit price, take-profit and stop-loss",
    input: z.object({
      account_id: ZAccountId,
      order_id: ZTicket,
      price: ZDecimal,
      limit_price: ZOptionalPrice,
      take_profit: ZOptionalPrice,
      stop_loss: ZOptionalPrice,
      idempotencyKey: ZKey,
    }),
    output: z.object({ ok: z.literal(true) }),
  }),
  ordercancel: define({
    name: 'ordercancel',
    path: ROUTE_PATHS.ordercancel,
    access: trade,
    mutates: true,
    trade: true,
    summary: 'Cancels a pending order',
    input: z.object({ account_id: ZAccountId, order_id: ZTicket, idempotencyKey: ZKey }),
    output: z.object({ ok: z.literal(true) }),
  }),
  positionmodify: define({
    name: 'positionmodify',
    path: ROUTE_PATHS.positionmodify,
    access: trade,
    mutates: true,
    trade: true,
    summary:
      "Sets or clears a position's take-profit, stop-loss and trailing stop (points; absent leaves it, 0 or null clears it)",
    input: z.object({
      account_id: ZAccountId,
      order_id: ZTicket,
      take_profit: ZOptionalPrice,
      stop_loss: ZOptionalPrice,
      trailing_stop: ZTrailingPoints.optional(),
      idempotencyKey: ZKey,
    }),
    output: z.object({ ok: z.literal(true) }),
  }),
  positionclose: define({
    name: 'positionclose',
    path: ROUTE_PATHS.positionclose,
    access: trade,
    mutates: true,
    trade: true,
    summary: 'Closes a position, or part of it',
    input: z.object({
      account_id: ZAccountId,
      order_id: ZTicket,
      volume: ZLots.optional(),
      idempotencyKey: ZKey,
    }),
    output: z.object({ closed: z.number().int(), profit: z.string() }),
  }),
  closeall: define({
    name: 'closeall',
    path: ROUTE_PATHS.closeall,
    access: trade,
    mutates: true,
    trade: true,
    summary: 'Closes every position of the account, or every one of a symbol',
    input: z.object({ account_id: ZAccountId, symbol: ZSymbol.optional(), idempotencyKey: ZKey }),
    output: z.object({ closed: z.number().int(), profit: z.string() }),
  }),
  ordermargin: define({
    name: 'ordermargin',
    path: ROUTE_PATHS.ordermargin,
    access: { kind: 'user' },
    mutates: false,
    summary: 'The margin and commission a new position would need, and the usable margin now',
    input: z.object({ account_id: ZAccountId, symbol: ZSymbol, side: ZSide, volume: ZLots }),
    output: z.object({
      margin: z.string(),
      commission: z.string(),
      usable_margin: z.string(),
      currency: z.string(),
      price: z.string(),
    }),
  }),
  dealhistory: define({
    name: 'dealhistory',
    path: ROUTE_PATHS.dealhistory,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Closed positions (one row per close) by date and symbol, newest first',
    input: ZHistoryQuery,
    output: z.object({
      items: z.array(ZDeal),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  orderhistory: define({
    name: 'orderhistory',
    path: ROUTE_PATHS.orderhistory,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Filled and cancelled pending orders by date and symbol, newest first',
    input: ZHistoryQuery,
    output: z.object({
      items: z.array(ZFinishedOrder),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
} as const;
