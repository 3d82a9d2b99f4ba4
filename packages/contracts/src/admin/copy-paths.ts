/** Paths of the back office's copy-trading routes (schema-free, for the browser). */
export const ADMIN_COPY_PATHS = {
  admincopyleaders: '/api/v1/admin/copy/leaders',
  admincopyreview: '/api/v1/admin/copy/review',
  admincopysuspend: '/api/v1/admin/copy/suspend',
  admincopyrelations: '/api/v1/admin/copy/relations',
  admincopysettlements: '/api/v1/admin/copy/settlements',
  admincopyexposure: '/api/v1/admin/copy/exposure',
  admincopysettings: '/api/v1/admin/copy/settings',
  admincopysettingssave: '/api/v1/admin/copy/settingssave',
} as const;
