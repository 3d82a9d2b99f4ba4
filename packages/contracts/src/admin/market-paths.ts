/** Paths of the back office's market routes (schema-free, for the browser). */
export const MARKET_PATHS = {
  adminmarketinstruments: '/api/v1/admin/market/instruments',
  adminmarketquotes: '/api/v1/admin/market/quotes',
  adminmarketinstrumentsave: '/api/v1/admin/market/instrumentsave',
  adminmarketgrouplist: '/api/v1/admin/market/grouplist',
  adminmarketgroupsave: '/api/v1/admin/market/groupsave',
  adminmarketgroupdelete: '/api/v1/admin/market/groupdelete',
  adminmarketgroupdefault: '/api/v1/admin/market/groupdefault',
  adminmarketgroupterms: '/api/v1/admin/market/groupterms',
  adminmarketgrouptermssave: '/api/v1/admin/market/grouptermssave',
  adminmarkethistory: '/api/v1/admin/market/history',
} as const;
