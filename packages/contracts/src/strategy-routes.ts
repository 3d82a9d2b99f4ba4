import { z } from 'zod';
import { define } from './route-kit';
import { STRATEGY_PATHS as PATHS } from './strategy-paths';

/**
 * Grid and martingale bots (issue 19, spec 1, 3, 4, 6, 7.10; docs/strategies.md). Prices are decimal
 * strings in the symbol's digits, volumes lots ("0.10"), percentages decimal strings ("0.5" = 0.5 %),
 * money decimal strings in the account's currency.
 */

const ZAccountId = z.coerce.number().int().positive();
const ZPrice = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,8})?$/, 'priceFormat');
const ZLots = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, 'volumeFormat');
const ZPercent = z
  .string()
  .trim()
  .regex(/^\d{1,5}(\.\d{1,2})?$/, 'percentFormat');
const ZMoney = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'amountFormat');
const ZKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\x20-\x7e]+$/);
const ZSymbol = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9._]{2,20}$/, 'symbolFormat');

export const ZGridInput = z.object({
  symbol: ZSymbol,
  direction: z.enum(['long', 'short', 'neutral']),
  lowerPrice: ZPrice,
  upperPrice: ZPrice,
  /** 2 to 200 cells. */
  grids: z.number().int().min(2).max(200),
  spacing: z.enum(['arithmetic', 'geometric']),
  volumePerGrid: ZLots,
  triggerPrice: ZPrice.nullable().optional(),
  takeProfitPrice: ZPrice.nullable().optional(),
  stopLossPrice: ZPrice.nullable().optional(),
  /** Of the investment. */
  takeProfitPercent: ZPercent.nullable().optional(),
  stopLossPercent: ZPercent.nullable().optional(),
  trailingUp: z.boolean().optional(),
  outOfRange: z.enum(['keep', 'stop']).optional(),
});
export type TGridInput = z.infer<typeof ZGridInput>;

export const ZMartingaleInput = z.object({
  symbol: ZSymbol,
  direction: z.enum(['long', 'short']),
  firstVolume: ZLots,
  /** Percent of the round's first price between adds. */
  stepPercent: ZPercent,
  /** Each add's volume over the one before: 1 to 5 ("2" doubles). */
  multiplier: z
    .string()
    .trim()
    .regex(/^\d(\.\d{1,2})?$/, 'multiplierFormat'),
  /** 0 to 30 adds a round. */
  maxAdds: z.number().int().min(0).max(30),
  /** Percent from the round's average price. */
  takeProfitPercent: ZPercent,
  /** Percent from the round's first price. */
  stopLossPercent: ZPercent.nullable().optional(),
  cycle: z.enum(['repeat', 'stop']).optional(),
  triggerPrice: ZPrice.nullable().optional(),
});
export type TMartingaleInput = z.infer<typeof ZMartingaleInput>;

export const ZStrategySpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('grid'), params: ZGridInput }),
  z.object({ kind: z.literal('martingale'), params: ZMartingaleInput }),
]);
export type TStrategySpecRequest = z.infer<typeof ZStrategySpec>;

export const STRATEGY_STATES = ['waiting', 'running', 'stopped_open', 'stopped_closed'] as const;

/** The worst case of a bot: the price walked against it through and beyond its range (or all its adds). */
export const ZWorstCase = z.object({
  /** The most margin the bot would hold at once. */
  maxMargin: z.string(),
  /** Where the margin call and the stop-out would come (null: not on the walk). */
  marginCallPrice: z.string().nullable(),
  stopOutPrice: z.string().nullable(),
  /** The largest loss on the walk (at the stop-out, or at the bot's own stop-loss). */
  maxLoss: z.string(),
  /** The price the walk ended at. */
  walkedTo: z.string(),
  /** Refused at create: the margin call comes inside the bot's own range (before its last level or add). */
  breachesMarginRules: z.boolean(),
});
export type TWorstCase = z.infer<typeof ZWorstCase>;

