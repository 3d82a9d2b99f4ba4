import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import client from 'prom-client';
import type { TConfig } from './config';
import { openDatabase, type TDatabase } from './db/database';
import { migrate } from './db/migrate';
import type { TServices } from './http/context';
import { sendError } from './http/envelope';
import { registerGateway } from './http/gateway';
import { loadServerCatalogs, requestLocale } from './i18n';
import { strongPassword } from './ids';
import { registerUploads } from './modules/files/files';
import { handlers } from './modules/handlers';
import { registerOAuth } from './modules/identity/oauth';
import { registerUnionCallback } from './modules/identity/oidc';
import { OidcSandbox } from './modules/identity/oidc-sandbox';
import { QrLogin } from './modules/identity/qr-login';
import { LiquidityService } from './modules/liquidity/liquidity-service';
import { createFeed } from './modules/market/feed/create-feed';
import { MarketService } from './modules/market/market-service';
import { MarketStream } from './modules/market/stream';
import { registerDevMailbox } from './modules/notify/dev-mailbox';
import { MailCatcher } from './modules/notify/mail-catcher';
import { SmtpMailer } from './modules/notify/mailer';
import { loadVapidKeys } from './modules/notify/push';
import { SandboxSmsProvider } from './modules/notify/sms';
import { registerPages } from './modules/pages/pages';
import { TenantResolver } from './modules/tenancy/tenancy';
import { AccountStream } from './modules/trading/account-stream';
import { EngineHost } from './modules/trading/engine-host';
import { registerTradingExports } from './modules/trading/exports';
import { TradingService } from './modules/trading/trading-service';
import { MemoryRateLimiter, RedisRateLimiter } from './rate-limit';

/** A random secret kept in DATA_DIR (mode 600), made on first use. */
function persistentSecret(dataDir: string, name: string): string {
  const file = join(resolve(dataDir), name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(resolve(dataDir), { recursive: true });
  const secret = strongPassword(48);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export interface TApp {
  app: FastifyInstance;
  services: TServices;
  close(): Promise<void>;
}

/** Builds the whole server: database and migrations, gateway, pages, health and metrics. */
export async function buildApp(config: TConfig, options: { database?: TDatabase } = {}): Promise<TApp> {
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(process.stdout.isTTY && config.NODE_ENV !== 'production'
              ? { transport: { target: 'pino-pretty' } }
              : {}),
          },
    trustProxy: true,
    bodyLimit: 1_048_576,
  });
  const database =
    options.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  await migrate(database);
  await loadServerCatalogs();

  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 })
    : null;
  if (redis) await redis.connect();

  const tenants = new TenantResolver(database.db);
  const appSecret = new TextEncoder().encode(
    config.APP_SECRET ?? persistentSecret(config.DATA_DIR, 'app-secret'),
  );
  const market = new MarketService(database.db, createFeed(config), config.SERVER_TIME_ZONE);
  const mailCatcher = config.SMTP_URL ? null : new MailCatcher();
  const catcherPort = mailCatcher ? await mailCatcher.start(config.MAIL_CATCHER_PORT) : 0;
  const engine = new EngineHost(database, market, undefined, (error, message) =>
    app.log.error({ err: error }, message),
  );
  const oidcSandbox = config.OIDC_SANDBOX_PORT === 'off' ? null : new OidcSandbox();
  if (oidcSandbox) await oidcSandbox.start(config.OIDC_SANDBOX_PORT as number);
  const mailer = new SmtpMailer(config.SMTP_URL ?? `smtp://127.0.0.1:${catcherPort}`, config.MAIL_FROM);
  const services: TServices = {
    config,
    database,
    rateLimiter: redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter(),
    market,
    qrLogin: new QrLogin(database.db),
    appSecret,
    mailer,
    sms: new SandboxSmsProvider(database.db),
    mailCatcher,
    oidcSandbox,
    engine,
    trading: new TradingService(engine),
    liquidity: LiquidityService.attach(app, { database, engine, market }),
    vapid: loadVapidKeys(config.DATA_DIR, {
      publicKey: config.VAPID_PUBLIC_KEY,
      privateKey: config.VAPID_PRIVATE_KEY,
    }),
    resolveTenant: (input) => tenants.resolve(input),
    redisStatus: async () => {
      if (!redis) return 'absent';
      try {
        return (await redis.ping()) === 'PONG' ? 'ok' : 'down';
      } catch {
        return 'down';
      }
    },
  };

  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Hooks that do not wait on anything take a callback: an async hook costs a promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'not-found',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  // Errors raised before a handler runs (a body that is not JSON, too large, of an unknown type)
  // answer in the envelope every call uses: -9001 with a translated message, not Fastify's shape.
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    const locale = requestLocale(request.headers, request.cookies ?? {});
    if (status >= 400 && status < 500)
      return sendError(
        reply,
        new AppError(
          AppErrorCode.VALIDATION_FAILED,
          undefined,
          String((error as { message?: unknown }).message ?? error),
        ),
        locale,
      );
    return sendError(reply, error, locale);
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyCompress, { threshold: 1024 });
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    done(null, payload);
  });

  const started = Date.now();
  app.get('/HealthCheck/Get', async (_request, reply) => {
    const check = async (probe: () => Promise<void>) => {
      const t0 = performance.now();
      try {
        await probe();
        return { status: 'ok' as const, latencyMs: Math.round((performance.now() - t0) * 100) / 100 };
      } catch (error) {
        return { status: 'down' as const, error: String(error).slice(0, 200) };
      }
    };
    const db = await check(() => database.ping());
    const redisStatus = await services.redisStatus();
    const healthy = db.status === 'ok' && redisStatus !== 'down';
    return reply.code(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'unavailable',
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      parts: {
        database: { ...db, kind: database.kind },
        redis: { status: redisStatus },
      },
    });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );

  registerGateway(app, services, handlers);
  registerOAuth(app, services);
  registerUnionCallback(app, services);
  registerUploads(app, services);
  registerTradingExports(app, services);
  if (mailCatcher) registerDevMailbox(app, services);
  market.start();
  await engine.start();
  const stream = new MarketStream(market, async (host) => {
    try {
      return (await services.resolveTenant({ host, hostspecific: undefined })).id;
    } catch {
      return undefined;
    }
  });
  const accountStream = AccountStream.attach(app, services);
  app.server.on('upgrade', (request, socket, head) => {
    if (!stream.handleUpgrade(request, socket, head) && !accountStream.handleUpgrade(request, socket, head))
      socket.destroy();
  });
  const ticks = new client.Counter({
    name: 'market_ticks_total',
    help: 'Ticks accepted from the feed',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(market.tickCount);
    },
  });
  const filtered = new client.Counter({
    name: 'market_ticks_filtered_total',
    help: 'Off-market ticks dropped',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(market.filteredCount);
    },
  });
  const connections = new client.Gauge({
    name: 'market_stream_connections',
    help: 'Open market WebSocket connections',
    registers: [registry],
    collect() {
      this.set(stream.connections);
    },
  });
  void ticks;
  void filtered;
  void connections;
  await registerPages(app, services);

  return {
    app,
    services,
    close: async () => {
      stream.close();
      await app.close();
      await market.stop();
      await engine.stop();
      mailer.close();
      await mailCatcher?.stop();
      await oidcSandbox?.stop();
      await redis?.quit().catch(() => undefined);
      if (!options.database) await database.close();
    },
  };
}
