/**
 * Paths of the back office's audit-area routes (schema-free, for the browser): operation history,
 * statistics, app versions and packages, plus the apps' public update check.
 */
export const AUDIT_PATHS = {
  adminoperationlist: '/api/v1/admin/operations/list',
  adminoperationdetail: '/api/v1/admin/operations/detail',
  adminoperationactions: '/api/v1/admin/operations/actions',
  adminoperationverify: '/api/v1/admin/operations/verify',
  adminoperationexport: '/api/v1/admin/operations/export',
  adminstatsdaily: '/api/v1/admin/statistics/daily',
  adminversionlist: '/api/v1/admin/versions/list',
  adminversionsave: '/api/v1/admin/versions/save',
  adminversiondelete: '/api/v1/admin/versions/delete',
  adminpackagemine: '/api/v1/admin/packages/mine',
  adminpackagelist: '/api/v1/admin/packages/list',
  adminpackagesave: '/api/v1/admin/packages/save',
  adminpackagedelete: '/api/v1/admin/packages/delete',
  adminpackageassign: '/api/v1/admin/packages/assign',
  appversion: '/api/v1/common/appversion',
} as const;
