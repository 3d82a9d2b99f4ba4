import { z } from 'zod';
import { COPY_PATHS as PATHS } from './copy-paths';
import { define } from './route-kit';

/**
 * Copy trading (issue 18, spec 1, 3, 4, 5, 6, 9): leaders, their public statistics, following with
 * one of four modes and the follower's risk controls, fees with a high-water mark, the parity report.
 * Money is a decimal string in the account's currency; percentages are decimal strings with two
 * decimals ("12.34" is 12.34 %); volumes are lots as decimal strings ("0.10").
 */

const ZAccountId = z.coerce.number().int().positive();
/** Money in an account currency: at most 2 decimals. */
const ZMoney = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'amountFormat');
/** Lots: at most 2 decimals, above zero. */
const ZLots = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, 'volumeFormat');
/** A percentage with at most 2 decimals. */
const ZPercent = z
  .string()
  .trim()
  .regex(/^\d{1,5}(\.\d{1,2})?$/, 'percentFormat');
const ZKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\x20-\x7e]+$/);
const ZPage = z.number().int().min(1).default(1);
const ZSize = z.number().int().min(1).max(100).default(20);

/**
 * fixed_lot: `value` lots per trade; fixed_margin: `value` money of margin per trade; ratio: `value`
 * times the leader's volume (0.01 to 100); equity: the leader's volume scaled by the copy equity over
 * the leader's equity (`value` ignored).
 */
export const COPY_MODES = ['fixed_lot', 'fixed_margin', 'ratio', 'equity'] as const;
export const ZCopyMode = z.enum(COPY_MODES);
export type TCopyMode = z.infer<typeof ZCopyMode>;

export const COPY_STATES = ['active', 'paused', 'stopped'] as const;
/**
 * Why a copy stopped: the follower (closing or keeping the copies), its copy stop-loss or
 * take-profit, the leader's or the copy's account closed.
 */
export const COPY_STOP_REASONS = [
  'client_close',
  'client_keep',
  'stop_loss',
  'take_profit',
  'leader_closed',
  'follower_closed',
] as const;
/** Why a leader's trade was not copied (docs/copy-trading.md). */
export const COPY_SKIP_REASONS = [
  'paused',
  'below_min_volume',
  'max_volume',
  'max_positions',
  'slippage',
  'insufficient_margin',
  'margin_level',
  'market_closed',
  'symbol_unavailable',
  'restricted',
  'no_price',
  'no_equity',
  'invalid_stops',
  /** The broker suspended the leader: nothing new is copied until it is reinstated. */
  'leader_suspended',
] as const;

export const LEADER_STATES = ['pending', 'approved', 'rejected', 'suspended'] as const;

/** Statistics computed from the leader account's ledger and history, never self-reported. */
export const ZLeaderStats = z.object({
  /** Time-weighted returns (deposits and transfers removed) in percent, null without history. */
  return7d: z.string().nullable(),
  return30d: z.string().nullable(),
  return90d: z.string().nullable(),
  returnAll: z.string().nullable(),
  /** Largest fall of the return index from a peak, percent (positive). */
  maxDrawdown: z.string(),
  /** Closed trades with a profit over all closed trades, percent; null without trades. */
  winRate: z.string().nullable(),
  /** Gross profit over gross loss; null without a losing trade. */
  profitFactor: z.string().nullable(),
  /** Average time a position was held, minutes. */
  avgHoldMinutes: z.number().int(),
  /** Days with at least one closed trade. */
  tradingDays: z.number().int(),
  totalTrades: z.number().int(),
  /** 1 (calm) to 10 (wild): from the volatility of daily returns and the leverage used. */
  riskScore: z.number().int().min(1).max(10),
});
export type TLeaderStats = z.infer<typeof ZLeaderStats>;

export const ZLeaderSummary = z.object({
  /** The leader's main trading account: what followers follow. */
  leader_id: z.number().int(),
  nick: z.string(),
  avatar: z.string().nullable(),
  /** Spec 3 account type (1 demo, 2 real, 3 experience). Followers copy with an account of the same type. */
  accountType: z.number().int(),
  /** Spec trade type (mode): only traders in the same mode can be followed. */
  tradeType: z.number().int(),
  currency: z.string(),
  stats: ZLeaderStats,
  followers: z.number().int(),
  /** The money in the followers' copy accounts (their equity), in the leader's currency. */
  copiedAssets: z.string(),
  /** Performance fee, percent of the profit above the high-water mark (0 to 30). */
  feePercent: z.string(),
  /** The least a follower may allocate, in the leader's currency. */
  minCopyAmount: z.string(),
  /** The leader takes no new followers for now (or is at 1,000). */
  followersPaused: z.boolean(),
  /** Leader since. */
  since: z.string(),
});
export type TLeaderSummary = z.infer<typeof ZLeaderSummary>;

