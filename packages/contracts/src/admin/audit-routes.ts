import { z } from 'zod';
import { define, empty } from '../route-kit';
import { AUDIT_PATHS } from './audit-paths';
import {
  APP_PLATFORMS,
  AUDIT_ACTOR_KINDS,
  PACKAGE_OPTIONAL_MODULES,
  SEMVER_PATTERN,
  STATS_MAX_DAYS,
} from './audit-rules';

/** A UTC calendar day, YYYY-MM-DD. */
const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(
    (day) =>
      !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) &&
      new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
  );
const ZId = z.string().trim().min(1).max(64);
const ZSemver = z.string().trim().regex(SEMVER_PATTERN);
const ZPlatform = z.enum(APP_PLATFORMS);
const ZDecimalText = z.string();

// Operation history ------------------------------------------------------------------------------

export const ZOperationFilter = z.object({
  /** Staff username, trader email or phone, or an actor id (contains, case-insensitive). */
  actor: z.string().trim().max(100).optional(),
  actorKind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  /** The action starts with this (`staff.`, `user.signin`). */
  action: z.string().trim().max(100).optional(),
  /** The target contains this. */
  target: z.string().trim().max(200).optional(),
  /** First and last UTC day, both included. */
  from: ZDay.optional(),
  to: ZDay.optional(),
});

export const ZOperationEntry = z.object({
  id: z.string(),
  seq: z.number().int(),
  createdAt: z.string(),
  actorKind: z.string(),
  actorId: z.string().nullable(),
  /** Staff username or trader email/phone, when the actor still exists in this broker. */
  actorName: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
});

export const ZOperationDetail = ZOperationEntry.extend({
  details: z.record(z.string(), z.unknown()),
  hash: z.string(),
  prevHash: z.string(),
  /** The stored hash equals the one recomputed from the stored entry now. */
  hashValid: z.boolean(),
});

export const ZChainStatus = z.object({
  intact: z.boolean(),
  /** Entries checked (the whole chain when intact; up to the break otherwise). */
  entries: z.number().int(),
  /** The newest entry's hash: write it down elsewhere to detect a rewritten tail later. */
  headSeq: z.number().int(),
  headHash: z.string().nullable(),
  checkedAt: z.string(),
  broken: z
    .object({
      seq: z.number().int(),
      id: z.string(),
      createdAt: z.string(),
      /** content: the entry differs from what was hashed; missing: entries before it are gone; link: it does not follow the entry before it. */
      reason: z.enum(['content', 'missing', 'link']),
    })
    .nullable(),
});

// Statistics -------------------------------------------------------------------------------------

const ZStatsFigures = z.object({
  registrations: z.number().int(),
  activeTraders: z.number().int(),
  deals: z.number().int(),
  volumeLots: ZDecimalText,
  notionalUsd: ZDecimalText,
  clientProfitUsd: ZDecimalText,
  brokerPnlUsd: ZDecimalText,
  depositsUsd: ZDecimalText,
  withdrawalsUsd: ZDecimalText,
});

export const ZStatsDay = ZStatsFigures.extend({ day: z.string() });

export const ZStatsSymbol = z.object({
  symbol: z.string(),
  deals: z.number().int(),
  traders: z.number().int(),
  volumeLots: ZDecimalText,
  notionalUsd: ZDecimalText,
  clientProfitUsd: ZDecimalText,
  brokerPnlUsd: ZDecimalText,
});

export const ZStatsScope = z.enum(['real', 'demo', 'all']);

// Versions ---------------------------------------------------------------------------------------

/** Release notes by language code; zh-CN and en are required. */
const ZNotes = z
  .record(z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/), z.string().trim().max(4000))
  .refine((notes) => Object.keys(notes).length <= 20);

