import { z } from 'zod';
import { define } from '../route-kit';
import { ROUTE_PATHS } from '../route-paths';

/**
 * The back office's risk routes: live exposure, winners and losers, the margin-call list, A-book /
 * B-book routing rules with the liquidity provider's hedge orders, and each group's margin-call,
 * stop-out and negative-balance-protection settings. Money is a decimal string (USD unless a field
 * says otherwise), lots are decimal strings with 2 decimals, levels are basis points (10000 = 100 %).
 */

const view = { kind: 'staff', permission: 'risk.view' } as const;
const edit = { kind: 'staff', permission: 'risk.edit' } as const;

const ZMoney = z.string();
const ZLotsText = z.string();
const ZId = z.string().trim().min(1).max(64);
const ZBook = z.enum(['A', 'B']);
/** Which accounts a figure covers: real money (real, experience and MetaTrader accounts), demo, or all. */
const ZScope = z.enum(['real', 'demo', 'all']).default('real');
const ZBp = z.number().int().min(0).max(100_000);
const ZUsdAmount = z
  .string()
  .trim()
  .regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'amountFormat');
const ZPercent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'invalid');

export const ZRiskSymbolExposure = z.object({
  symbol: z.string(),
  digits: z.number().int(),
  /** The engine's quote (after the broker's markup), or null before the first tick. */
  bid: z.string().nullable(),
  ask: z.string().nullable(),
  positions: z.number().int(),
  accounts: z.number().int(),
  buyLots: ZLotsText,
  sellLots: ZLotsText,
  /** Buys minus sells: the clients' net position; the broker holds the opposite on its B-book. */
  netLots: ZLotsText,
  netLotsA: ZLotsText,
  netLotsB: ZLotsText,
  /** Net lots x contract size x mid price, converted from the quote currency to USD. */
  netNotionalUsd: ZMoney,
  /** Clients' floating profit (positive: clients win). */
  clientPnlUsd: ZMoney,
  /** The broker's floating result on B-book positions: the negative of those clients' profit. */
  brokerPnlUsd: ZMoney,
});

/** The customer a row is about. */
const customerFields = {
  userId: z.string(),
  name: z.string(),
  email: z.string(),
};

/** What a set of accounts (one customer's, one group's) holds. */
const holdingsFields = {
  accounts: z.number().int(),
  positions: z.number().int(),
  /** Sum over symbols of the absolute net notional (USD). */
  exposureUsd: ZMoney,
  floatingPnlUsd: ZMoney,
  equityUsd: ZMoney,
  /** Symbols with the largest exposure first. */
  symbols: z.array(z.object({ symbol: z.string(), netLots: ZLotsText })),
};

export const ZRiskCustomerExposure = z.object({ ...customerFields, ...holdingsFields });

export const ZRiskGroupExposure = z.object({
  groupId: z.string(),
  name: z.string(),
  ...holdingsFields,
});

const ZBookTotals = z.object({
  positions: z.number().int(),
  exposureUsd: ZMoney,
  clientPnlUsd: ZMoney,
});

export const ZRiskExposure = z.object({
  time: z.number().int(),
  scope: z.enum(['real', 'demo', 'all']),
  symbols: z.array(ZRiskSymbolExposure),
  customers: z.array(ZRiskCustomerExposure),
  groups: z.array(ZRiskGroupExposure),
  books: z.object({ A: ZBookTotals, B: ZBookTotals }),
  totals: z.object({
    accounts: z.number().int(),
    positions: z.number().int(),
    exposureUsd: ZMoney,
    clientPnlUsd: ZMoney,
    brokerPnlUsd: ZMoney,
  }),
});

export const ZRiskTrader = z.object({
  ...customerFields,
  accounts: z.number().int(),
  deals: z.number().int(),
  /** Percentage of the period's deals closed with a profit, 2 decimals ("0.00" without deals). */
  winRate: z.string(),
  realizedUsd: ZMoney,
  floatingUsd: ZMoney,
  totalUsd: ZMoney,
});

