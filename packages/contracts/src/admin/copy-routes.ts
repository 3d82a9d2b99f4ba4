import { z } from 'zod';
import {
  COPY_STATES,
  COPY_STOP_REASONS,
  LEADER_STATES,
  ZCopyMode,
  ZFeeSettlement,
  ZLeaderStats,
} from '../copy-routes';
import { define } from '../route-kit';
import { ADMIN_COPY_PATHS as PATHS } from './copy-paths';

const ZPage = z.number().int().min(1).default(1);
const ZSize = z.number().int().min(1).max(100).default(20);
const ZAccountId = z.coerce.number().int().positive();
/** Spec 5: a review decision's reason, at most 20 characters. */
const ZReason = z.string().trim().min(1, 'required').max(20, 'reasonLength');

export const ZAdminLeader = z.object({
  leader_id: z.number().int(),
  userId: z.string(),
  nick: z.string(),
  email: z.string().nullable(),
  status: z.enum(LEADER_STATES),
  reason: z.string().nullable(),
  accountType: z.number().int(),
  tradeType: z.number().int(),
  currency: z.string(),
  equity: z.string(),
  feePercent: z.string(),
  minCopyAmount: z.string(),
  followersPaused: z.boolean(),
  followers: z.number().int(),
  copiedAssets: z.string(),
  earned: z.string(),
  stats: ZLeaderStats,
  appliedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
});
export type TAdminLeader = z.infer<typeof ZAdminLeader>;

export const ZAdminRelation = z.object({
  copy_account_id: z.number().int(),
  account_id: z.number().int(),
  leader_id: z.number().int(),
  leaderNick: z.string(),
  followerUserId: z.string(),
  followerNick: z.string(),
  currency: z.string(),
  mode: ZCopyMode,
  value: z.string(),
  status: z.enum(COPY_STATES),
  stopReason: z.enum(COPY_STOP_REASONS).nullable(),
  allocated: z.string(),
  equity: z.string(),
  feesPaid: z.string(),
  openPositions: z.number().int(),
  skipped: z.number().int(),
  createdAt: z.string(),
});

/** The broker's copy-trading rules. */
export const ZCopySettings = z.object({
  /** Approve leader applications at once when the account meets the two rules below. */
  autoApprove: z.boolean(),
  /** Days with a closed trade the account needs (auto-approval). */
  minTradingDays: z.number().int().min(0).max(3650),
  /** Equity the account needs (auto-approval), in its currency. */
  minEquity: z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'amountFormat'),
  /** Highest performance fee a leader may set, percent (at most 30). */
  maxFeePercent: z.string().regex(/^\d{1,2}(\.\d{1,2})?$/, 'percentFormat'),
});
export type TCopySettingsAdmin = z.infer<typeof ZCopySettings>;

export const copyAdminRoutes = {
  admincopyleaders: define({
    name: 'admincopyleaders',
    path: PATHS.admincopyleaders,
    access: { kind: 'staff', permission: 'copy.view' },
    mutates: false,
    summary: 'Leaders and leader applications by state, with their statistics, followers and earnings',
    input: z.object({
      status: z.enum(LEADER_STATES).optional(),
      search: z.string().trim().max(64).optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: z.object({
      items: z.array(ZAdminLeader),
      total: z.number().int(),
      counts: z.record(z.string(), z.number().int()),
    }),
  }),
  admincopyreview: define({
    name: 'admincopyreview',
    path: PATHS.admincopyreview,
    access: { kind: 'staff', permission: 'copy.review' },
    mutates: true,
    summary: 'Approves or rejects a leader application (a rejection needs a reason); the trader is told',
    input: z.object({ leader_id: ZAccountId, approve: z.boolean(), reason: ZReason.optional() }),
    output: ZAdminLeader,
  }),
  admincopysuspend: define({
    name: 'admincopysuspend',
    path: PATHS.admincopysuspend,
    access: { kind: 'staff', permission: 'copy.suspend' },
    mutates: true,
    summary:
      'Suspends a leader (nothing new is copied, no new followers; the followers are told) or reinstates one',
    input: z.object({ leader_id: ZAccountId, suspend: z.boolean(), reason: ZReason.optional() }),
    output: ZAdminLeader,
  }),
  admincopyrelations: define({
    name: 'admincopyrelations',
    path: PATHS.admincopyrelations,
    access: { kind: 'staff', permission: 'copy.view' },
    mutates: false,
    summary: 'Copy relations, by leader or state, with the money, fees and skipped trades',
    input: z.object({
      leader_id: ZAccountId.optional(),
      status: z.enum(COPY_STATES).optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: z.object({ items: z.array(ZAdminRelation), total: z.number().int() }),
  }),
  admincopysettlements: define({
    name: 'admincopysettlements',
    path: PATHS.admincopysettlements,
    access: { kind: 'staff', permission: 'copy.view' },
    mutates: false,
    summary: 'Fee settlements, newest first, with totals',
    input: z.object({ leader_id: ZAccountId.optional(), page: ZPage, size: ZSize }),
    output: z.object({
      items: z.array(ZFeeSettlement),
      total: z.number().int(),
      /** Fees charged per currency, all settlements. */
      totals: z.array(z.object({ currency: z.string(), fees: z.string() })),
    }),
  }),
  admincopyexposure: define({
    name: 'admincopyexposure',
    path: PATHS.admincopyexposure,
    access: { kind: 'staff', permission: 'risk.view' },
    mutates: false,
    summary: 'Open copied volume per symbol and per leader (buy, sell, net lots; positions)',
    input: z.object({}).passthrough(),
    output: z.object({
      symbols: z.array(
        z.object({
          symbol: z.string(),
          buyLots: z.string(),
          sellLots: z.string(),
          netLots: z.string(),
          positions: z.number().int(),
        }),
      ),
      leaders: z.array(
        z.object({
          leader_id: z.number().int(),
          nick: z.string(),
          followers: z.number().int(),
          positions: z.number().int(),
          lots: z.string(),
        }),
      ),
    }),
  }),
  admincopysettings: define({
    name: 'admincopysettings',
    path: PATHS.admincopysettings,
    access: { kind: 'staff', permission: 'copy.view' },
    mutates: false,
    summary: "The broker's copy-trading rules",
    input: z.object({}).passthrough(),
    output: ZCopySettings,
  }),
  admincopysettingssave: define({
    name: 'admincopysettingssave',
    path: PATHS.admincopysettingssave,
    access: { kind: 'staff', permission: 'copy.settings' },
    mutates: true,
    summary: "Saves the broker's copy-trading rules (auto-approval, maximum fee)",
    input: ZCopySettings,
    output: ZCopySettings,
  }),
} as const;