export const ZLeaderProfile = ZLeaderSummary.extend({
  bio: z.string(),
  /** The return index (100 at the start), one point per day with activity, for the equity curve. */
  curve: z.array(z.object({ day: z.string(), value: z.string() })),
  /** Symbols traded over the last 90 days with their share of trades (percent). */
  symbols: z.array(z.object({ symbol: z.string(), trades: z.number().int(), share: z.string() })),
  /** Open positions older than the leader's delay (minutes): what a prospective follower may see. */
  positionsDelayMinutes: z.number().int(),
  openPositions: z.array(
    z.object({
      symbol: z.string(),
      side: z.enum(['buy', 'sell']),
      volume: z.string(),
      openPrice: z.string(),
      openTime: z.string(),
    }),
  ),
  /** Signed-in viewer only: the copy account with which the viewer already follows this leader. */
  myCopyAccountId: z.number().int().nullable(),
});
export type TLeaderProfile = z.infer<typeof ZLeaderProfile>;

export const LEADER_SORTS = [
  'return30d',
  'return90d',
  'returnAll',
  'drawdown',
  'risk',
  'followers',
  'assets',
] as const;

/** The follower's risk controls; null (or absent) means no limit. */
export const ZCopyControls = z.object({
  /** Every copy is cut to at most this volume (lots). */
  maxVolume: ZLots.nullable().optional(),
  /** No new copy while this many copies are open. */
  maxPositions: z.number().int().min(1).max(500).nullable().optional(),
  /** Skip a copy whose price is worse than the leader's by more than this many points. */
  maxSlippagePoints: z.number().int().min(0).max(100_000).nullable().optional(),
  /** Copy stop-loss: percent of the allocated money lost (1 to 100) closes every copy and stops. */
  stopLossPercent: ZPercent.nullable().optional(),
  /** Copy take-profit: percent gained (1 to 10,000) closes every copy and stops. */
  takeProfitPercent: ZPercent.nullable().optional(),
  /** Copy the leader's take-profit and stop-loss levels (default yes). */
  copyStops: z.boolean().optional(),
});
export type TCopyControls = z.infer<typeof ZCopyControls>;

export const ZCopy = z.object({
  copy_account_id: z.number().int(),
  /** The follower's main account that funds it. */
  account_id: z.number().int(),
  leader_id: z.number().int(),
  leaderNick: z.string(),
  currency: z.string(),
  status: z.enum(COPY_STATES),
  stopReason: z.enum(COPY_STOP_REASONS).nullable(),
  mode: ZCopyMode,
  /** The mode's value as entered: lots, money, or a multiplier ("0.5"); "0" for equity. */
  value: z.string(),
  controls: z.object({
    maxVolume: z.string().nullable(),
    maxPositions: z.number().int().nullable(),
    maxSlippagePoints: z.number().int().nullable(),
    stopLossPercent: z.string().nullable(),
    takeProfitPercent: z.string().nullable(),
    copyStops: z.boolean(),
  }),
  /** Money moved in less money moved out. */
  allocated: z.string(),
  balance: z.string(),
  equity: z.string(),
  /** Equity less allocated, after fees. */
  profit: z.string(),
  /** Fees paid to the leader so far. */
  feesPaid: z.string(),
  /** The copy's profit (before fees) above which the next fee is charged. */
  highWaterMark: z.string(),
  /** The fee terms locked when following started, percent. */
  feePercent: z.string(),
  openPositions: z.number().int(),
  /** What may be taken back now (free margin, at most the balance). */
  withdrawable: z.string(),
  skipped: z.number().int(),
  createdAt: z.string(),
});
export type TCopy = z.infer<typeof ZCopy>;

export const ZParityTrade = z.object({
  leaderPositionId: z.number().int(),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  /** copied: the copy closed; open: the copy is still open; skipped: not copied (`reason`). */
  status: z.enum(['copied', 'open', 'skipped']),
  reason: z.enum(COPY_SKIP_REASONS).nullable(),
  leaderVolume: z.string(),
  leaderOpenPrice: z.string(),
  leaderClosePrice: z.string().nullable(),
  /** In the leader's currency. */
  leaderProfit: z.string().nullable(),
  followerVolume: z.string().nullable(),
  followerOpenPrice: z.string().nullable(),
  followerClosePrice: z.string().nullable(),
  /** In the follower's currency, with swap and commission. */
  followerProfit: z.string().nullable(),
  /** Points by which the follower's open was worse (positive) or better (negative) than the leader's. */
  slippagePoints: z.number().int().nullable(),
  openTime: z.string(),
  closeTime: z.string().nullable(),
});

