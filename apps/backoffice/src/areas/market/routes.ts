import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import type { TAreaRoutes } from '../types';

/** The market area's calls (route name to path and whether it changes state). */
export const MARKET_ROUTES = {
  adminmarketinstruments: { path: ROUTE_PATHS.adminmarketinstruments, mutates: false },
  adminmarketquotes: { path: ROUTE_PATHS.adminmarketquotes, mutates: false },
  adminmarketinstrumentsave: { path: ROUTE_PATHS.adminmarketinstrumentsave, mutates: true },
  adminmarketgrouplist: { path: ROUTE_PATHS.adminmarketgrouplist, mutates: false },
  adminmarketgroupsave: { path: ROUTE_PATHS.adminmarketgroupsave, mutates: true },
  adminmarketgroupdelete: { path: ROUTE_PATHS.adminmarketgroupdelete, mutates: true },
  adminmarketgroupdefault: { path: ROUTE_PATHS.adminmarketgroupdefault, mutates: true },
  adminmarketgroupterms: { path: ROUTE_PATHS.adminmarketgroupterms, mutates: false },
  adminmarketgrouptermssave: { path: ROUTE_PATHS.adminmarketgrouptermssave, mutates: true },
  adminmarkethistory: { path: ROUTE_PATHS.adminmarkethistory, mutates: false },
} as const satisfies TAreaRoutes;
