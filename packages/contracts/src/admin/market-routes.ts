import { z } from 'zod';
import { define, empty } from '../route-kit';
import { MARKET_PATHS } from './market-paths';

/*
 * The schemas check shapes only; the rules (volume limits, ranges, sessions, tiers and how a group's
 * overrides fit the instrument) are @broker/domain/market/market-config's, shared with the back
 * office, and a refusal answers -6013 with the offending fields.
 */
const ZSymbol = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,12}$/, 'symbolFormat');
const ZId = z.string().trim().min(1).max(64);
const ZDecimalText = z.string().trim().max(24);
/** The exact `updated_at` of the row as read (optimistic concurrency: a stale one answers -6017). */
const ZVersion = z.string().min(1).max(64);

export const ZSessionWindow = z.object({ from: z.number().int(), to: z.number().int() });
export const ZLeverageTier = z.object({ upToLots: ZDecimalText, maxLeverage: z.number().int() });

export const ZInstrumentConfig = z.object({
  enabled: z.boolean(),
  closeOnly: z.boolean(),
  shortAllowed: z.boolean(),
  markupPoints: z.number().int(),
  stopsLevelPoints: z.number().int(),
  minVolume: ZDecimalText,
  volumeStep: ZDecimalText,
  maxVolume: ZDecimalText,
  maxLeverage: z.number().int().nullable(),
  leverageTiers: z.array(ZLeverageTier).max(20),
  sessions: z.array(ZSessionWindow).max(200),
  swapLong: ZDecimalText,
  swapShort: ZDecimalText,
  commissionPerLot: ZDecimalText,
});

/** A group's overrides: any subset of these keys. The spread markup and stops level are not among them. */
export const ZGroupOverrides = z
  .object({
    enabled: z.boolean(),
    closeOnly: z.boolean(),
    shortAllowed: z.boolean(),
    minVolume: ZDecimalText,
    volumeStep: ZDecimalText,
    maxVolume: ZDecimalText,
    maxLeverage: z.number().int(),
    leverageTiers: z.array(ZLeverageTier).max(20),
    swapLong: ZDecimalText,
    swapShort: ZDecimalText,
    commissionPerLot: ZDecimalText,
    sessions: z.array(ZSessionWindow).max(200),
  })
  .partial()
  .strict();

export const ZMarketQuote = z.object({
  symbol: z.string(),
  /** The feed's prices and spread in points, before the broker's markup. */
  bid: z.string(),
  ask: z.string(),
  spread: z.number().int(),
  digits: z.number().int(),
  time: z.number().int(),
  status: z.enum(['open', 'closed']),
});

export const ZMarketInstrument = z.object({
  symbol: z.string(),
  category: z.enum(['forex', 'metals', 'energy', 'indices', 'crypto']),
  base: z.string(),
  quote: z.string(),
  digits: z.number().int(),
  contractSize: z.string(),
  defaultLeverage: z.number().int(),
  marginCurrency: z.string(),
  profitCurrency: z.string(),
  hot: z.boolean(),
  config: ZInstrumentConfig,
  /** The account groups that override some of this instrument's terms, with their overrides. */
  groups: z.array(z.object({ groupId: z.string(), groupName: z.string(), overrides: ZGroupOverrides })),
  /** The feed's latest quote (before the broker's markup), or null before the first tick. */
  lastQuote: ZMarketQuote.nullable(),
  version: z.string(),
  updatedAt: z.string(),
});

export const ZAccountGroup = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  isDefault: z.boolean(),
  /** Trading accounts in the group (for the default group, also the accounts not yet placed in one). */
  accounts: z.number().int(),
  /** Instruments with overrides in this group. */
  overrides: z.number().int(),
  marginCallBp: z.number().int(),
  stopOutBp: z.number().int(),
  negativeBalanceProtection: z.boolean(),
  version: z.string(),
  createdAt: z.string(),
});

export const ZGroupTermsEntry = z.object({
  symbol: z.string(),
  overrides: ZGroupOverrides,
  version: z.string(),
});