export const ZAppVersion = z.object({
  id: z.string(),
  platform: ZPlatform,
  version: z.string(),
  buildNumber: z.number().int(),
  forceUpdate: z.boolean(),
  minSupportedVersion: z.string().nullable(),
  notes: z.record(z.string(), z.string()),
  downloadUrl: z.string(),
  releasedAt: z.string(),
  revision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZAppVersionInput = z.object({
  /** Absent to create; the id and the revision read to edit (a stale revision answers -6017). */
  id: ZId.optional(),
  revision: z.number().int().positive().optional(),
  platform: ZPlatform,
  version: ZSemver,
  buildNumber: z.number().int().min(0).max(2_147_483_647),
  forceUpdate: z.boolean(),
  minSupportedVersion: ZSemver.nullable(),
  notes: ZNotes,
  downloadUrl: z
    .string()
    .trim()
    .max(500)
    .regex(/^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/),
  releasedAt: z.iso.datetime({ offset: true }),
});

// Packages ---------------------------------------------------------------------------------------

const ZLimit = z.number().int().min(0).max(10_000_000).nullable();

export const ZPackageLimits = z.object({
  staff: ZLimit,
  customers: ZLimit,
  tradingAccounts: ZLimit,
  symbols: ZLimit,
});

export const ZPackage = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  modules: z.array(z.string()),
  limits: ZPackageLimits,
  revision: z.number().int(),
  brokers: z.number().int(),
  updatedAt: z.string(),
});

export const ZPackageUsage = z.object({
  staff: z.number().int(),
  customers: z.number().int(),
  tradingAccounts: z.number().int(),
  symbols: z.number().int(),
});

export const ZPackageInput = z.object({
  id: ZId.optional(),
  revision: z.number().int().positive().optional(),
  name: z.string().trim().min(1).max(60),
  description: z.string().trim().max(500),
  modules: z
    .array(z.string().refine((module) => PACKAGE_OPTIONAL_MODULES.includes(module)))
    .max(PACKAGE_OPTIONAL_MODULES.length),
  limits: ZPackageLimits.extend({ staff: z.number().int().min(1).max(10_000_000).nullable() }),
});

