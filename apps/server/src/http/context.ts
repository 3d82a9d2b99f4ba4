import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cluster } from '../cluster/cluster';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/database';
import type { TStaffProfile } from '../modules/access';
import type { PriceAlertWatcher } from '../modules/alerts';
import type { TPaymentProvider, TSandboxProviders } from '../modules/funding';
import type { OidcSandbox, QrLogin, TBearer, TSession } from '../modules/identity';
import type { LiquidityService } from '../modules/liquidity';
import type { MarketService } from '../modules/market';
import type { MailCatcher, TMailer, TSmsProvider, TVapidKeys, WebPushSender } from '../modules/notify';
import type { TTenant } from '../modules/tenancy';
import type { EngineHost } from '../modules/trading';
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
  /** Sends Web Push messages to the traders' subscribed browsers. */
  webPush: WebPushSender;
  /** Price alerts: evaluated on every accepted tick (issue 21). */
  alerts: PriceAlertWatcher;
  /** The trading engine (single writer, durable before acknowledged). */
  engine: EngineHost;
  /** This instance among several: its role, the bus, calls forwarded to the engine leader (issue 20). */
  cluster: Cluster;
  /** A-book hedging with the liquidity provider (follows the engine's committed positions). */
  liquidity: LiquidityService;
  /** Money in and out: the payment providers, the portal's own URL and the platform operator's broker. */
  funding: {
    providers: ReadonlyMap<string, TPaymentProvider>;
    publicUrl: () => string;
    /** The built-in sandbox providers and their controls (a wallet's transfer, a bank credit), when on. */
    sandbox: TSandboxProviders | null;
  };
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
  /** The trader's ISO numeric country; the portal sends it as the CountryCode header (spec 7). */
  country: 'country',
  staffToken: 'admin_token',
  staffCsrf: 'admin_csrf',
} as const;