export const ZParity = z.object({
  copy_account_id: z.number().int(),
  leader_id: z.number().int(),
  currency: z.string(),
  leaderCurrency: z.string(),
  summary: z.object({
    /** The leader's time-weighted return over the copy's life, percent. */
    leaderReturn: z.string().nullable(),
    /** The copy's profit over the allocated money, percent (after fees). */
    followerReturn: z.string().nullable(),
    followerProfit: z.string(),
    fees: z.string(),
    copied: z.number().int(),
    skipped: z.number().int(),
    /** Sum over copied trades of slippage × volume, in the follower's currency (positive: it cost). */
    slippageCost: z.string(),
    /** Why the results differ, biggest first: skipped trades by reason, slippage, fees, sizing. */
    reasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  }),
  trades: z.array(ZParityTrade),
  total: z.number().int(),
});
export type TParity = z.infer<typeof ZParity>;

export const ZWhatIf = z.object({
  days: z.number().int(),
  /** The leader's trades in the window and how many the settings would have copied. */
  leaderTrades: z.number().int(),
  copied: z.number().int(),
  skipped: z.array(z.object({ reason: z.enum(COPY_SKIP_REASONS), count: z.number().int() })),
  amount: z.string(),
  profit: z.string(),
  fees: z.string(),
  /** Profit after fees over the amount, percent (may be negative: "-3.20"). */
  returnPercent: z.string(),
  /** The worst fall of the simulated balance from a peak, percent. */
  maxDrawdown: z.string(),
  /** Would the copy stop-loss have stopped the copy, and when. */
  stoppedAt: z.string().nullable(),
  curve: z.array(z.object({ day: z.string(), value: z.string() })),
});
export type TWhatIf = z.infer<typeof ZWhatIf>;

export const ZLeaderAccount = z.object({
  leader_id: z.number().int(),
  status: z.enum(LEADER_STATES),
  /** The reviewer's reason for a rejection or a suspension. */
  reason: z.string().nullable(),
  feePercent: z.string(),
  minCopyAmount: z.string(),
  followersPaused: z.boolean(),
  positionsDelayMinutes: z.number().int(),
  bio: z.string(),
  currency: z.string(),
  followers: z.number().int(),
  copiedAssets: z.string(),
  /** Fees earned, all settlements. */
  earned: z.string(),
  appliedAt: z.string(),
});
export type TLeaderAccount = z.infer<typeof ZLeaderAccount>;

export const ZFeeSettlement = z.object({
  id: z.string(),
  copy_account_id: z.number().int(),
  leader_id: z.number().int(),
  /** The follower, masked (first letters of the nick). */
  follower: z.string(),
  /** weekly: Sunday 00:00 GMT+8; stop: when the follower stopped. */
  kind: z.enum(['weekly', 'stop']),
  /** The copy's profit before fees at the settlement, and the high-water mark before and after. */
  profit: z.string(),
  markBefore: z.string(),
  markAfter: z.string(),
  /** Charged to the follower, in its currency; credited to the leader in the leader's. */
  fee: z.string(),
  currency: z.string(),
  credited: z.string(),
  leaderCurrency: z.string(),
  createdAt: z.string(),
});
export type TFeeSettlement = z.infer<typeof ZFeeSettlement>;

const ZLeaderSettings = z.object({
  /** 0 to 30. */
  feePercent: ZPercent,
  minCopyAmount: ZMoney,
  /** 0 to 1,440 minutes. */
  positionsDelayMinutes: z.number().int().min(0).max(1440),
  bio: z.string().trim().max(500),
});

