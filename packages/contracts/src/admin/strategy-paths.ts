/** Paths of the back office's strategy-bot routes (schema-free, for the browser). */
export const ADMIN_STRATEGY_PATHS = {
  adminstrategies: '/api/v1/admin/strategy/list',
  adminstrategydetail: '/api/v1/admin/strategy/detail',
  adminstrategystop: '/api/v1/admin/strategy/stop',
  adminstrategyexposure: '/api/v1/admin/strategy/exposure',
} as const;
