import { checkPassword } from '@broker/domain/identity/credentials';
import { z } from 'zod';
import { accessRoutes, ZStaffSession, ZStaffSignedIn } from './admin/access-routes';
import { auditRoutes } from './admin/audit-routes';
import { copyAdminRoutes } from './admin/copy-routes';
import { customersRoutes } from './admin/customers-routes';
import { fundingAdminRoutes } from './admin/funding-routes';
import { marketRoutes } from './admin/market-routes';
import { riskRoutes } from './admin/risk-routes';
import { strategyAdminRoutes } from './admin/strategy-routes';
import { alertRoutes } from './alert-routes';
import { chartDrawingsRoutes } from './chart-drawings';
import { chartLayoutRoutes } from './chart-layout';
import { copyRoutes } from './copy-routes';
import { fundingRoutes } from './funding-routes';
import { define, empty, type TRouteDefinition } from './route-kit';
import { ROUTE_PATHS } from './route-paths';
import { strategyRoutes } from './strategy-routes';
import { tradingRoutes } from './trading-routes';

export type { TRouteAccess, TRouteDefinition } from './route-kit';

export const ZCountryEntry = z.object({
  countryCode: z.string(),
  twoCharCode: z.string(),
  code: z.string(),
  codes: z.array(z.string()),
  name: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  flag: z.string(),
  'flag-c': z.string(),
});

export const ZLocaleEntry = z.object({
  code: z.string(),
  iso: z.string(),
  name: z.string(),
  file: z.string(),
});

export const ZStaffProfile = z.object({
  staffId: z.string(),
  username: z.string(),
  displayName: z.string(),
  tenantId: z.string(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});

export const ZUserProfile = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  twoFactor: z.boolean(),
});

export const ZSessionAnswer = z.object({
  csrfToken: z.string(),
  expiresAt: z.string(),
  /** Base64 AES-256 key of this session, for the trade-token request (spec 7.1). */
  cipherKey: z.string().optional(),
});

const ZPrice = z.string().regex(/^-?\d+(\.\d+)?$/);
export const ZQuote = z.object({
  symbol: z.string(),
  bid: ZPrice,
  ask: ZPrice,
  spread: z.number().int(),
  digits: z.number().int(),
  time: z.number().int(),
  open: ZPrice,
  high: ZPrice,
  low: ZPrice,
  previousClose: ZPrice,
  change: ZPrice,
  changePercent: ZPrice,
  status: z.enum(['open', 'closed']),
});
export const ZNamedQuote = ZQuote.extend({ name: z.string(), category: z.string() });
export const ZSymbolInfo = z.object({
  symbol: z.string(),
  name: z.string(),
  category: z.enum(['forex', 'metals', 'energy', 'indices', 'crypto']),
  base: z.string(),
  quote: z.string(),
  digits: z.number().int(),
  contractSize: z.string(),
  minVolume: z.string(),
  volumeStep: z.string(),
  maxVolume: z.string(),
  defaultLeverage: z.number().int(),
  marginCurrency: z.string(),
  profitCurrency: z.string(),
  swapLong: z.string(),
  swapShort: z.string(),
  enabled: z.boolean(),
  closeOnly: z.boolean(),
  shortAllowed: z.boolean(),
  hot: z.boolean(),
  sessions: z.array(z.object({ from: z.number().int(), to: z.number().int() })),
  open: z.boolean(),
  /** The broker's stops level: take-profit, stop-loss and pending prices keep this many points from the market. */
  stopsLevel: z.number().int(),
  /** While closed: when the market opens next (ms), else null. */
  nextOpen: z.number().int().nullable(),
});
export const ZCandle = z.object({
  time: z.number().int(),
  open: ZPrice,
  high: ZPrice,
  low: ZPrice,
  close: ZPrice,
  volume: z.number().int(),
});
const ZSymbolName = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,12}$/, 'symbolFormat');
const ZTimeframe = z.enum(['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN']);
const ZCategory = z.enum(['forex', 'metals', 'energy', 'indices', 'crypto']);
const ZCurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,6}$/, 'currencyFormat');

