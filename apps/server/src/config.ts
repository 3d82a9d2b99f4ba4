import { isIP } from 'node:net';
import { z } from 'zod';

/** The keywords of proxy-addr (Fastify's trustProxy) that name address ranges. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list: an address, an address/prefix range, or a range keyword. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: `false` (the socket's peer is the client) or the
 * proxies' addresses and ranges. Refused on purpose: `true` (then any client names its own address
 * in X-Forwarded-For) and a hop count (Fastify 5.12 turns it off: it cannot tell a proxy from a client
 * that reaches the server directly). A chain of proxies is given by listing every proxy's range.
 */
const ZTrustProxy = z
  .string()
  .default('off')
  .transform((value, ctx): false | string[] => {
    const v = value.trim().toLowerCase();
    if (v === 'off' || v === 'false' || v === '0') return false;
    if (/^\d+$/.test(v)) {
      ctx.addIssue({
        code: 'custom',
        message:
          "a hop count cannot tell the proxy from a client that connects directly; give the proxies' addresses (e.g. 10.0.0.5 or 10.0.0.0/8)",
      });
      return z.NEVER;
    }
    if (v === 'true' || v === 'on') {
      ctx.addIssue({
        code: 'custom',
        message:
          "true would trust X-Forwarded-For from every client; give the proxies' addresses (e.g. 10.0.0.0/8) or a hop count",
      });
      return z.NEVER;
    }
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.find((e) => !isProxyAddress(e));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `"${bad}" is not off, a hop count, an address, an address/prefix range or loopback|linklocal|uniquelocal`,
      });
      return z.NEVER;
    }
    return entries;
  });

