/** Paths of the back office's risk routes (schema-free, for the browser). */
export const RISK_PATHS = {
  adminriskexposure: '/api/v1/admin/risk/exposure',
  adminriskwinners: '/api/v1/admin/risk/winners',
  adminriskmargincalls: '/api/v1/admin/risk/margincalls',
  adminriskrules: '/api/v1/admin/risk/rules',
  adminriskrulesave: '/api/v1/admin/risk/rulesave',
  adminriskruledelete: '/api/v1/admin/risk/ruledelete',
  adminriskliquidity: '/api/v1/admin/risk/liquidity',
  adminriskhedgeretry: '/api/v1/admin/risk/hedgeretry',
  adminrisklevels: '/api/v1/admin/risk/levels',
  adminrisklevelsave: '/api/v1/admin/risk/levelsave',
  adminrisklevelpreview: '/api/v1/admin/risk/levelpreview',
} as const;