const ZEmail = z.string().trim().toLowerCase().email().max(254);
const ZPhone = z.object({
  twoCharCode: z.string().regex(/^[A-Z]{2}$/),
  number: z.string().trim().min(1).max(32),
});
const ZCode = z
  .string()
  .trim()
  .regex(/^\d{4}$/, 'codeFormat');
const ZCaptchaSolution = z.object({ id: z.string().uuid(), nonce: z.string().regex(/^\d{1,12}$/) });
/** A new password with its confirmation, checked by the spec 5 rules (see @broker/domain/identity/credentials). */
const ZNewPassword = z
  .object({ password: z.string().max(64), confirmPassword: z.string().max(64) })
  .superRefine((value, ctx) => {
    for (const problem of checkPassword(value.password, { confirm: value.confirmPassword })) {
      ctx.addIssue({
        code: 'custom',
        message: problem,
        path: [problem === 'passwordMismatch' ? 'confirmPassword' : 'password'],
      });
    }
  });
const ZOtp = z.string().regex(/^\d{6}$/, 'otpFormat');
const ZTarget = z.union([z.object({ email: ZEmail }), z.object({ phone: ZPhone })]);

export const ZUserSettings = z.object({
  notification: z.object({
    createOrder: z.boolean(),
    closeOrder: z.boolean(),
    pendingOrder: z.boolean(),
    ringsOpen: z.boolean(),
    /** Price alerts by Web Push to the trader's subscribed browsers (issue 21). */
    alertPush: z.boolean(),
    /** Price alerts by email, when the trader has an address. */
    alertEmail: z.boolean(),
  }),
  /** 0: red is up, 1: green is up (spec 4). */
  klineColor: z.union([z.literal(0), z.literal(1)]),
  display: z.object({
    floatLayer: z.boolean(),
    currentOrder: z.boolean(),
    positionCost: z.boolean(),
    historyOrder: z.boolean(),
  }),
  theme: z.enum(['navy', 'dark', 'white']),
});
export type TUserSettings = z.infer<typeof ZUserSettings>;

const ZContactLink = z.string().trim().max(64);
/** Spec 3 "Simple user": the profile a trader sees and edits. Counts belong to later social features. */
export const ZSimpleUser = z.object({
  userId: z.string(),
  nick: z.string(),
  avatar: z.string().nullable(),
  sex: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  profile: z.string(),
  /** Masked (spec 5): first 2 characters of an email, first 3 then stars then from the 9th of a phone. */
  email: z.string().nullable(),
  phone: z.string().nullable(),
  areaCode: z.string().nullable(),
  areaFlag: z.string().nullable(),
  isCert: z.boolean(),
  isAuthentication: z.boolean(),
  userIdentity: z.number().int(),
  wechat: z.string(),
  qq: z.string(),
  facebook: z.string(),
  ins: z.string(),
  twitter: z.string(),
  noticeCount: z.number().int(),
  releaseCount: z.number().int(),
  followedCount: z.number().int(),
  fansCount: z.number().int(),
  orderCount: z.number().int(),
  epcCount: z.number().int(),
  visitCount: z.number().int(),
  visitsPhoto: z.array(z.string()),
});
export type TSimpleUser = z.infer<typeof ZSimpleUser>;
const ZFileId = z.string().uuid();
const ZFingerKey = z.string().trim().min(8).max(128);

