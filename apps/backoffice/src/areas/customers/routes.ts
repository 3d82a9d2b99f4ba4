import { ROUTE_PATHS } from '@broker/contracts/route-paths';
import { change, read, type TAreaRoutes } from '../types';

/** The customers area's calls (route name to path and whether it changes state). */
export const CUSTOMERS_ROUTES = {
  admincustomerlist: read(ROUTE_PATHS.admincustomerlist),
  admincustomerdetail: read(ROUTE_PATHS.admincustomerdetail),
  admincustomercontact: read(ROUTE_PATHS.admincustomercontact),
  admincustomerdeals: read(ROUTE_PATHS.admincustomerdeals),
  admincustomerorders: read(ROUTE_PATHS.admincustomerorders),
  admincustomerledger: read(ROUTE_PATHS.admincustomerledger),
  admincustomeradjustments: read(ROUTE_PATHS.admincustomeradjustments),
  admincustomerstatus: change(ROUTE_PATHS.admincustomerstatus),
  admincustomersignout: change(ROUTE_PATHS.admincustomersignout),
  admincustomerrestrict: change(ROUTE_PATHS.admincustomerrestrict),
  admincustomerdemoreset: change(ROUTE_PATHS.admincustomerdemoreset),
  admincustomerpositionclose: change(ROUTE_PATHS.admincustomerpositionclose),
  admincustomerordercancel: change(ROUTE_PATHS.admincustomerordercancel),
  admincustomermovegroup: change(ROUTE_PATHS.admincustomermovegroup),
  admincustomernote: change(ROUTE_PATHS.admincustomernote),
  admincustomeradjust: change(ROUTE_PATHS.admincustomeradjust),
  admincustomerapprove: change(ROUTE_PATHS.admincustomerapprove),
  admincustomerreject: change(ROUTE_PATHS.admincustomerreject),
  admincustomerthreshold: change(ROUTE_PATHS.admincustomerthreshold),
} as const satisfies TAreaRoutes;
