import { ACCESS_PATHS } from './admin/access-paths';
import { AUDIT_PATHS } from './admin/audit-paths';
import { ADMIN_COPY_PATHS } from './admin/copy-paths';
import { CUSTOMERS_PATHS } from './admin/customers-paths';
import { ADMIN_FUNDING_PATHS } from './admin/funding-paths';
import { MARKET_PATHS } from './admin/market-paths';
import { RISK_PATHS } from './admin/risk-paths';
import { ADMIN_STRATEGY_PATHS } from './admin/strategy-paths';
import { ALERT_PATHS } from './alert-paths';
import { CHART_DRAWINGS_PATHS } from './chart-drawings-paths';
import { CHART_LAYOUT_PATHS } from './chart-layout-paths';
import { COPY_PATHS } from './copy-paths';
import { FUNDING_PATHS } from './funding-paths';
import { STRATEGY_PATHS } from './strategy-paths';

/**
 * Short route names and their /api/v1 paths: the route catalogue's addresses, kept apart from the
 * schemas so the browser can call routes without bundling zod.
 */
export const ROUTE_PATHS = {
  ...ACCESS_PATHS,
  ...AUDIT_PATHS,
  ...CUSTOMERS_PATHS,
  ...MARKET_PATHS,
  ...RISK_PATHS,
  ...ADMIN_FUNDING_PATHS,
  ...FUNDING_PATHS,
  ...CHART_DRAWINGS_PATHS,
  ...CHART_LAYOUT_PATHS,
  ...ALERT_PATHS,
  ...COPY_PATHS,
  ...ADMIN_COPY_PATHS,
  ...STRATEGY_PATHS,
  ...ADMIN_STRATEGY_PATHS,

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
  captcha: '/api/v1/usercenter/captcha',
  sendcode: '/api/v1/usercenter/sendcode',
  register: '/api/v1/usercenter/register',
  forgetpassword: '/api/v1/usercenter/forgetpassword',
  phonelogin: '/api/v1/usercenter/phonelogin',
  emailregistered: '/api/v1/usercenter/emailregistered',
  phoneregistered: '/api/v1/usercenter/phoneregistered',
  login: '/api/v1/usercenter/login',
  logout: '/api/v1/usercenter/logout',
  userinfo: '/api/v1/usercenter/userinfo',
  tradetoken: '/api/v1/account/jwt',
  totpsetup: '/api/v1/usercenter/totpsetup',
  totpenable: '/api/v1/usercenter/totpenable',
  totpdisable: '/api/v1/usercenter/totpdisable',
  qrticket: '/api/v1/usercenter/qrticket',
  qrstatus: '/api/v1/usercenter/qrstatus',
  qrscan: '/api/v1/usercenter/qrscan',
  qrconfirm: '/api/v1/usercenter/qrconfirm',
  sessionlist: '/api/v1/usercenter/sessionlist',
  sessionrevoke: '/api/v1/usercenter/sessionrevoke',
  changepassword: '/api/v1/usercenter/changepassword',
  settings: '/api/v1/usercenter/settings',
  savesettings: '/api/v1/usercenter/savesettings',
  profile: '/api/v1/usercenter/profile',
  saveprofile: '/api/v1/usercenter/saveprofile',
  bindcontact: '/api/v1/usercenter/bindcontact',
  feedback: '/api/v1/usercenter/feedback',
  pushkey: '/api/v1/usercenter/pushkey',
  pushinsert: '/api/v1/usercenter/pushinsert',
  pushdelete: '/api/v1/usercenter/pushdelete',
  pushget: '/api/v1/usercenter/pushget',
  oidcproviders: '/api/v1/usercenter/unionproviders',
  unionstart: '/api/v1/usercenter/unionstart',
  identities: '/api/v1/usercenter/unionbindings',
  unbindidentity: '/api/v1/usercenter/unionunbind',
  userlogin: '/api/v1/account/userlogin',
  save_token: '/api/v1/account/save_token',
  trans_token: '/api/v1/account/trans_token',
  accountcategory: '/api/v1/account/accountcategory',
  accountlist: '/api/v1/account/list',
  accountcreate: '/api/v1/account/create',
  info: '/api/v1/account/info',
  demoreset: '/api/v1/account/demoreset',
  positions: '/api/v1/order/positions',
  pendingorders: '/api/v1/order/pending',
  ordersend: '/api/v1/order/send',
  ordermodify: '/api/v1/order/modify',
  ordercancel: '/api/v1/order/cancel',
  positionmodify: '/api/v1/order/positionmodify',
  positionclose: '/api/v1/order/close',
  closeall: '/api/v1/order/closeall',
  ordermargin: '/api/v1/order/margin',
  dealhistory: '/api/v1/order/history',
  orderhistory: '/api/v1/order/orderhistory',
  adminlogin: '/api/v1/admin/auth/login',
  adminlogout: '/api/v1/admin/auth/logout',
  adminme: '/api/v1/admin/auth/me',
  adminoverview: '/api/v1/admin/statistics/overview',
} as const;
