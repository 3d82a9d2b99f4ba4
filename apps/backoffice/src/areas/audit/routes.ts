import { AUDIT_PATHS } from '@broker/contracts/admin/audit-paths';
import { change, read, type TAreaRoutes } from '../types';

/** The audit area's calls (route name to path and whether it changes state). */
export const AUDIT_ROUTES = {
  adminoperationlist: read(AUDIT_PATHS.adminoperationlist),
  adminoperationdetail: read(AUDIT_PATHS.adminoperationdetail),
  adminoperationactions: read(AUDIT_PATHS.adminoperationactions),
  adminoperationverify: read(AUDIT_PATHS.adminoperationverify),
  adminoperationexport: change(AUDIT_PATHS.adminoperationexport),
  adminstatsdaily: read(AUDIT_PATHS.adminstatsdaily),
  adminversionlist: read(AUDIT_PATHS.adminversionlist),
  adminversionsave: change(AUDIT_PATHS.adminversionsave),
  adminversiondelete: change(AUDIT_PATHS.adminversiondelete),
  adminpackagemine: read(AUDIT_PATHS.adminpackagemine),
  adminpackagelist: read(AUDIT_PATHS.adminpackagelist),
  adminpackagesave: change(AUDIT_PATHS.adminpackagesave),
  adminpackagedelete: change(AUDIT_PATHS.adminpackagedelete),
  adminpackageassign: change(AUDIT_PATHS.adminpackageassign),
} as const satisfies TAreaRoutes;
