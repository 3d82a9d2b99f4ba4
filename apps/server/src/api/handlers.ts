import type { THandlers } from '../http/gateway';
import { countStaff } from '../modules/access';
import { pageViewCount } from '../modules/content';
import { countUsers } from '../modules/identity';
import { visibleTenantCount } from '../modules/tenancy';
import { accountHandlers } from './account';
import { accessHandlers } from './admin/access';
import { auditHandlers } from './admin/audit';
import { customersHandlers } from './admin/customers';
import { fundingAdminHandlers } from './admin/funding';
import { kycAdminHandlers } from './admin/kyc';
import { marketHandlers } from './admin/market';
import { riskHandlers } from './admin/risk';
import { strategyAdminHandlers } from './admin/strategies';
import { alertHandlers } from './alerts';
import { authHandlers } from './auth';
import { chartsHandlers } from './charts';
import { contentHandlers } from './content';
import { copyHandlers } from './copy';
import { fundingHandlers } from './funding';
import { endSession } from './identity';
import { kycHandlers } from './kyc';
import { pushHandlers } from './push';
import { quoteHandlers } from './quotes';
import { strategyHandlers } from './strategies';
import { tradingHandlers } from './trading';

/**
 * The routes whose handlers use the trading engine (its memory or its commands): on an instance that
 * does not lead the engine they are carried to the leader over the bus, after the sessions, the
 * permission, CSRF, the trade token, the rate limits and the input were checked where they arrived
 * (issue 20, ADR 014). Price alerts go too: their index lives beside the engine, on the leader.
 */
export const ENGINE_ROUTES: ReadonlySet<string> = new Set([
  ...Object.keys(tradingHandlers),
  ...Object.keys(copyHandlers),
  ...Object.keys(strategyHandlers),
  ...Object.keys(strategyAdminHandlers),
  ...Object.keys(fundingHandlers),
  ...Object.keys(fundingAdminHandlers),
  ...Object.keys(customersHandlers),
  ...Object.keys(marketHandlers),
  ...Object.keys(riskHandlers),
  ...Object.keys(alertHandlers),
  'symbols',
  'adminbrokercreate',
]);

/** Every route's handler: the route families' maps put together (a missing one is a type error). */
export const handlers: THandlers = {
  ...quoteHandlers,
  ...accessHandlers,
  ...auditHandlers,
  ...customersHandlers,
  ...marketHandlers,
  ...riskHandlers,
  ...tradingHandlers,
  ...authHandlers,
  ...accountHandlers,
  ...pushHandlers,
  ...contentHandlers,
  ...kycHandlers,
  ...kycAdminHandlers,
  ...fundingHandlers,
  ...fundingAdminHandlers,
  ...chartsHandlers,
  ...alertHandlers,
  ...copyHandlers,
  ...strategyHandlers,
  ...strategyAdminHandlers,
  adminlogout: (_input, ctx) => endSession(ctx, 'staff'),

  adminoverview: async (_input, ctx) => {
    const db = ctx.services.database.db;
    const tenantId = ctx.tenant.id;
    const startOfDay = new Date();
    startOfDay.setUTCHours(0, 0, 0, 0);
    return {
      // The platform operator sees every broker; a broker sees only itself.
      tenants: await visibleTenantCount(db, tenantId),
      users: await countUsers(db, { tenantId }),
      staff: await countStaff(db, { tenantId }),
      pageViewsToday: await pageViewCount(db, { tenantId, since: startOfDay }),
    };
  },
};