export const ZRiskMarginCall = z.object({
  accountId: z.number().int(),
  accountType: z.number().int(),
  ...customerFields,
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  currency: z.string(),
  balance: ZMoney,
  equity: ZMoney,
  margin: ZMoney,
  freeMargin: ZMoney,
  /** Percent, 2 decimals. */
  marginLevel: z.string(),
  marginCallLevel: z.string(),
  stopOutLevel: z.string(),
  /** Margin level minus the stop-out level, in percentage points. */
  distanceToStopOut: z.string(),
  /** How much equity (account currency) can still be lost before the stop-out. */
  equityToStopOut: ZMoney,
  positions: z.number().int(),
  /** The engine's margin-call flag (new positions are refused). */
  inCall: z.boolean(),
});

export const ZRiskRule = z.object({
  id: z.string(),
  priority: z.number().int(),
  kind: z.enum(['group', 'customer', 'profitability']),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  userEmail: z.string().nullable(),
  minRealizedProfitUsd: z.string().nullable(),
  /** Percent with 2 decimals. */
  minWinRate: z.string().nullable(),
  minTrades: z.number().int(),
  windowDays: z.number().int(),
  book: ZBook,
  enabled: z.boolean(),
  note: z.string(),
  updatedAt: z.string(),
});

export const ZHedgeOrder = z.object({
  id: z.string(),
  accountId: z.number().int(),
  positionId: z.number().int(),
  userId: z.string().nullable(),
  purpose: z.enum(['open', 'close']),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  volume: ZLotsText,
  requestedPrice: z.string().nullable(),
  fillPrice: z.string().nullable(),
  slippagePoints: z.number().int().nullable(),
  status: z.enum(['pending', 'filled', 'failed']),
  attempts: z.number().int(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  /** Every attempt was rejected: the dealer must look at it (retry or hedge by hand). */
  flagged: z.boolean(),
  provider: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZRiskGroupLevels = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  marginCallBp: z.number().int(),
  stopOutBp: z.number().int(),
  negativeBalanceProtection: z.boolean(),
  accounts: z.number().int(),
  updatedAt: z.string(),
});

export const riskRoutes = {
  adminriskexposure: define({
    name: 'adminriskexposure',
    path: ROUTE_PATHS.adminriskexposure,
    access: view,
    mutates: false,
    summary: 'Live net exposure per symbol, per customer (top N) and per group, split A-book / B-book',
    input: z.object({ scope: ZScope, top: z.number().int().min(1).max(200).default(20) }),
    output: ZRiskExposure,
  }),
  adminriskwinners: define({
    name: 'adminriskwinners',
    path: ROUTE_PATHS.adminriskwinners,
    access: view,
    mutates: false,
    summary: "Top winning and losing customers: the period's realized profit plus today's floating profit",
    input: z.object({
      period: z.enum(['today', '7d', '30d']).default('today'),
      scope: ZScope,
      limit: z.number().int().min(1).max(100).default(10),
    }),
    output: z.object({
      period: z.enum(['today', '7d', '30d']),
      from: z.number().int(),
      winners: z.array(ZRiskTrader),
      losers: z.array(ZRiskTrader),
    }),
  }),
  adminriskmargincalls: define({
    name: 'adminriskmargincalls',
    path: ROUTE_PATHS.adminriskmargincalls,
    access: view,
    mutates: false,
    summary: 'Accounts at or below their margin-call level, closest to stop-out first',
    input: z.object({ scope: ZScope }),
    output: z.array(ZRiskMarginCall),
  }),
  adminriskrules: define({
    name: 'adminriskrules',
    path: ROUTE_PATHS.adminriskrules,
    access: view,
    mutates: false,
    summary: 'A-book / B-book routing rules in priority order (unmatched accounts are B-book)',
    input: z.object({}).passthrough(),
    output: z.object({
      rules: z.array(ZRiskRule),
      groups: z.array(z.object({ id: z.string(), name: z.string() })),
    }),
  }),
  adminriskrulesave: define({
    name: 'adminriskrulesave',
    path: ROUTE_PATHS.adminriskrulesave,
    access: edit,
    mutates: true,
    summary: 'Creates or changes a routing rule',
    input: z.object({
      id: ZId.optional(),
      priority: z.number().int().min(1).max(10_000),
      kind: z.enum(['group', 'customer', 'profitability']),
      groupId: ZId.nullable().optional(),
      /** The customer's user id or e-mail address. */
      customer: z.string().trim().max(200).nullable().optional(),
      minRealizedProfitUsd: ZUsdAmount.nullable().optional(),
      minWinRate: ZPercent.nullable().optional(),
      minTrades: z.number().int().min(0).max(100_000).default(0),
      windowDays: z.number().int().min(1).max(365).default(30),
      book: ZBook,
      enabled: z.boolean().default(true),
      note: z.string().trim().max(200).default(''),
    }),
    output: ZRiskRule,
  }),
  adminriskruledelete: define({
    name: 'adminriskruledelete',
    path: ROUTE_PATHS.adminriskruledelete,
    access: edit,
    mutates: true,
    summary: 'Deletes a routing rule',
    input: z.object({ id: ZId }),
    output: z.object({ ok: z.literal(true) }),
  }),
  adminriskliquidity: define({
    name: 'adminriskliquidity',
    path: ROUTE_PATHS.adminriskliquidity,
    access: view,
    mutates: false,
    summary: "The liquidity provider's status and the recent hedge orders of A-book positions",
    input: z.object({
      filter: z.enum(['all', 'attention']).default('all'),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    output: z.object({
      provider: z.object({
        name: z.string(),
        connected: z.boolean(),
        sent: z.number().int(),
        filled: z.number().int(),
        rejected: z.number().int(),
        averageLatencyMs: z.number().int().nullable(),
        lastError: z.string().nullable(),
        lastFillAt: z.number().int().nullable(),
      }),
      inFlight: z.number().int(),
      attention: z.number().int(),
      orders: z.array(ZHedgeOrder),
    }),
  }),
  adminriskhedgeretry: define({
    name: 'adminriskhedgeretry',
    path: ROUTE_PATHS.adminriskhedgeretry,
    access: edit,
    mutates: true,
    summary: 'Sends a failed (flagged) hedge order to the liquidity provider again',
    input: z.object({ id: ZId }),
    output: ZHedgeOrder,
  }),
  adminrisklevels: define({
    name: 'adminrisklevels',
    path: ROUTE_PATHS.adminrisklevels,
    access: view,
    mutates: false,
    summary: "Each account group's margin-call and stop-out levels and negative-balance protection",
    input: z.object({}).passthrough(),
    output: z.array(ZRiskGroupLevels),
  }),
  adminrisklevelpreview: define({
    name: 'adminrisklevelpreview',
    path: ROUTE_PATHS.adminrisklevelpreview,
    access: edit,
    mutates: false,
    summary:
      "What proposed levels would do to a group's accounts now: how many would be in margin call and how many stopped out",
    input: z.object({ groupId: ZId, marginCallBp: ZBp, stopOutBp: ZBp }),
    output: z.object({
      /** Open accounts of the group, and those of them with margin in use. */
      accounts: z.number().int(),
      trading: z.number().int(),
      /** Below the proposed margin-call level, not below the stop-out level. */
      marginCall: z.number().int(),
      /** Below the proposed stop-out level: the engine would start closing their positions. */
      stopOut: z.number().int(),
      /** Open positions of those accounts (the engine closes the largest loser first, as needed). */
      stopOutPositions: z.number().int(),
      /** Floating profit of those accounts in USD (negative: their clients' losses). */
      stopOutFloatingUsd: z.string(),
    }),
  }),
  adminrisklevelsave: define({
    name: 'adminrisklevelsave',
    path: ROUTE_PATHS.adminrisklevelsave,
    access: edit,
    mutates: true,
    summary: "Changes a group's levels and negative-balance protection; live for its accounts at once",
    input: z.object({
      groupId: ZId,
      marginCallBp: ZBp,
      stopOutBp: ZBp,
      negativeBalanceProtection: z.boolean(),
      /** The updatedAt the editor loaded; a newer one refuses the change (-6017). */
      updatedAt: z.string().optional(),
    }),
    output: ZRiskGroupLevels,
  }),
} as const;
