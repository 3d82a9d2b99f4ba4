import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { change, read, type TAreaRoutes } from '../types';

/**
 * The copy-trading area's calls (route name to path and whether it changes state). The copied volume
 * (`admincopyexposure`) is the risk page's call, in the risk area's list.
 */
export const COPY_ROUTES = {
  admincopyleaders: read(ROUTE_PATHS.admincopyleaders),
  admincopyreview: change(ROUTE_PATHS.admincopyreview),
  admincopysuspend: change(ROUTE_PATHS.admincopysuspend),
  admincopyrelations: read(ROUTE_PATHS.admincopyrelations),
  admincopysettlements: read(ROUTE_PATHS.admincopysettlements),
  admincopysettings: read(ROUTE_PATHS.admincopysettings),
  admincopysettingssave: change(ROUTE_PATHS.admincopysettingssave),
} as const satisfies TAreaRoutes;