const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Absent: embedded PGlite with data under DATA_DIR. `memory://` keeps PGlite in memory (tests). */
  DATABASE_URL: z
    .string()
    .refine(
      (v) => /^(postgres(ql)?|memory):\/\//.test(v),
      'must start with postgres://, postgresql:// or memory://',
    )
    .optional(),
  DATA_DIR: z.string().default('./data'),
  REDIS_URL: z
    .string()
    .refine((v) => /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://')
    .optional(),
  /**
   * The bus between instances (issue 20): with it, several instances share one database, one of
   * them leads the trading engine and the others forward engine calls to it. Comma-separated NATS
   * server addresses (nats://host:4222). Absent: one process with an in-process bus.
   */
  NATS_URL: z
    .string()
    .refine(
      (v) => v.split(',').every((u) => /^(nats:\/\/)?[\w.-]+(:\d+)?$/.test(u.trim())),
      'must be nats://host:port, or several separated by commas',
    )
    .optional(),
  /**
   * The NATS server's authorization token (its `authorization { token }`): the bus carries the
   * sessions of forwarded calls, so a production NATS is on the private network and asks for it.
   */
  NATS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Prefix of this deployment's bus subjects: deployments on separate databases may share one NATS. */
  BUS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, - and _ only')
    .default('broker'),
  /** How long a standby waits for the leader's answer to a forwarded call before answering -9005. */
  FORWARD_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How long a forwarded call waits for a leader to exist (a failover under way) before -9005. */
  LEADER_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /** How often a standby tries to take the engine lease (how soon it takes over from a dead leader). */
  ENGINE_LEASE_RETRY_MS: z.coerce.number().int().min(50).max(10_000).default(250),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Public address printed at start and used in links; defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** Key of trade tokens; generated once into DATA_DIR when absent (set it when running several instances). */
  APP_SECRET: z.string().min(32).optional(),
  /** Password of the seeded platform administrator; generated and printed when absent. */
  ADMIN_PASSWORD: z.string().min(12).optional(),
  /**
   * Whether the platform broker, when first created, requires two-factor sign-in from staff who can
   * move money (issue 6). On by default; the broker changes it on the staff page. The test suites
   * turn it off so their administrator signs in with the password alone.
   */
  SEED_MONEY_TWO_FACTOR: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Seed demo data (a demo trader) on an empty database. */
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Which proxies' X-Forwarded-For (and -Proto, -Host) to believe: `off` (default; the address is
   * the socket's peer) or a comma-separated list of proxy addresses and CIDR ranges.
   * The client address of rate limits and the audit trail (`request.ip`) follows it.
   */
  TRUST_PROXY: ZTrustProxy,
  /**
   * Development conveniences: the mail catcher and /dev/mailbox (when no SMTP_URL), the SMS
   * sandbox, the Sandbox ID provider and a public /metrics. Off by default under NODE_ENV=production
   * (the default), on under development and test; `npm start` turns it on for the local demo.
   */
  DEMO_MODE: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Bearer token /metrics asks for; absent, /metrics is public in demo mode and refused otherwise. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Marks cookies Secure; on by default in production behind TLS. */
  COOKIE_SECURE: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Price source: the built-in simulator, a replay of FEED_REPLAY_FILE, or none. */
  FEED: z.enum(['simulator', 'replay', 'off']).default('simulator'),
  /** Seed of the simulator: the same seed gives the same prices at the same times. */
  FEED_SEED: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(20_261_122),
  /** Share of simulated ticks replaced by off-market spikes, to exercise the filter. */
  FEED_SPIKE_RATE: z.coerce.number().min(0).max(0.1).default(0),
  FEED_REPLAY_FILE: z.string().optional(),
  /** Share of hedge orders the built-in liquidity sandbox refuses ("off quotes"), 0..1. */
  LP_SANDBOX_REJECT_RATE: z.coerce.number().min(0).max(1).default(0.02),
  /**
   * The built-in sandbox payment providers (card, e-wallet, USDT chains, bank; docs/funding.md):
   * on by default in demo mode, off otherwise (a production broker plugs in real providers).
   */
  PAYMENT_SANDBOX: z
    .enum(['on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'on')),
  /** The sandbox's webhook delay, `min,max` milliseconds. */
  PAYMENT_WEBHOOK_DELAY_MS: z
    .string()
    .regex(/^\d+,\d+$/)
    .default('200,1200')
    .transform((v) => v.split(',').map(Number) as [number, number]),
  /** Share of sandbox webhooks delivered twice, 0..1 (providers retry and repeat; we apply once). */
  PAYMENT_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  /** A block on the sandbox chains every so many milliseconds. */
  PAYMENT_BLOCK_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  /** From a sandbox payout's request to its result, `min,max` milliseconds. */
  PAYMENT_PAYOUT_DELAY_MS: z
    .string()
    .regex(/^\d+,\d+$/)
    .default('500,2000')
    .transform((v) => v.split(',').map(Number) as [number, number]),
  /**
   * Copy trading's fee period: leader fees settle each Sunday 00:00 GMT+8 (the spec's week). In demo
   * mode only, a period in milliseconds (at least 1 s) shortens the week, to watch settlements
   * happen; production ignores it.
   */
  COPY_FEE_PERIOD_MS: z.coerce.number().int().min(1000).optional(),
  /** The broker's server time zone: daily, weekly and monthly candles start at its midnight. */
  SERVER_TIME_ZONE: z
    .string()
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as UTC or Europe/Athens'),
  /**
   * Outgoing mail relay; absent, mail goes to the built-in catcher (see /dev/mailbox) in demo mode
   * and is refused as undeliverable (with a warning at start) otherwise.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Northstar Markets <no-reply@northstar.invalid>'),
  /** Port of the built-in mail catcher (0 picks a free one). */
  MAIL_CATCHER_PORT: z.coerce.number().int().min(0).max(65535).default(1025),
  /**
   * Port of the built-in OpenID Connect sandbox provider ("Sandbox ID"), which accepts any login so
   * third-party sign-in can be tried without the internet; 0 picks a free port, `off` disables it.
   * Runs in demo mode only.
   */
  OIDC_SANDBOX_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(4011),
  /** Web Push VAPID key pair (base64url); absent, one is made once into DATA_DIR/vapid.json. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** The VAPID contact push services may use to reach the operator (`mailto:` or an https URL). */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
    .default('mailto:no-reply@northstar.invalid'),
  /** A PEM file of extra certificate authorities trusted for Web Push services (a private push service). */
  PUSH_CA_FILE: z.string().optional(),
  /**
   * The push services the server may post to, as host names (a name also covers its subdomains),
   * comma-separated: a subscription's endpoint is a URL the browser chose, so any other host (an
   * internal address above all) is refused and its subscription forgotten. The default lists the
   * push services of Chrome, Edge, Firefox and Safari.
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .default(
      'fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com',
    )
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Zero bits the proof-of-work captcha asks for: 16 takes a browser about a quarter of a second. */
  CAPTCHA_DIFFICULTY: z.coerce.number().int().min(1).max(28).default(16),
  /** Directory of the built web and back-office apps. */
  WEB_DIST: z.string().default('apps/web/dist'),
  BACKOFFICE_DIST: z.string().default('apps/backoffice/dist'),
});

/** Defaults that depend on other settings: demo mode is on under development and test only. */
const ZResolvedConfig = ZConfig.transform((config) => ({
  ...config,
  DEMO_MODE: config.DEMO_MODE ?? config.NODE_ENV !== 'production',
  PAYMENT_SANDBOX: config.PAYMENT_SANDBOX ?? config.DEMO_MODE ?? config.NODE_ENV !== 'production',
}));

export type TConfig = z.infer<typeof ZResolvedConfig>;

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): TConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZResolvedConfig.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