/** The back office's audit-area routes: each names the permission it needs. */
export const auditRoutes = {
  adminoperationlist: define({
    name: 'adminoperationlist',
    path: AUDIT_PATHS.adminoperationlist,
    access: { kind: 'staff', permission: 'operations.view' },
    mutates: false,
    summary: "One page of the broker's operation history, newest first, filtered",
    input: ZOperationFilter.extend({
      page: z.number().int().min(1).max(100_000).default(1),
      pageSize: z.number().int().min(5).max(100).default(20),
    }),
    output: z.object({
      rows: z.array(ZOperationEntry),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
    }),
  }),
  adminoperationdetail: define({
    name: 'adminoperationdetail',
    path: AUDIT_PATHS.adminoperationdetail,
    access: { kind: 'staff', permission: 'operations.view' },
    mutates: false,
    summary: 'One operation-history entry with its details and hashes',
    input: z.object({ id: z.string().regex(/^\d{1,18}$/) }),
    output: ZOperationDetail,
  }),
  adminoperationactions: define({
    name: 'adminoperationactions',
    path: AUDIT_PATHS.adminoperationactions,
    access: { kind: 'staff', permission: 'operations.view' },
    mutates: false,
    summary: 'The actions recorded for this broker, for the filter suggestions',
    input: empty,
    output: z.object({ actions: z.array(z.string()) }),
  }),
  adminoperationverify: define({
    name: 'adminoperationverify',
    path: AUDIT_PATHS.adminoperationverify,
    access: { kind: 'staff', permission: 'operations.view' },
    mutates: false,
    summary: "Walks the broker's hash chain and reports the first broken link",
    input: empty,
    output: ZChainStatus,
  }),
  adminoperationexport: define({
    name: 'adminoperationexport',
    path: AUDIT_PATHS.adminoperationexport,
    access: { kind: 'staff', permission: 'operations.export' },
    // The export itself is recorded in the history.
    mutates: true,
    summary: 'The filtered operation history as CSV (newest first, at most 50,000 rows)',
    input: ZOperationFilter,
    output: z.object({
      filename: z.string(),
      csv: z.string(),
      rows: z.number().int(),
      /** More entries matched than one export holds. */
      capped: z.boolean(),
    }),
  }),
  adminstatsdaily: define({
    name: 'adminstatsdaily',
    path: AUDIT_PATHS.adminstatsdaily,
    access: { kind: 'staff', permission: 'statistics.view' },
    mutates: false,
    summary: `Registrations, traders, volume, broker P&L and funding per UTC day (at most ${STATS_MAX_DAYS} days) and per symbol`,
    input: z.object({
      from: ZDay.optional(),
      to: ZDay.optional(),
      scope: ZStatsScope.default('real'),
    }),
    output: z.object({
      from: z.string(),
      to: z.string(),
      scope: ZStatsScope,
      currency: z.literal('USD'),
      days: z.array(ZStatsDay),
      totals: ZStatsFigures,
      symbols: z.array(ZStatsSymbol),
      /** Currencies that could not be converted to USD (no quote): their amounts are left out. */
      unconverted: z.array(z.string()),
    }),
  }),
  adminversionlist: define({
    name: 'adminversionlist',
    path: AUDIT_PATHS.adminversionlist,
    access: { kind: 'staff', permission: 'versions.view' },
    mutates: false,
    summary: "The broker's app releases on every platform",
    input: empty,
    output: z.object({ versions: z.array(ZAppVersion) }),
  }),
  adminversionsave: define({
    name: 'adminversionsave',
    path: AUDIT_PATHS.adminversionsave,
    access: { kind: 'staff', permission: 'versions.edit' },
    mutates: true,
    summary: 'Creates or edits an app release',
    input: ZAppVersionInput,
    output: ZAppVersion,
  }),
  adminversiondelete: define({
    name: 'adminversiondelete',
    path: AUDIT_PATHS.adminversiondelete,
    access: { kind: 'staff', permission: 'versions.edit' },
    mutates: true,
    summary: 'Removes an app release',
    input: z.object({ id: ZId }),
    output: z.object({ ok: z.literal(true) }),
  }),
  appversion: define({
    name: 'appversion',
    path: AUDIT_PATHS.appversion,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Update check of the apps: the latest release of a platform and whether the app must update',
    input: z.object({ platform: ZPlatform, version: ZSemver }),
    output: z.object({
      latest: z
        .object({
          version: z.string(),
          buildNumber: z.number().int(),
          notes: z.string(),
          downloadUrl: z.string(),
          releasedAt: z.string(),
          forceUpdate: z.boolean(),
        })
        .nullable(),
      minSupportedVersion: z.string().nullable(),
      updateAvailable: z.boolean(),
      forced: z.boolean(),
    }),
  }),
  adminpackagemine: define({
    name: 'adminpackagemine',
    path: AUDIT_PATHS.adminpackagemine,
    access: { kind: 'staff', permission: 'packages.view' },
    mutates: false,
    summary: "This broker's package (null: everything, no limits) and what it uses of the limits",
    input: empty,
    output: z.object({
      /** This is the platform operator, which defines packages and assigns them. */
      platform: z.boolean(),
      package: ZPackage.nullable(),
      usage: ZPackageUsage,
      optionalModules: z.array(z.string()),
    }),
  }),
  adminpackagelist: define({
    name: 'adminpackagelist',
    path: AUDIT_PATHS.adminpackagelist,
    access: { kind: 'staff', permission: 'packages.view' },
    mutates: false,
    summary: 'Platform operator only: every package and every broker with its package',
    input: empty,
    output: z.object({
      packages: z.array(ZPackage),
      brokers: z.array(
        z.object({
          tenantId: z.string(),
          slug: z.string(),
          name: z.string(),
          status: z.string(),
          packageId: z.string().nullable(),
        }),
      ),
    }),
  }),
  adminpackagesave: define({
    name: 'adminpackagesave',
    path: AUDIT_PATHS.adminpackagesave,
    access: { kind: 'staff', permission: 'packages.edit' },
    mutates: true,
    summary: 'Platform operator only: creates or edits a package',
    input: ZPackageInput,
    output: ZPackage,
  }),
  adminpackagedelete: define({
    name: 'adminpackagedelete',
    path: AUDIT_PATHS.adminpackagedelete,
    access: { kind: 'staff', permission: 'packages.edit' },
    mutates: true,
    summary: 'Platform operator only: removes a package no broker has',
    input: z.object({ id: ZId }),
    output: z.object({ ok: z.literal(true) }),
  }),
  adminpackageassign: define({
    name: 'adminpackageassign',
    path: AUDIT_PATHS.adminpackageassign,
    access: { kind: 'staff', permission: 'packages.edit' },
    mutates: true,
    summary: 'Platform operator only: gives a broker a package (null: none, everything on)',
    input: z.object({ tenantId: ZId, packageId: ZId.nullable() }),
    output: z.object({ ok: z.literal(true) }),
  }),
} as const;
