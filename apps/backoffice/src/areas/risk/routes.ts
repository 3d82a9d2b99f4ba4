import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { change, read, type TAreaRoutes } from '../types';

/**
 * The risk area's calls (route name to path and whether it changes state), with the copied volume's
 * and the bots' exposure of the exposure tab.
 */
export const RISK_ROUTES = {
  adminriskexposure: read(ROUTE_PATHS.adminriskexposure),
  adminriskwinners: read(ROUTE_PATHS.adminriskwinners),
  adminriskmargincalls: read(ROUTE_PATHS.adminriskmargincalls),
  adminriskrules: read(ROUTE_PATHS.adminriskrules),
  adminriskrulesave: change(ROUTE_PATHS.adminriskrulesave),
  adminriskruledelete: change(ROUTE_PATHS.adminriskruledelete),
  adminriskliquidity: read(ROUTE_PATHS.adminriskliquidity),
  adminriskhedgeretry: change(ROUTE_PATHS.adminriskhedgeretry),
  adminrisklevels: read(ROUTE_PATHS.adminrisklevels),
  adminrisklevelsave: change(ROUTE_PATHS.adminrisklevelsave),
  adminrisklevelpreview: read(ROUTE_PATHS.adminrisklevelpreview),
  admincopyexposure: read(ROUTE_PATHS.admincopyexposure),
  adminstrategyexposure: read(ROUTE_PATHS.adminstrategyexposure),
} as const satisfies TAreaRoutes;