export const copyRoutes = {
  followleaders: define({
    name: 'followleaders',
    path: PATHS.followleaders,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Approved leaders with statistics computed from their history, sorted and filtered',
    input: z.object({
      sort: z.enum(LEADER_SORTS).default('return30d'),
      /** Spec account type: 1 demo, 2 real, 3 experience. */
      accountType: z.number().int().min(1).max(3).optional(),
      tradeType: z.number().int().min(1).max(2).optional(),
      /** Only leaders with a risk score at most this. */
      maxRisk: z.number().int().min(1).max(10).optional(),
      /** Only leaders with a drawdown at most this percent. */
      maxDrawdown: z.number().min(0).max(100).optional(),
      search: z.string().trim().max(40).optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: z.object({ items: z.array(ZLeaderSummary), total: z.number().int() }),
  }),
  followleader: define({
    name: 'followleader',
    path: PATHS.followleader,
    access: { kind: 'public' },
    mutates: false,
    summary: "One leader's profile: statistics, equity curve, symbols, delayed open positions, fee terms",
    input: z.object({ leader_id: ZAccountId }),
    output: ZLeaderProfile,
  }),
  followwhatif: define({
    name: 'followwhatif',
    path: PATHS.followwhatif,
    access: { kind: 'user' },
    mutates: false,
    summary:
      "What copying this leader's last 90 days would have given with a mode, an amount and the controls",
    input: z.object({
      leader_id: ZAccountId,
      mode: ZCopyMode,
      value: z.string().trim().max(20),
      amount: ZMoney,
      controls: ZCopyControls.optional(),
    }),
    output: ZWhatIf,
  }),
  followstart: define({
    name: 'followstart',
    path: PATHS.followstart,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Starts copying a leader: a copy account funded from the main account (transfer_follow_out), with the mode and controls',
    input: z.object({
      /** The follower's main account, of the leader's account type and mode. */
      account_id: ZAccountId,
      leader_id: ZAccountId,
      mode: ZCopyMode,
      value: z.string().trim().max(20),
      amount: ZMoney,
      controls: ZCopyControls.optional(),
      /** Copy the leader's open positions now, at today's prices (default: only new trades). */
      copyExisting: z.boolean().optional(),
      idempotencyKey: ZKey,
    }),
    output: ZCopy,
  }),
  followupdate: define({
    name: 'followupdate',
    path: PATHS.followupdate,
    access: { kind: 'user' },
    mutates: true,
    summary: "Changes a copy's mode and risk controls (the leader and the fee terms stay)",
    input: z.object({
      copy_account_id: ZAccountId,
      mode: ZCopyMode,
      value: z.string().trim().max(20),
      controls: ZCopyControls.optional(),
    }),
    output: ZCopy,
  }),
  followpause: define({
    name: 'followpause',
    path: PATHS.followpause,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Pauses a copy: nothing new is copied; open copies still follow the leader closing them',
    input: z.object({ copy_account_id: ZAccountId }),
    output: ZCopy,
  }),
  followresume: define({
    name: 'followresume',
    path: PATHS.followresume,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Resumes a paused copy',
    input: z.object({ copy_account_id: ZAccountId }),
    output: ZCopy,
  }),
  followstop: define({
    name: 'followstop',
    path: PATHS.followstop,
    access: { kind: 'user' },
    mutates: true,
    summary:
      "Stops a copy: the leader's fee is settled, the copies are closed (reason 4) or kept, the free money goes back",
    input: z.object({
      copy_account_id: ZAccountId,
      /** Close every copied position now (default), or keep them as the follower's own. */
      closePositions: z.boolean().default(true),
      idempotencyKey: ZKey,
    }),
    output: z.object({ copy: ZCopy, returned: z.string(), fee: z.string() }),
  }),
  followfunds: define({
    name: 'followfunds',
    path: PATHS.followfunds,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Adds money to a copy (transfer_follow_out) or takes free money back (transfer_follow_in)',
    input: z.object({
      copy_account_id: ZAccountId,
      direction: z.enum(['add', 'withdraw']),
      amount: ZMoney,
      idempotencyKey: ZKey,
    }),
    output: ZCopy,
  }),
  followmine: define({
    name: 'followmine',
    path: PATHS.followmine,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's copies: per leader the money, profit, fees, state and settings",
    input: z.object({ includeStopped: z.boolean().default(false) }),
    output: z.object({ items: z.array(ZCopy), followed: z.number().int(), limit: z.number().int() }),
  }),
  followparity: define({
    name: 'followparity',
    path: PATHS.followparity,
    access: { kind: 'user' },
    mutates: false,
    summary:
      "The copy parity report: the leader's trades beside the copy's, slippage, sizing, skips and fees",
    input: z.object({ copy_account_id: ZAccountId, page: ZPage, size: ZSize }),
    output: ZParity,
  }),
  followapply: define({
    name: 'followapply',
    path: PATHS.followapply,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Applies to lead with a main account; the broker approves, or its rules approve at once',
    input: ZLeaderSettings.extend({ account_id: ZAccountId }),
    output: ZLeaderAccount,
  }),
  followleadersettings: define({
    name: 'followleadersettings',
    path: PATHS.followleadersettings,
    access: { kind: 'user' },
    mutates: true,
    summary:
      "Changes a leader's terms (a new fee applies to new followers only) and pauses or resumes new followers",
    input: ZLeaderSettings.extend({ leader_id: ZAccountId, followersPaused: z.boolean() }),
    output: ZLeaderAccount,
  }),
  followdashboard: define({
    name: 'followdashboard',
    path: PATHS.followdashboard,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's leader accounts, their followers and fee settlements",
    input: z.object({ page: ZPage, size: ZSize }),
    output: z.object({
      leaders: z.array(ZLeaderAccount),
      followers: z.array(
        z.object({
          leader_id: z.number().int(),
          copy_account_id: z.number().int(),
          follower: z.string(),
          mode: ZCopyMode,
          equity: z.string(),
          currency: z.string(),
          status: z.enum(COPY_STATES),
          since: z.string(),
        }),
      ),
      settlements: z.array(ZFeeSettlement),
      total: z.number().int(),
    }),
  }),
} as const;
