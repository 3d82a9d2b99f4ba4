/**
 * Short route names and their /api/v1 paths: the route catalogue's addresses, kept apart from the
 * schemas so the browser can call routes without bundling zod.
 */
export const ROUTE_PATHS = {
  symbols: '/api/v1/quote/symbols',
  kline: '/api/v1/quote/kline',
  klinetoday: '/api/v1/quote/klinetoday',
  currencydetail: '/api/v1/quote/currencydetail',
  currencylist: '/api/v1/quote/currencylist',
  currencyhot: '/api/v1/quote/currencyhot',
  hotall: '/api/v1/quote/hotall',
  currencyother: '/api/v1/quote/currencyother',
  currencyall: '/api/v1/quote/currencyall',
  currencystat: '/api/v1/quote/currencystat',
  currencystats: '/api/v1/quote/currencystats',
  pairs: '/api/v1/quote/pairs',
  fullname: '/api/v1/quote/fullname',
  countrylist: '/api/v1/common/countrylist',
  localelist: '/api/v1/common/localelist',
  legaldoc: '/api/v1/content/legal',
  login: '/api/v1/usercenter/login',
  logout: '/api/v1/usercenter/logout',
  userinfo: '/api/v1/usercenter/userinfo',
  adminlogin: '/api/v1/admin/auth/login',
  adminlogout: '/api/v1/admin/auth/logout',
  adminme: '/api/v1/admin/auth/me',
  adminoverview: '/api/v1/admin/statistics/overview',
} as const;
