import { z } from 'zod';
import { define } from '../route-kit';
import { STRATEGY_STATES, ZStrategy, ZStrategyLog } from '../strategy-routes';
import { ADMIN_STRATEGY_PATHS as PATHS } from './strategy-paths';

/**
 * The back office's strategy bots (issue 19): every bot of the broker by customer, symbol, kind and
 * state, one bot with its log, stopping one (recorded in the audit trail), and the bots' exposure on
 * the risk page. Figures are the trader's (packages/contracts/src/strategy-routes.ts): money in the
 * strategy account's currency, prices in the symbol's digits, lots with 2 decimals.
 */

const ZPage = z.number().int().min(1).default(1);
const ZSize = z.number().int().min(1).max(100).default(20);
const ZStrategyId = z.coerce.number().int().positive();
const ZKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\x20-\x7e]+$/);

/** Which bots a list shows: one state, `working` (waiting, running, stopped with positions open) or all. */
export const ADMIN_STRATEGY_FILTERS = [...STRATEGY_STATES, 'working', 'all'] as const;
export type TAdminStrategyFilter = (typeof ADMIN_STRATEGY_FILTERS)[number];
/** The states `working` covers: bots that still hold or may still place something. */
export const WORKING_STRATEGY_STATES = ['waiting', 'running', 'stopped_open'] as const;

/** A staff member's stop reason: required, at most this many characters once trimmed. */
export const STRATEGY_STOP_REASON_MAX = 60;

/** A bot as the trader sees it, with the customer it belongs to. */
export const ZAdminStrategy = ZStrategy.extend({
  userId: z.string(),
  customerName: z.string(),
  customerEmail: z.string().nullable(),
});
export type TAdminStrategy = z.infer<typeof ZAdminStrategy>;

const ZLots = z.string();

/** The bots' part of one symbol's exposure (lots are signed: long minus short). */
export const ZBotExposure = z.object({
  symbol: z.string(),
  /** Bots waiting, running, or stopped with positions open on this symbol. */
  workingBots: z.number().int(),
  positions: z.number().int(),
  longLots: ZLots,
  shortLots: ZLots,
  netLots: ZLots,
  /** The margin their positions hold, in USD. */
  marginUsd: z.string(),
  /** Their pending orders: how many, and the lots they would buy and sell. */
  orders: z.number().int(),
  buyOrderLots: ZLots,
  sellOrderLots: ZLots,
});

export const strategyAdminRoutes = {
  adminstrategies: define({
    name: 'adminstrategies',
    path: PATHS.adminstrategies,
    access: { kind: 'staff', permission: 'strategies.view' },
    mutates: false,
    summary:
      "The broker's bots, newest first, by state (working by default), symbol, kind and customer, with counts per state",
    input: z.object({
      state: z.enum(ADMIN_STRATEGY_FILTERS).default('working'),
      symbol: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z0-9._]{2,20}$/, 'symbolFormat')
        .optional(),
      kind: z.enum(['grid', 'martingale']).optional(),
      /** A customer's name, e-mail or phone, or a bot, strategy account or main account number. */
      search: z.string().trim().max(64).optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: z.object({
      items: z.array(ZAdminStrategy),
      total: z.number().int(),
      /** Bots per state (and `working`, `all`) under the symbol, kind and search filters. */
      counts: z.record(z.string(), z.number().int()),
      /** Every symbol a bot of the broker trades, for the symbol filter. */
      symbols: z.array(z.string()),
    }),
  }),
  adminstrategydetail: define({
    name: 'adminstrategydetail',
    path: PATHS.adminstrategydetail,
    access: { kind: 'staff', permission: 'strategies.view' },
    mutates: false,
    summary: 'One bot with its customer, its parameters and levels, and its log (newest first)',
    input: z.object({ strategy_id: ZStrategyId }),
    output: z.object({ strategy: ZAdminStrategy, log: z.array(ZStrategyLog) }),
  }),
  adminstrategystop: define({
    name: 'adminstrategystop',
    path: PATHS.adminstrategystop,
    access: { kind: 'staff', permission: 'strategies.stop' },
    mutates: true,
    summary:
      "Stops a customer's bot as the trader's own stop does (orders cancelled, positions closed with reason 6 or kept), with a reason for the audit trail",
    input: z.object({
      strategy_id: ZStrategyId,
      closePositions: z.boolean(),
      reason: z.string().trim().min(1, 'required').max(STRATEGY_STOP_REASON_MAX, 'reasonLength'),
      idempotencyKey: ZKey,
    }),
    output: z.object({ strategy: ZAdminStrategy, returned: z.string() }),
  }),
  adminstrategyexposure: define({
    name: 'adminstrategyexposure',
    path: PATHS.adminstrategyexposure,
    access: { kind: 'staff', permission: 'risk.view' },
    mutates: false,
    summary:
      "The bots' open net volume, margin, working bots and pending orders per symbol (real, demo or all accounts)",
    input: z.object({ scope: z.enum(['real', 'demo', 'all']).default('real') }),
    output: z.object({ symbols: z.array(ZBotExposure) }),
  }),
} as const;
