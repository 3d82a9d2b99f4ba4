import type { auditRoutes } from '@broker/contracts/admin/audit-routes';
import type { TCallContext } from '../../http/context';
import type { THandlers } from '../../http/gateway';
import { countActiveStaff, staffIdsByUsername, staffNames } from '../../modules/access';
import {
  exportOperations,
  listOperations,
  operationActions,
  operationDetail,
  verifyChain,
} from '../../modules/audit';
import {
  assignPackage,
  checkForUpdate,
  deletePackage,
  deleteVersion,
  listPackages,
  listVersions,
  myPackage,
  savePackage,
  saveVersion,
} from '../../modules/entitlements';
import { countUsers, userIdsByContact, userNames } from '../../modules/identity';
import { countEnabledSymbols } from '../../modules/market';
import { dailyStatistics } from '../../modules/reporting';
import { countOpenAccounts } from '../../modules/trading';
import { staffActorOf } from '../actors';

const ports = (ctx: TCallContext) => ({ db: ctx.services.database.db });

/** The operation history names its actors through access and identity (they record into it). */
const operationPorts = (ctx: TCallContext) => ({
  ...ports(ctx),
  actors: { staffNames, userNames, staffIdsByUsername, userIdsByContact },
});

/**
 * The package page counts what other modules own through them: active staff, traders, open trading
 * accounts, enabled symbols.
 */
const packagePorts = (ctx: TCallContext) => ({
  ...ports(ctx),
  counters: {
    staff: countActiveStaff,
    customers: countUsers,
    tradingAccounts: countOpenAccounts,
    symbols: countEnabledSymbols,
  },
});

/** Handlers of the back office's audit-area routes (operations, statistics, versions, packages). */
export const auditHandlers: Pick<THandlers, keyof typeof auditRoutes> = {
  adminoperationlist: async ({ page, pageSize, ...filter }, ctx) =>
    listOperations(operationPorts(ctx), { actor: staffActorOf(ctx), filter, page, pageSize }),

  adminoperationdetail: async ({ id }, ctx) =>
    operationDetail(operationPorts(ctx), { actor: staffActorOf(ctx), id }),

  adminoperationactions: async (_input, ctx) => operationActions(ports(ctx), { actor: staffActorOf(ctx) }),

  adminoperationverify: async (_input, ctx) =>
    verifyChain({ db: ctx.services.database.db, tenantId: ctx.tenant.id }),

  adminoperationexport: async (filter, ctx) =>
    exportOperations(operationPorts(ctx), { actor: staffActorOf(ctx), filter }),

  adminstatsdaily: async ({ from, to, scope }, ctx) =>
    dailyStatistics(
      { db: ctx.services.database.db, market: ctx.services.market },
      { actor: staffActorOf(ctx), from, to, scope },
    ),

  adminversionlist: async (_input, ctx) => listVersions(ports(ctx), { actor: staffActorOf(ctx) }),

  adminversionsave: async (input, ctx) => saveVersion(ports(ctx), { ...input, actor: staffActorOf(ctx) }),

  adminversiondelete: async ({ id }, ctx) => deleteVersion(ports(ctx), { actor: staffActorOf(ctx), id }),

  appversion: async ({ platform, version }, ctx) =>
    checkForUpdate(ports(ctx), { tenantId: ctx.tenant.id, platform, version, locale: ctx.locale }),

  adminpackagemine: async (_input, ctx) => myPackage(packagePorts(ctx), { actor: staffActorOf(ctx) }),

  adminpackagelist: async (_input, ctx) => listPackages(ports(ctx), { actor: staffActorOf(ctx) }),

  adminpackagesave: async (input, ctx) => savePackage(ports(ctx), { ...input, actor: staffActorOf(ctx) }),

  adminpackagedelete: async ({ id }, ctx) => deletePackage(ports(ctx), { actor: staffActorOf(ctx), id }),

  adminpackageassign: async ({ tenantId, packageId }, ctx) =>
    assignPackage(ports(ctx), { actor: staffActorOf(ctx), brokerId: tenantId, packageId }),
};