export const ZStrategy = z.object({
  strategy_id: z.number().int(),
  /** The strategy account the bot runs on, and the main account that funds it. */
  account_id: z.number().int(),
  parent_account_id: z.number().int(),
  kind: z.enum(['grid', 'martingale']),
  symbol: z.string(),
  state: z.enum(STRATEGY_STATES),
  stopReason: z.string().nullable(),
  currency: z.string(),
  /** Money moved in less money moved out. */
  investment: z.string(),
  equity: z.string(),
  /** Closed positions' price results (the grid profit), and what is open now. */
  realizedProfit: z.string(),
  unrealizedProfit: z.string(),
  /** Commission and swap (negative: paid). */
  fees: z.string(),
  closedTrades: z.number().int(),
  openPositions: z.number().int(),
  openOrders: z.number().int(),
  margin: z.string(),
  /** Grid: the levels (rising); martingale: the open round's first price, then its adds' prices. */
  levels: z.array(z.string()),
  /**
   * Martingale: the round (1 for the first; the next one's number between rounds), the rounds closed at
   * their take-profit, the adds filled in the open round, its average price and its take-profit.
   * Null for a grid.
   */
  round: z
    .object({
      number: z.number().int(),
      completed: z.number().int(),
      adds: z.number().int(),
      averagePrice: z.string().nullable(),
      takeProfit: z.string().nullable(),
    })
    .nullable(),
  params: ZStrategySpec,
  createdAt: z.string(),
  startedAt: z.string().nullable(),
});
export type TStrategy = z.infer<typeof ZStrategy>;

export const ZStrategyLog = z.object({
  time: z.string(),
  action: z.string(),
  price: z.string().nullable(),
  /** Why: a close reason, a stop reason, a round's number, an order's cancel reason ... (docs/strategies.md). */
  detail: z.string().nullable(),
  /** An order the bot could not place: the result code the trader would have had (its text: errors.<code>). */
  code: z.number().int().nullable(),
  /** The grid cell (0 = the lowest) or the martingale add (0 = the round's first order) it concerns. */
  level: z.number().int().nullable(),
  /** Lots, and the money a closed position made. */
  volume: z.string().nullable(),
  profit: z.string().nullable(),
});

export const strategyRoutes = {
  strategypreview: define({
    name: 'strategypreview',
    path: PATHS.strategypreview,
    access: { kind: 'user' },
    mutates: false,
    summary:
      "A bot's levels, volume and worst case before it is started (the same engine code, a scratch run)",
    input: z.object({ account_id: ZAccountId, investment: ZMoney, spec: ZStrategySpec }),
    output: z.object({ levels: z.array(z.string()), worstCase: ZWorstCase }),
  }),
  strategybacktest: define({
    name: 'strategybacktest',
    path: PATHS.strategybacktest,
    access: { kind: 'user' },
    mutates: false,
    summary:
      "The bot run on a scratch engine over the symbol's stored candles of the last 7 (M5), 30 (M15) or 90 (H1) days",
    input: z.object({
      account_id: ZAccountId,
      investment: ZMoney,
      spec: ZStrategySpec,
      days: z.union([z.literal(7), z.literal(30), z.literal(90)]),
    }),
    output: z.object({
      days: z.number().int(),
      timeframe: z.string(),
      bars: z.number().int(),
      from: z.string(),
      closedTrades: z.number().int(),
      /** Equity at the end less the investment, and as a percent of it. */
      profit: z.string(),
      returnPercent: z.string(),
      realizedProfit: z.string(),
      fees: z.string(),
      maxDrawdownPercent: z.string(),
      marginCallPrice: z.string().nullable(),
      stopOutPrice: z.string().nullable(),
      state: z.string(),
      stopReason: z.string().nullable(),
      curve: z.array(z.object({ day: z.string(), equity: z.string() })),
      /** How long the replay took on the server. */
      elapsedMs: z.number().int(),
    }),
  }),
  strategycreate: define({
    name: 'strategycreate',
    path: PATHS.strategycreate,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Creates a bot: a strategy account funded from the main account (transfer_strategy_out), the bot started on it',
    input: z.object({
      account_id: ZAccountId,
      investment: ZMoney,
      spec: ZStrategySpec,
      idempotencyKey: ZKey,
    }),
    output: ZStrategy,
  }),
  strategylist: define({
    name: 'strategylist',
    path: PATHS.strategylist,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's bots, newest first (the stopped and closed ones when asked)",
    input: z.object({ includeClosed: z.boolean().default(false) }),
    output: z.object({ items: z.array(ZStrategy) }),
  }),
  strategydetail: define({
    name: 'strategydetail',
    path: PATHS.strategydetail,
    access: { kind: 'user' },
    mutates: false,
    summary: 'One bot: what it holds, and its log of what it did and why (newest first)',
    input: z.object({ strategy_id: ZAccountId }),
    output: z.object({ strategy: ZStrategy, log: z.array(ZStrategyLog) }),
  }),
  strategystop: define({
    name: 'strategystop',
    path: PATHS.strategystop,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Stops a bot: its orders cancelled, its positions closed (reason 6) or kept; with nothing left, its money goes back',
    input: z.object({
      strategy_id: ZAccountId,
      closePositions: z.boolean().default(true),
      idempotencyKey: ZKey,
    }),
    output: z.object({ strategy: ZStrategy, returned: z.string() }),
  }),
} as const;
