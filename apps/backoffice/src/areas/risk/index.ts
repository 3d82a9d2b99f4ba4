import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { TAreaPages, TAreaRoutes } from '../types';
import { RiskPage } from './RiskPage';

const read = (path: string) => ({ path, mutates: false });
const change = (path: string) => ({ path, mutates: true });

/** The risk area's calls (route name to path and whether it changes state). */
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
} as const satisfies TAreaRoutes;

/** The risk area's pages, by menu key; each page handles the paths under its menu path. */
export const RISK_PAGES: TAreaPages = { risk: RiskPage };