export const routeCatalogue = {
  ...tradingRoutes,
  ...accessRoutes,
  ...auditRoutes,
  ...customersRoutes,
  ...marketRoutes,
  ...riskRoutes,
  ...fundingRoutes,
  ...fundingAdminRoutes,
  ...chartDrawingsRoutes,
  ...chartLayoutRoutes,
  ...alertRoutes,
  ...copyRoutes,
  ...copyAdminRoutes,
  ...strategyRoutes,
  ...strategyAdminRoutes,

  countrylist: define({
    name: 'countrylist',
    path: ROUTE_PATHS.countrylist,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Country calling-code reference list grouped A to Z',
    input: z.object({ list: z.enum(['zh', 'en']).optional() }).passthrough(),
    output: z.array(z.object({ name: z.string(), data: z.array(ZCountryEntry) })),
  }),
  localelist: define({
    name: 'localelist',
    path: ROUTE_PATHS.localelist,
    access: { kind: 'public' },
    mutates: false,
    summary: 'The sixteen languages with routes',
    input: empty,
    output: z.array(ZLocaleEntry),
  }),
  symbols: define({
    name: 'symbols',
    path: ROUTE_PATHS.symbols,
    access: { kind: 'public' },
    mutates: false,
    summary:
      "The instrument catalogue with trading specifications, optionally of one category; with a signed-in trader's account_id, as that account's group trades them",
    input: z.object({
      category: ZCategory.optional(),
      /** The caller's own account: volume limits, switches and sessions of its group. */
      account_id: z.coerce.number().int().positive().optional(),
    }),
    output: z.array(ZSymbolInfo),
  }),
  kline: define({
    name: 'kline',
    path: ROUTE_PATHS.kline,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Candles of a symbol and timeframe, oldest first (at most 2000)',
    input: z.object({
      symbol: ZSymbolName,
      timeframe: ZTimeframe,
      from: z.number().int().nonnegative().optional(),
      to: z.number().int().nonnegative().optional(),
      limit: z.number().int().min(1).max(2000).optional(),
    }),
    output: z.object({
      symbol: z.string(),
      timeframe: ZTimeframe,
      digits: z.number().int(),
      candles: z.array(ZCandle),
    }),
  }),
  klinetoday: define({
    name: 'klinetoday',
    path: ROUTE_PATHS.klinetoday,
    access: { kind: 'public' },
    mutates: false,
    summary: "Today's five-minute candles of a symbol (the broker's server day)",
    input: z.object({ symbol: ZSymbolName }),
    output: z.object({
      symbol: z.string(),
      digits: z.number().int(),
      dayStart: z.number().int(),
      candles: z.array(ZCandle),
    }),
  }),
  currencydetail: define({
    name: 'currencydetail',
    path: ROUTE_PATHS.currencydetail,
    access: { kind: 'public' },
    mutates: false,
    summary: 'One symbol: specification, quote and session state',
    input: z.object({ symbol: ZSymbolName }),
    output: z.object({ info: ZSymbolInfo, quote: ZQuote.nullable(), nextOpen: z.number().int().nullable() }),
  }),
  currencylist: define({
    name: 'currencylist',
    path: ROUTE_PATHS.currencylist,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Quotes by category and search text, paged',
    input: z.object({
      category: ZCategory.optional(),
      search: z.string().trim().max(40).optional(),
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(50),
    }),
    output: z.object({
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
      items: z.array(ZNamedQuote),
    }),
  }),
  currencyhot: define({
    name: 'currencyhot',
    path: ROUTE_PATHS.currencyhot,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Quotes of the hot symbols',
    input: z.object({}).passthrough(),
    output: z.array(ZNamedQuote),
  }),
  hotall: define({
    name: 'hotall',
    path: ROUTE_PATHS.hotall,
    access: { kind: 'public' },
    mutates: false,
    summary: 'For each category, its three most active symbols by change',
    input: z.object({}).passthrough(),
    output: z.array(z.object({ category: ZCategory, items: z.array(ZNamedQuote) })),
  }),
  currencyother: define({
    name: 'currencyother',
    path: ROUTE_PATHS.currencyother,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Quotes of symbols that share a currency with the given one',
    input: z.object({ symbol: ZSymbolName }),
    output: z.array(ZNamedQuote),
  }),
  currencyall: define({
    name: 'currencyall',
    path: ROUTE_PATHS.currencyall,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Quotes of every symbol',
    input: z.object({}).passthrough(),
    output: z.array(ZNamedQuote),
  }),
  currencystat: define({
    name: 'currencystat',
    path: ROUTE_PATHS.currencystat,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Day, week, month and quarter statistics of a symbol',
    input: z.object({ symbol: ZSymbolName }),
    output: z.object({
      symbol: z.string(),
      ranges: z.array(
        z.object({
          period: z.enum(['1D', '1W', '1M', '3M']),
          open: ZPrice,
          high: ZPrice,
          low: ZPrice,
          changePercent: ZPrice,
        }),
      ),
    }),
  }),
  currencystats: define({
    name: 'currencystats',
    path: ROUTE_PATHS.currencystats,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Market movers: top gainers and losers of the day',
    input: z.object({ category: ZCategory.optional(), limit: z.number().int().min(1).max(20).default(5) }),
    output: z.object({ gainers: z.array(ZNamedQuote), losers: z.array(ZNamedQuote) }),
  }),
  pairs: define({
    name: 'pairs',
    path: ROUTE_PATHS.pairs,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Currency converter: the currencies it knows and, when asked, a conversion through cross rates',
    input: z.object({
      from: ZCurrencyCode.optional(),
      to: ZCurrencyCode.optional(),
      amount: z
        .string()
        .trim()
        .regex(/^\d{1,15}(\.\d{1,8})?$/, 'amountFormat')
        .optional(),
    }),
    output: z.object({
      currencies: z.array(
        z.object({ code: z.string(), kind: z.enum(['fiat', 'crypto', 'metal']), name: z.string() }),
      ),
      conversion: z
        .object({
          from: z.string(),
          to: z.string(),
          amount: z.string(),
          rate: z.string(),
          result: z.string(),
          time: z.number().int(),
          path: z.array(z.string()),
        })
        .nullable(),
    }),
  }),
  fullname: define({
    name: 'fullname',
    path: ROUTE_PATHS.fullname,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Full names of symbols in the request language',
    input: z.object({ symbols: z.array(ZSymbolName).max(200).optional() }),
    output: z.record(z.string(), z.string()),
  }),
  legaldoc: define({
    name: 'legaldoc',
    path: ROUTE_PATHS.legaldoc,
    access: { kind: 'public' },
    mutates: false,
    summary: 'A legal text (privacy, Google privacy variant, terms of use) as HTML',
    input: z.object({ lang: z.string().max(8), name: z.enum(['privacy', 'privacy-google', 'termsofuse']) }),
    output: z.object({
      html: z.string(),
      translated: z.boolean(),
      title: z.string(),
      lang: z.string(),
      governing: z.string(),
      translatedFrom: z.string().optional(),
    }),
  }),
  captcha: define({
    name: 'captcha',
    path: ROUTE_PATHS.captcha,
    access: { kind: 'public' },
    // Issuing a challenge changes nothing a forged request could abuse, so no CSRF token is asked.
    mutates: false,
    summary:
      'A proof-of-work challenge: find a nonce whose sha256(salt:nonce) starts with `difficulty` zero bits',
    input: z.object({}).passthrough(),
    output: z.object({
      id: z.string(),
      salt: z.string(),
      difficulty: z.number().int(),
      algorithm: z.literal('sha256'),
      expiresAt: z.number().int(),
    }),
  }),
  sendcode: define({
    name: 'sendcode',
    path: ROUTE_PATHS.sendcode,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Sends a 4-digit verification code by email, SMS or WhatsApp (captcha required)',
    input: z.intersection(
      ZTarget,
      z.object({
        purpose: z.enum(['register', 'reset', 'login', 'bind']),
        channel: z.enum(['email', 'sms', 'whatsapp']).optional(),
        captcha: ZCaptchaSolution,
      }),
    ),
    output: z.object({
      sentTo: z.string(),
      channel: z.enum(['email', 'sms', 'whatsapp']),
      resendAfterSeconds: z.number().int(),
      expiresInSeconds: z.number().int(),
    }),
  }),
  register: define({
    name: 'register',
    path: ROUTE_PATHS.register,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Registers a trader by email or phone with a verification code, and signs them in',
    input: z.intersection(
      z.intersection(ZTarget, z.object({ code: ZCode, nick: z.string().trim().min(1).max(40).optional() })),
      ZNewPassword,
    ),
    output: ZSessionAnswer.extend({ user: ZUserProfile }),
  }),
  forgetpassword: define({
    name: 'forgetpassword',
    path: ROUTE_PATHS.forgetpassword,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Sets a new password with a code; every session of the trader ends',
    input: z.intersection(z.intersection(ZTarget, z.object({ code: ZCode })), ZNewPassword),
    output: z.object({ ok: z.literal(true) }),
  }),
  phonelogin: define({
    name: 'phonelogin',
    path: ROUTE_PATHS.phonelogin,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Quick sign-in with a phone number and a code',
    input: z.object({ phone: ZPhone, code: ZCode }),
    output: ZSessionAnswer.extend({ user: ZUserProfile }),
  }),
  emailregistered: define({
    name: 'emailregistered',
    path: ROUTE_PATHS.emailregistered,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Whether an email is registered with this broker',
    input: z.object({ email: ZEmail }),
    output: z.object({ registered: z.boolean() }),
  }),
  phoneregistered: define({
    name: 'phoneregistered',
    path: ROUTE_PATHS.phoneregistered,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Whether a phone number is registered with this broker',
    input: z.object({ phone: ZPhone }),
    output: z.object({ registered: z.boolean() }),
  }),
  login: define({
    name: 'login',
    path: ROUTE_PATHS.login,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Trader sign-in with email or phone number, and password',
    input: z.union([
      z.object({ email: ZEmail, password: z.string().min(1).max(128), otp: ZOtp.optional() }),
      z.object({ phone: ZPhone, password: z.string().min(1).max(128), otp: ZOtp.optional() }),
    ]),
    output: ZSessionAnswer.extend({ user: ZUserProfile }),
  }),
  logout: define({
    name: 'logout',
    path: ROUTE_PATHS.logout,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Ends the trader session and clears its cookies',
    input: empty,
    output: z.object({ ok: z.literal(true) }),
  }),
  userinfo: define({
    name: 'userinfo',
    path: ROUTE_PATHS.userinfo,
    access: { kind: 'user' },
    mutates: false,
    summary: 'The signed-in trader, with the session key for the trade-token request',
    input: empty,
    output: ZUserProfile.extend({ cipherKey: z.string() }),
  }),
  totpsetup: define({
    name: 'totpsetup',
    path: ROUTE_PATHS.totpsetup,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Starts two-factor enrolment: a new TOTP secret and its otpauth:// address for the QR code',
    input: z.object({}).passthrough(),
    output: z.object({ secret: z.string(), otpauthUrl: z.string() }),
  }),
  totpenable: define({
    name: 'totpenable',
    path: ROUTE_PATHS.totpenable,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Turns two-factor sign-in on with a code from the authenticator app',
    input: z.object({ code: ZOtp }),
    output: z.object({ ok: z.literal(true) }),
  }),
  totpdisable: define({
    name: 'totpdisable',
    path: ROUTE_PATHS.totpdisable,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Turns two-factor sign-in off with a current code',
    input: z.object({ code: ZOtp }),
    output: z.object({ ok: z.literal(true) }),
  }),
  qrticket: define({
    name: 'qrticket',
    path: ROUTE_PATHS.qrticket,
    access: { kind: 'public' },
    mutates: false,
    summary: 'A one-time QR sign-in ticket, valid 2 minutes',
    input: z.object({}).passthrough(),
    output: z.object({ ticket: z.string(), expiresAt: z.number().int() }),
  }),
  qrstatus: define({
    name: 'qrstatus',
    path: ROUTE_PATHS.qrstatus,
    access: { kind: 'public' },
    mutates: false,
    summary: 'Waits up to `waitMs` for the ticket to change; once confirmed, signs the waiting browser in',
    input: z.object({
      ticket: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
      waitMs: z.number().int().min(0).max(25_000).default(20_000),
    }),
    output: z.object({
      status: z.enum(['waiting', 'scanned', 'confirmed', 'expired']),
      session: ZSessionAnswer.extend({ user: ZUserProfile }).nullable(),
    }),
  }),
  qrscan: define({
    name: 'qrscan',
    path: ROUTE_PATHS.qrscan,
    access: { kind: 'user' },
    mutates: true,
    summary: 'A signed-in device read the QR code: the waiting page shows it was scanned',
    input: z.object({ ticket: z.string().regex(/^[A-Za-z0-9_-]{22}$/) }),
    output: z.object({ ok: z.literal(true) }),
  }),
  qrconfirm: define({
    name: 'qrconfirm',
    path: ROUTE_PATHS.qrconfirm,
    access: { kind: 'user' },
    mutates: true,
    summary: 'The signed-in device confirms (or cancels) the sign-in of the waiting browser',
    input: z.object({ ticket: z.string().regex(/^[A-Za-z0-9_-]{22}$/), approve: z.boolean().default(true) }),
    output: z.object({ ok: z.literal(true) }),
  }),
  sessionlist: define({
    name: 'sessionlist',
    path: ROUTE_PATHS.sessionlist,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's active sessions with device, address and times",
    input: empty,
    output: z.array(
      z.object({
        id: z.string(),
        device: z.string(),
        ip: z.string().nullable(),
        createdAt: z.string(),
        lastSeenAt: z.string(),
        current: z.boolean(),
      }),
    ),
  }),
  sessionrevoke: define({
    name: 'sessionrevoke',
    path: ROUTE_PATHS.sessionrevoke,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Signs out one session, or every session but this one',
    input: z.union([
      z.object({ id: z.string().regex(/^[a-f0-9]{12}$/) }),
      z.object({ allOthers: z.literal(true) }),
    ]),
    output: z.object({ revoked: z.number().int() }),
  }),
  changepassword: define({
    name: 'changepassword',
    path: ROUTE_PATHS.changepassword,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Changes the password (old and new must differ); every session ends',
    input: z.intersection(z.object({ oldPassword: z.string().min(1).max(64) }), ZNewPassword),
    output: z.object({ ok: z.literal(true) }),
  }),
  settings: define({
    name: 'settings',
    path: ROUTE_PATHS.settings,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's settings, with defaults filled in",
    input: empty,
    output: ZUserSettings,
  }),
  savesettings: define({
    name: 'savesettings',
    path: ROUTE_PATHS.savesettings,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Saves settings (any subset); theme and kline colour also go to cookies so every page applies them',
    input: z.object({
      notification: ZUserSettings.shape.notification.partial().optional(),
      klineColor: ZUserSettings.shape.klineColor.optional(),
      display: ZUserSettings.shape.display.partial().optional(),
      theme: ZUserSettings.shape.theme.optional(),
    }),
    output: ZUserSettings,
  }),
  tradetoken: define({
    name: 'tradetoken',
    path: ROUTE_PATHS.tradetoken,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Trade token: AES-GCM of the user id plus "trade" under the session key (spec 7.1)',
    input: z.object({ cipher_text: z.string().min(8).max(400), iv_key: z.string().min(8).max(64) }),
    output: z.object({
      accessToken: z.string(),
      accessExpire: z.number().int(),
      refreshAfter: z.number().int(),
    }),
  }),
  profile: define({
    name: 'profile',
    path: ROUTE_PATHS.profile,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's profile (spec 3 Simple user) with masked email and phone",
    input: empty,
    output: ZSimpleUser,
  }),
  saveprofile: define({
    name: 'saveprofile',
    path: ROUTE_PATHS.saveprofile,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Saves any subset of nick, avatar (an uploaded avatar file, or null), sex, profile text and contact links',
    input: z.object({
      nick: z.string().trim().min(1, 'nickRequired').max(24, 'nickTooLong').optional(),
      avatarFileId: ZFileId.nullable().optional(),
      sex: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
      profile: z.string().trim().max(200, 'profileTooLong').optional(),
      wechat: ZContactLink.optional(),
      qq: ZContactLink.optional(),
      facebook: ZContactLink.optional(),
      ins: ZContactLink.optional(),
      twitter: ZContactLink.optional(),
    }),
    output: ZSimpleUser,
  }),
  bindcontact: define({
    name: 'bindcontact',
    path: ROUTE_PATHS.bindcontact,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Binds or changes the email or phone with a code sent to it (sendcode purpose bind)',
    input: z.intersection(ZTarget, z.object({ code: ZCode })),
    output: ZSimpleUser,
  }),
  feedback: define({
    name: 'feedback',
    path: ROUTE_PATHS.feedback,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Feedback: 0 to 500 characters, at least one contact method, optional uploaded images and a video',
    input: z
      .object({
        text: z.string().max(500, 'feedbackTooLong'),
        contacts: z.object({
          email: z.union([ZEmail, z.literal('')]).optional(),
          phone: z.string().trim().max(32).optional(),
          wechat: ZContactLink.optional(),
          telegram: ZContactLink.optional(),
        }),
        attachments: z.array(ZFileId).max(6).default([]),
        idempotencyKey: z.string().min(8).max(64),
      })
      .superRefine((value, ctx) => {
        if (!Object.values(value.contacts).some((v) => typeof v === 'string' && v.trim() !== ''))
          ctx.addIssue({ code: 'custom', message: 'contactRequired', path: ['contacts'] });
      }),
    output: z.object({ id: z.string() }),
  }),
  pushkey: define({
    name: 'pushkey',
    path: ROUTE_PATHS.pushkey,
    access: { kind: 'public' },
    mutates: false,
    summary: "The server's VAPID public key for Web Push subscriptions",
    input: empty,
    output: z.object({ publicKey: z.string() }),
  }),
  pushinsert: define({
    name: 'pushinsert',
    path: ROUTE_PATHS.pushinsert,
    access: { kind: 'user' },
    mutates: true,
    summary: "Stores this browser's Web Push subscription for order notifications",
    input: z.object({
      endpoint: z.string().url().max(1000).startsWith('https://', 'pushEndpoint'),
      keys: z.object({ p256dh: z.string().min(40).max(200), auth: z.string().min(8).max(64) }),
    }),
    output: z.object({ id: z.string() }),
  }),
  pushdelete: define({
    name: 'pushdelete',
    path: ROUTE_PATHS.pushdelete,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Removes a Web Push subscription by its endpoint or id',
    input: z.union([z.object({ endpoint: z.string().url().max(1000) }), z.object({ id: z.string().uuid() })]),
    output: z.object({ deleted: z.number().int() }),
  }),
  pushget: define({
    name: 'pushget',
    path: ROUTE_PATHS.pushget,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's Web Push subscriptions",
    input: empty,
    output: z.array(
      z.object({ id: z.string(), endpoint: z.string(), device: z.string(), createdAt: z.string() }),
    ),
  }),
  oidcproviders: define({
    name: 'oidcproviders',
    path: ROUTE_PATHS.oidcproviders,
    access: { kind: 'public' },
    mutates: false,
    summary: "The broker's third-party (OpenID Connect) sign-in providers",
    input: empty,
    output: z.array(z.object({ slug: z.string(), name: z.string() })),
  }),
  unionstart: define({
    name: 'unionstart',
    path: ROUTE_PATHS.unionstart,
    access: { kind: 'public' },
    mutates: true,
    summary:
      "Starts third-party sign-in (or, signed in, binding): answers the provider's authorization address",
    input: z.object({
      slug: z.string().regex(/^[a-z0-9-]{2,32}$/),
      mode: z.enum(['login', 'bind']),
      lang: z.string().regex(/^[A-Za-z-]{2,8}$/),
      redirect: z
        .string()
        .max(300)
        .regex(/^\/(?!\/)[^\s]*$/, 'redirectInvalid')
        .default('/'),
    }),
    output: z.object({ url: z.string().url() }),
  }),
  identities: define({
    name: 'identities',
    path: ROUTE_PATHS.identities,
    access: { kind: 'user' },
    mutates: false,
    summary: "The broker's providers with the trader's binding to each, if any",
    input: empty,
    output: z.array(
      z.object({
        slug: z.string(),
        name: z.string(),
        bound: z
          .object({ email: z.string().nullable(), name: z.string().nullable(), boundAt: z.string() })
          .nullable(),
      }),
    ),
  }),
  unbindidentity: define({
    name: 'unbindidentity',
    path: ROUTE_PATHS.unbindidentity,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Removes the binding to a provider (refused when it is the only way to sign in)',
    input: z.object({ slug: z.string().regex(/^[a-z0-9-]{2,32}$/) }),
    output: z.object({ ok: z.literal(true) }),
  }),
  userlogin: define({
    name: 'userlogin',
    path: ROUTE_PATHS.userlogin,
    access: { kind: 'user' },
    mutates: true,
    summary: "Records the signed-in trader's language and country (spec 7.2); answers the user",
    input: z.object({
      user_id: z.string(),
      languageCode: z.string().max(10),
      /** Spec 7.2: the ISO 3166 numeric code as a padded string ("156"); the alpha-2 form ("CN") too. */
      countryCode: z
        .string()
        .regex(/^(\d{3}|[A-Z]{2})$/, 'countryCodeFormat')
        .optional(),
    }),
    output: ZUserProfile,
  }),
  save_token: define({
    name: 'save_token',
    path: ROUTE_PATHS.save_token,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Parks a one-time hand-off token (valid 60 s) bound to this device fingerprint',
    input: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/), finger_key: ZFingerKey }),
    output: z.object({ expiresAt: z.number().int() }),
  }),
  trans_token: define({
    name: 'trans_token',
    path: ROUTE_PATHS.trans_token,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Trades a parked hand-off token, from the same device fingerprint, for a session here',
    input: z.object({ accessToken: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/), finger_key: ZFingerKey }),
    output: ZSessionAnswer.extend({ user: ZUserProfile }),
  }),
  adminlogin: define({
    name: 'adminlogin',
    path: ROUTE_PATHS.adminlogin,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Back-office staff sign-in',
    input: z.object({
      username: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9]{3,32}$/, 'usernameFormat'),
      password: z.string().min(5, 'passwordTooShort').max(128),
      /** The authenticator code, for staff with two-factor on (asked for with -1016). */
      otp: ZOtp.optional(),
    }),
    output: ZStaffSignedIn,
  }),
  adminlogout: define({
    name: 'adminlogout',
    path: ROUTE_PATHS.adminlogout,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Ends the staff session',
    input: empty,
    output: z.object({ ok: z.literal(true) }),
  }),
  adminme: define({
    name: 'adminme',
    path: ROUTE_PATHS.adminme,
    access: { kind: 'staff', permission: null },
    mutates: false,
    summary: 'The signed-in staff member with roles, permissions, two-factor state and arranged menu',
    input: empty,
    output: ZStaffSession.extend({ csrfToken: z.string() }),
  }),
  adminoverview: define({
    name: 'adminoverview',
    path: ROUTE_PATHS.adminoverview,
    access: { kind: 'staff', permission: 'statistics.view' },
    mutates: false,
    summary: 'Head counts for the back-office dashboard',
    input: empty,
    output: z.object({
      tenants: z.number().int(),
      users: z.number().int(),
      staff: z.number().int(),
      pageViewsToday: z.number().int(),
    }),
  }),
} as const;

export type TRouteCatalogue = typeof routeCatalogue;
export type TRouteName = keyof TRouteCatalogue;
export type TRouteInput<N extends TRouteName> = z.input<TRouteCatalogue[N]['input']>;
export type TRouteOutput<N extends TRouteName> = z.infer<TRouteCatalogue[N]['output']>;

export const routeList: readonly TRouteDefinition[] = Object.values(routeCatalogue);

export function routeByName(name: string): TRouteDefinition | undefined {
  return (routeCatalogue as Record<string, TRouteDefinition>)[name.toLowerCase()];
}

export function routeByPath(path: string): TRouteDefinition | undefined {
  return routeList.find((route) => route.path === path);
}
