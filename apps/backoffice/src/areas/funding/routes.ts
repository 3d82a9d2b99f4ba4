import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { change, read, type TAreaRoutes } from '../types';

/** The funding area's calls (route name to path and whether it changes state). */
export const FUNDING_ROUTES = {
  adminfundingqueue: read(ROUTE_PATHS.adminfundingqueue),
  adminwithdrawreview: read(ROUTE_PATHS.adminwithdrawreview),
  adminwithdrawapprove: change(ROUTE_PATHS.adminwithdrawapprove),
  adminwithdrawreject: change(ROUTE_PATHS.adminwithdrawreject),
  admindepositdetail: read(ROUTE_PATHS.admindepositdetail),
  adminunmatched: read(ROUTE_PATHS.adminunmatched),
  adminreconcile: change(ROUTE_PATHS.adminreconcile),
  adminreconciliation: read(ROUTE_PATHS.adminreconciliation),
  adminfundingsettings: read(ROUTE_PATHS.adminfundingsettings),
  adminfundingsettingssave: change(ROUTE_PATHS.adminfundingsettingssave),
} as const satisfies TAreaRoutes;
