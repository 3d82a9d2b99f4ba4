import { z } from 'zod';

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
  /** Outgoing mail relay; absent, mail goes to the built-in catcher (see /dev/mailbox). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Northstar Markets <no-reply@northstar.invalid>'),
  /** Port of the built-in mail catcher (0 picks a free one). */
  MAIL_CATCHER_PORT: z.coerce.number().int().min(0).max(65535).default(1025),
  /**
   * Port of the built-in OpenID Connect sandbox provider ("Sandbox ID"), which accepts any login so
   * third-party sign-in can be tried without the internet; 0 picks a free port, `off` disables it
   * (do so in production, where brokers configure their real providers).
   */
  OIDC_SANDBOX_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(4011),
  /** Web Push VAPID key pair (base64url); absent, one is made once into DATA_DIR/vapid.json. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** Zero bits the proof-of-work captcha asks for: 16 takes a browser about a quarter of a second. */
  CAPTCHA_DIFFICULTY: z.coerce.number().int().min(1).max(28).default(16),
  /** Directory of the built web and back-office apps. */
  WEB_DIST: z.string().default('apps/web/dist'),
  BACKOFFICE_DIST: z.string().default('apps/backoffice/dist'),
});

export type TConfig = z.infer<typeof ZConfig>;

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): TConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
