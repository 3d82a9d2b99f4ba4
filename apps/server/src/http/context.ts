import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/database';
import type { TBearer } from '../modules/identity/oauth';
import type { OidcSandbox } from '../modules/identity/oidc-sandbox';
import type { QrLogin } from '../modules/identity/qr-login';
import type { TSession } from '../modules/identity/sessions';
import type { TStaffProfile } from '../modules/identity/staff';
import type { LiquidityService } from '../modules/liquidity/liquidity-service';
import type { MarketService } from '../modules/market/market-service';
import type { MailCatcher } from '../modules/notify/mail-catcher';
import type { TMailer } from '../modules/notify/mailer';
import type { TVapidKeys } from '../modules/notify/push';
import type { TSmsProvider } from '../modules/notify/sms';
import type { TTenant } from '../modules/tenancy/tenancy';
import type { EngineHost } from '../modules/trading/engine-host';
import type { TradingService } from '../modules/trading/trading-service';
import type { TRateLimiter } from '../rate-limit';

/** What the server's parts share; built once at start. */
export interface TServices {
  config: TConfig;
  database: TDatabase;
  rateLimiter: TRateLimiter;
  market: MarketService;
  qrLogin: QrLogin;
  /** HMAC key of trade tokens (APP_SECRET, or generated once into DATA_DIR). */
  appSecret: Uint8Array;
  mailer: TMailer;
  sms: TSmsProvider;
  /** The built-in mail catcher when no SMTP relay is configured. */
  mailCatcher: MailCatcher | null;
  /** The built-in OpenID Connect provider for trying third-party sign-in, unless turned off. */
  oidcSandbox: OidcSandbox | null;
  vapid: TVapidKeys;
  /** The trading engine (single writer, durable before acknowledged) and the calls built on it. */
  engine: EngineHost;
  trading: TradingService;
  /** A-book hedging with the liquidity provider (follows the engine's committed positions). */
  liquidity: LiquidityService;
  resolveTenant(input: { host: string | undefined; hostspecific: string | undefined }): Promise<TTenant>;
  redisStatus(): Promise<'ok' | 'down' | 'absent'>;
}

/** One gateway call. */
export interface TCallContext {
  services: TServices;
  tenant: TTenant;
  locale: string;
  ip: string;
  userAgent: string | null;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The trader session, when the call carries a valid one. */
  userSession: TSession | null;
  /** The staff member, when the call carries a valid staff session. */
  staff: TStaffProfile | null;
  staffSession: TSession | null;
  /** The OAuth2 bearer (anonymous device token) the call carried, if any. */
  bearer: TBearer | null;
}

export const COOKIE = {
  userToken: 'token',
  userInfo: 'userInfo',
  userCsrf: 'csrf',
  staffToken: 'admin_token',
  staffCsrf: 'admin_csrf',
} as const;
