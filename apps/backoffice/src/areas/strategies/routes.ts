import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { change, read, type TAreaRoutes } from '../types';

/**
 * The strategy-bot area's calls (route name to path and whether it changes state). The bots'
 * exposure (`adminstrategyexposure`) is the risk page's call, in the risk area's list.
 */
export const STRATEGY_ROUTES = {
  adminstrategies: read(ROUTE_PATHS.adminstrategies),
  adminstrategydetail: read(ROUTE_PATHS.adminstrategydetail),
  adminstrategystop: change(ROUTE_PATHS.adminstrategystop),
} as const satisfies TAreaRoutes;
