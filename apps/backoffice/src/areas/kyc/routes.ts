import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { change, read, type TAreaRoutes } from '../types';

/** The KYC review area's calls (route name to path and whether it changes state). */
export const KYC_ROUTES = {
  adminkycqueue: read(ROUTE_PATHS.adminkycqueue),
  adminkycdetail: read(ROUTE_PATHS.adminkycdetail),
  adminkycapprove: change(ROUTE_PATHS.adminkycapprove),
  adminkycreject: change(ROUTE_PATHS.adminkycreject),
} as const satisfies TAreaRoutes;
