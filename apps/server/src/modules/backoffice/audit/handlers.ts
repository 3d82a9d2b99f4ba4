import type { auditRoutes } from '@broker/contracts/admin/audit-routes';
import type { TCallContext } from '../../../http/context';
import type { THandlers } from '../../../http/gateway';
import { recordAudit } from '../../audit/audit';
import { verifyChain } from './chain';
import { exportOperations, listOperations, operationActions, operationDetail } from './operations';
import { assignPackage, deletePackage, listPackages, myPackage, savePackage } from './packages';
import { dailyStatistics } from './statistics';
import { checkForUpdate, deleteVersion, listVersions, saveVersion } from './versions';

const scope = (ctx: TCallContext) => ({ db: ctx.services.database.db, tenantId: ctx.tenant.id });
/** The staff member making a change (the gateway sets ctx.staff on every staff route). */
const actor = (ctx: TCallContext) => ({ ...scope(ctx), staffId: ctx.staff!.staffId, ip: ctx.ip });

/** Handlers of the back office's audit-area routes (operations, statistics, versions, packages). */
export const auditHandlers: Pick<THandlers, keyof typeof auditRoutes> = {
  adminoperationlist: async ({ page, pageSize, ...filter }, ctx) =>
    listOperations({ ...scope(ctx), filter, page, pageSize }),

  adminoperationdetail: async ({ id }, ctx) => operationDetail({ ...scope(ctx), id }),

  adminoperationactions: async (_input, ctx) => operationActions(scope(ctx)),

  adminoperationverify: async (_input, ctx) => verifyChain(scope(ctx)),

  adminoperationexport: async (filter, ctx) => {
    const result = await exportOperations({ ...scope(ctx), filter });
    // An export takes the trail out of the system: it is recorded with its filter and size.
    const { staffId, ip } = actor(ctx);
    await recordAudit(ctx.services.database.db, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staffId,
      action: 'operations.export',
      target: result.filename,
      ip,
      details: { filter, rows: result.rows, capped: result.capped },
    });
    return result;
  },

  adminstatsdaily: async (input, ctx) =>
    dailyStatistics({ ...scope(ctx), market: ctx.services.market, input }),

  adminversionlist: async (_input, ctx) => listVersions(scope(ctx)),

  adminversionsave: async (input, ctx) => saveVersion({ ...actor(ctx), input: { ...input } }),

  adminversiondelete: async ({ id }, ctx) => deleteVersion({ ...actor(ctx), id }),

  appversion: async ({ platform, version }, ctx) =>
    checkForUpdate({ ...scope(ctx), platform, version, locale: ctx.locale }),

  adminpackagemine: async (_input, ctx) => myPackage(scope(ctx)),

  adminpackagelist: async (_input, ctx) => listPackages(scope(ctx)),

  adminpackagesave: async (input, ctx) => savePackage({ ...actor(ctx), input }),

  adminpackagedelete: async ({ id }, ctx) => deletePackage({ ...actor(ctx), id }),

  adminpackageassign: async ({ tenantId, packageId }, ctx) =>
    assignPackage({ ...actor(ctx), brokerId: tenantId, packageId }),
};