export const ZMarketHistoryEntry = z.object({
  id: z.string(),
  createdAt: z.string(),
  staffId: z.string().nullable(),
  staffName: z.string().nullable(),
  scope: z.enum(['instrument', 'group_terms', 'group']),
  symbol: z.string().nullable(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

export type TMarketInstrument = z.infer<typeof ZMarketInstrument>;
export type TMarketQuote = z.infer<typeof ZMarketQuote>;
export type TAccountGroup = z.infer<typeof ZAccountGroup>;
export type TMarketHistoryEntry = z.infer<typeof ZMarketHistoryEntry>;

/** The back office's market routes: each names the permission it needs. */
export const marketRoutes = {
  adminmarketinstruments: define({
    name: 'adminmarketinstruments',
    path: MARKET_PATHS.adminmarketinstruments,
    access: { kind: 'staff', permission: 'market.view' },
    mutates: false,
    summary: "The broker's instruments with their current trading terms",
    input: empty,
    output: z.object({ items: z.array(ZMarketInstrument) }),
  }),
  adminmarketquotes: define({
    name: 'adminmarketquotes',
    path: MARKET_PATHS.adminmarketquotes,
    access: { kind: 'staff', permission: 'market.view' },
    mutates: false,
    summary: "The feed's latest quote of each of the broker's instruments",
    input: empty,
    output: z.object({ items: z.array(ZMarketQuote) }),
  }),
  adminmarketinstrumentsave: define({
    name: 'adminmarketinstrumentsave',
    path: MARKET_PATHS.adminmarketinstrumentsave,
    access: { kind: 'staff', permission: 'market.edit' },
    mutates: true,
    summary: "Saves an instrument's trading terms (refused -6017 when someone saved it meanwhile)",
    input: z.object({ symbol: ZSymbol, version: ZVersion, config: ZInstrumentConfig }),
    output: z.object({
      item: ZMarketInstrument,
      changed: z.boolean(),
      /** False when the terms were saved but the live engine did not confirm taking them. */
      applied: z.boolean(),
    }),
  }),
  adminmarketgrouplist: define({
    name: 'adminmarketgrouplist',
    path: MARKET_PATHS.adminmarketgrouplist,
    access: { kind: 'staff', permission: 'market.view' },
    mutates: false,
    summary: "The broker's account groups with their account counts",
    input: empty,
    output: z.object({ items: z.array(ZAccountGroup) }),
  }),
  adminmarketgroupsave: define({
    name: 'adminmarketgroupsave',
    path: MARKET_PATHS.adminmarketgroupsave,
    access: { kind: 'staff', permission: 'market.groups' },
    mutates: true,
    summary: 'Creates an account group, or renames and describes one',
    input: z.object({
      id: ZId.optional(),
      name: z.string().trim().min(1, 'required').max(40, 'tooLong'),
      description: z.string().trim().max(200, 'tooLong').default(''),
      version: ZVersion.optional(),
    }),
    output: z.object({ item: ZAccountGroup, applied: z.boolean() }),
  }),
  adminmarketgroupdelete: define({
    name: 'adminmarketgroupdelete',
    path: MARKET_PATHS.adminmarketgroupdelete,
    access: { kind: 'staff', permission: 'market.groups' },
    mutates: true,
    summary: 'Deletes an account group without accounts (never the default group)',
    input: z.object({ id: ZId, version: ZVersion }),
    output: z.object({ ok: z.literal(true), applied: z.boolean() }),
  }),
  adminmarketgroupdefault: define({
    name: 'adminmarketgroupdefault',
    path: MARKET_PATHS.adminmarketgroupdefault,
    access: { kind: 'staff', permission: 'market.groups' },
    mutates: true,
    summary: 'Makes a group the default one, which new trading accounts join',
    input: z.object({ id: ZId }),
    output: z.object({ ok: z.literal(true), applied: z.boolean() }),
  }),
  adminmarketgroupterms: define({
    name: 'adminmarketgroupterms',
    path: MARKET_PATHS.adminmarketgroupterms,
    access: { kind: 'staff', permission: 'market.view' },
    mutates: false,
    summary: "One account group and its overrides of instruments' terms",
    input: z.object({ groupId: ZId }),
    output: z.object({ group: ZAccountGroup, items: z.array(ZGroupTermsEntry) }),
  }),
  adminmarketgrouptermssave: define({
    name: 'adminmarketgrouptermssave',
    path: MARKET_PATHS.adminmarketgrouptermssave,
    access: { kind: 'staff', permission: 'market.groups' },
    mutates: true,
    summary: "Sets a group's overrides of one instrument (an empty set removes them)",
    input: z.object({
      groupId: ZId,
      symbol: ZSymbol,
      overrides: ZGroupOverrides,
      /** The overrides' version as read, or null when the group had none for this symbol. */
      version: ZVersion.nullable(),
    }),
    output: z.object({
      symbol: z.string(),
      overrides: ZGroupOverrides,
      version: z.string().nullable(),
      changed: z.boolean(),
      applied: z.boolean(),
    }),
  }),
  adminmarkethistory: define({
    name: 'adminmarkethistory',
    path: MARKET_PATHS.adminmarkethistory,
    access: { kind: 'staff', permission: 'market.view' },
    mutates: false,
    summary: 'Changes of the market configuration, newest first, by symbol, group and time',
    input: z.object({
      symbol: ZSymbol.optional(),
      groupId: ZId.optional(),
      scope: z.enum(['instrument', 'group_terms', 'group']).optional(),
      /** Milliseconds since 1970, inclusive; `to` exclusive. */
      from: z.number().int().nonnegative().optional(),
      to: z.number().int().nonnegative().optional(),
      page: z.number().int().min(1).max(100_000).default(1),
      pageSize: z.number().int().min(1).max(100).default(20),
    }),
    output: z.object({
      items: z.array(ZMarketHistoryEntry),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
    }),
  }),
} as const;
