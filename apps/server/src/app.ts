import { timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import client from 'prom-client';
import { priceAlertParts } from './api/alerts';
import { registerDevFeed } from './api/dev-feed';
import { registerDevMailbox } from './api/dev-mailbox';
import { registerFundingRaw } from './api/funding-raw';
import { ENGINE_ROUTES, handlers } from './api/handlers';
import { registerOAuth } from './api/oauth';
import { registerUnionCallback } from './api/oidc-callback';
import { registerTradingExports } from './api/trading-exports';
import { decodeJson, encodeJson, InProcessBus, type TBus } from './cluster/bus';
import { Cluster } from './cluster/cluster';
import { DurableStreams } from './cluster/durable-streams';
import { LeaderFeed } from './cluster/leader-feed';
import { NatsBus } from './cluster/nats-bus';
import type { TRemoteAccountsAnswer } from './cluster/remote-accounts';
import type { TConfig } from './config';
import { isPostgresUrl, openDatabase, type TDatabase } from './db/database';
import { migrate, readMigrations } from './db/migrate';
import { pgliteSnapshotFile } from './db/pglite-snapshot';
import { AccountStream } from './http/account-stream';
import type { TServices } from './http/context';
import { sendError } from './http/envelope';
import { registerRawForwarding } from './http/forward-raw';
import { runForwardedCall, type TForwardedCall } from './http/forwarded-calls';
import { registerGateway } from './http/gateway';
import { MarketStream } from './http/market-stream';
import { registerPages } from './http/pages';
import { registerSandboxPay } from './http/sandbox-pay';
import { registerUploads } from './http/uploads';
import { loadServerCatalogs, requestLocale } from './i18n';
import { strongPassword } from './ids';
import { AuditRelay } from './modules/audit';
import { CopyFeeSchedule } from './modules/copy';
import {
  createSandboxProviders,
  finishCoinExchanges,
  finishDeposits,
  finishWithdrawals,
} from './modules/funding';
import { OidcSandbox, QrLogin } from './modules/identity';
import { EngineLease } from './modules/leadership';
import { LiquidityService } from './modules/liquidity';
import { createFeed, MarketService } from './modules/market';
import {
  loadVapidKeys,
  MailCatcher,
  SandboxSmsProvider,
  SmtpMailer,
  type TMailer,
  UndeliverableMailer,
  UndeliverableSmsProvider,
} from './modules/notify';
import { TenantResolver } from './modules/tenancy';
import { accountSnapshot, EngineHost } from './modules/trading';
import { MemoryRateLimiter, RedisRateLimiter } from './rate-limit';

/** NATS_URL is set but no NATS server answers there. */
export class BusConnectError extends Error {}

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
    // request.ip (rate limits, audit) is the socket's peer unless TRUST_PROXY names the proxies.
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1_048_576,
  });
  const migrations = readMigrations();
  const snapshot = isPostgresUrl(config.DATABASE_URL) ? null : pgliteSnapshotFile(migrations);
  const database =
    options.database ??
    (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, snapshot }));
  await migrate(database, migrations);
  // The first new embedded database of these migrations leaves its snapshot for the next ones.
  if (database.origin === 'created' && database.dump && snapshot && !existsSync(snapshot))
    await database
      .dump(snapshot)
      .catch((error: Error) =>
        app.log.warn(`database snapshot not written (${error.message}): the next new database is created`),
      );
  // The bus between instances: NATS with NATS_URL (several instances share the engine), otherwise
  // in-process (one instance, as `npm start` runs it). ADR 014.
  const busLog = { info: (m: string) => app.log.info(m), warn: (m: string) => app.log.warn(m) };
  let bus: TBus;
  try {
    bus = config.NATS_URL
      ? await NatsBus.connect(
          config.NATS_URL,
          config.BUS_PREFIX,
          `broker ${process.pid}`,
          busLog,
          config.NATS_TOKEN,
        )
      : new InProcessBus();
  } catch (error) {
    if (!options.database) await database.close().catch(() => undefined);
    throw new BusConnectError(`NATS_URL: ${String((error as Error)?.message ?? error)}`);
  }
  // The engine's lease before anything starts: without a bus a second instance on the same
  // database is refused here (EngineLeaseHeldError; main.ts prints why and exits 78), ADR 013; with
  // one it starts as a standby and takes the lease when the leader is gone.
  let lease: EngineLease;
  try {
    lease = await EngineLease.acquire(
      database,
      { info: (message) => app.log.info(message), error: (message) => app.log.error(message) },
      { standby: bus.kind === 'nats', retryMs: config.ENGINE_LEASE_RETRY_MS },
    );
  } catch (error) {
    await bus.close().catch(() => undefined);
    if (!options.database) await database.close().catch(() => undefined);
    throw error;
  }
  await loadServerCatalogs();

  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 })
    : null;
  if (redis) await redis.connect();

  const tenants = new TenantResolver(database.db);
  const appSecret = new TextEncoder().encode(
    config.APP_SECRET ?? persistentSecret(config.DATA_DIR, 'app-secret'),
  );
  // The real price source runs where the engine leads; standbys take the leader's ticks (ADR 014).
  const feed = new LeaderFeed(createFeed(config), bus.kind !== 'nats' || lease.epoch !== null);
  const market = new MarketService(database.db, feed, config.SERVER_TIME_ZONE);
  // Development conveniences (mail catcher and /dev/mailbox, SMS sandbox, Sandbox ID, public
  // /metrics) run in demo mode only: a production start without DEMO_MODE has none of them.
  const mailCatcher = config.DEMO_MODE && !config.SMTP_URL ? new MailCatcher() : null;
  const catcherPort = mailCatcher ? await mailCatcher.start(config.MAIL_CATCHER_PORT) : 0;
  const engine = new EngineHost(
    database,
    market,
    undefined,
    (error, message) => app.log.error({ err: error }, message),
    lease,
  );
  const oidcSandbox = config.DEMO_MODE && config.OIDC_SANDBOX_PORT !== 'off' ? new OidcSandbox() : null;
  if (oidcSandbox) await oidcSandbox.start(config.OIDC_SANDBOX_PORT as number);
  const vapid = loadVapidKeys(config.DATA_DIR, {
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
  });
  let mailer: TMailer;
  if (config.SMTP_URL) mailer = new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  else if (mailCatcher) mailer = new SmtpMailer(`smtp://127.0.0.1:${catcherPort}`, config.MAIL_FROM);
  else {
    mailer = new UndeliverableMailer();
    app.log.warn('SMTP_URL is not set and demo mode is off: mail (verification codes) cannot be sent');
  }
  // The server's own address once it listens: where the sandbox providers send webhooks and the
  // hosted pages send traders back (PUBLIC_URL when set, for the pages).
  const ownUrl = () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    return `http://127.0.0.1:${port}`;
  };
  const publicUrl = () => config.PUBLIC_URL ?? ownUrl();
  const sandbox = config.PAYMENT_SANDBOX
    ? createSandboxProviders({
        dataDir: config.DATA_DIR,
        secret: persistentSecret(config.DATA_DIR, 'payment-sandbox-secret'),
        webhookUrl: (provider) => `${ownUrl()}/api/v1/trans/webhook/${provider}`,
        publicUrl,
        webhookDelayMs: config.PAYMENT_WEBHOOK_DELAY_MS,
        duplicateRate: config.PAYMENT_DUPLICATE_RATE,
        blockMs: config.PAYMENT_BLOCK_MS,
        payoutDelayMs: config.PAYMENT_PAYOUT_DELAY_MS,
        enableControls: config.DEMO_MODE,
        log: { warn: (detail, message) => app.log.warn(detail, message) },
      })
    : null;
  const cluster = new Cluster({
    bus,
    engine,
    lease,
    market,
    feed,
    log: {
      info: (m) => app.log.info(m),
      warn: (m) => app.log.warn(m),
      error: (details, m) => app.log.error(details, m),
    },
    forwardTimeoutMs: config.FORWARD_TIMEOUT_MS,
    // One instance has no one to wait for: a lost lease (being won back) answers -9005 at once.
    leaderWaitMs: bus.kind === 'nats' ? config.LEADER_WAIT_MS : 0,
  });
  const alertParts = priceAlertParts({
    config,
    db: database.db,
    market,
    mailer,
    vapid,
    log: app.log,
    toTerminals: (tenantId, userId, message) => cluster.sendToUser(tenantId, userId, message),
  });
  const services: TServices = {
    config,
    database,
    rateLimiter: redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter(),
    market,
    qrLogin: new QrLogin(database.db),
    appSecret,
    mailer,
    sms: config.DEMO_MODE ? new SandboxSmsProvider(database.db) : new UndeliverableSmsProvider(),
    mailCatcher,
    oidcSandbox,
    engine,
    cluster,
    liquidity: LiquidityService.attach(app, {
      database,
      engine,
      market,
      sandboxRejectRate: config.LP_SANDBOX_REJECT_RATE,
    }),
    funding: {
      providers: sandbox?.providers ?? new Map(),
      publicUrl,
      sandbox,
    },
    vapid,
    webPush: alertParts.webPush,
    alerts: alertParts.alerts,
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
    // Without a bus the one instance must lead the engine to trade: a lost lease (being won back)
    // is unavailable. With the bus a standby serves: it is ready while the bus is connected.
    const leading = lease.epoch !== null && engine.isLeading;
    const engineReady = leading || (bus.kind === 'nats' && bus.connected);
    const healthy = db.status === 'ok' && redisStatus !== 'down' && engineReady;
    const { role, epoch, lease: kind, instance, since, losses } = lease.status();
    return reply.code(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'unavailable',
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      parts: {
        database: { ...db, kind: database.kind },
        redis: { status: redisStatus },
        bus: { kind: bus.kind, status: bus.connected ? 'ok' : 'down' },
        engine: {
          status: engineReady ? 'ok' : 'down',
          role: leading ? role : 'standby',
          epoch,
          lease: kind,
          instance,
          since,
          leaseLosses: losses,
        },
      },
    });
  });
  // With METRICS_TOKEN, /metrics asks for it as a bearer token; without, it is public in demo mode
  // only and refused otherwise.
  const metricsToken = config.METRICS_TOKEN ? Buffer.from(`Bearer ${config.METRICS_TOKEN}`) : null;
  const metricsAllowed = (authorization: string | undefined) => {
    if (!metricsToken) return config.DEMO_MODE;
    const given = Buffer.from(authorization ?? '');
    return given.length === metricsToken.length && timingSafeEqual(given, metricsToken);
  };
  app.get('/metrics', async (request, reply) => {
    if (!metricsAllowed(request.headers.authorization))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain')
        .send(metricsToken ? 'metrics: bearer token required\n' : 'metrics: set METRICS_TOKEN to enable\n');
    return reply.type(registry.contentType).send(await registry.metrics());
  });

  registerGateway(app, services, handlers, ENGINE_ROUTES);
  registerRawForwarding(app, services);
  // On the leader: the calls standbys forward, and their account streams' snapshots.
  cluster.serveCalls(async (data) =>
    encodeJson(await runForwardedCall(decodeJson<TForwardedCall>(data), services, handlers, app.log)),
  );
  cluster.serveAccounts(async (data) => {
    const { ids } = decodeJson<{ ids: number[] }>(data);
    if (!engine.isLeading) return encodeJson({ notLeader: true });
    const accounts: TRemoteAccountsAnswer['accounts'] = {};
    for (const id of ids.slice(0, 10_000)) {
      const owner = engine.ownerOf(id);
      const view = engine.core.account(id);
      const snapshot = owner && view ? accountSnapshot(engine, id) : undefined;
      accounts[String(id)] =
        owner && view && snapshot
          ? {
              tenantId: owner.tenantId,
              userId: owner.userId,
              accountType: view.accountType,
              json: JSON.stringify(snapshot),
              hasPositions: snapshot.positions.length > 0,
            }
          : null;
    }
    return encodeJson({ accounts } satisfies TRemoteAccountsAnswer);
  });
  registerOAuth(app, services);
  registerUnionCallback(app, services);
  registerUploads(app, services);
  registerTradingExports(app, services);
  registerFundingRaw(app, services);
  if (sandbox) registerSandboxPay(app, sandbox);
  if (mailCatcher) registerDevMailbox(app, services);
  if (config.DEMO_MODE && config.FEED === 'off') registerDevFeed(app, services);
  market.start();
  await engine.start();
  // What runs only where the engine leads: started now if this instance leads, else when it takes
  // over from a leader that died, and stopped if it steps down (ADR 014).
  // Money steps a crash cut short are finished before anything new arrives (each is keyed, so a
  // repeat is a no-op): credits of claimed deposits, holds, payouts to send, releases and settlements.
  cluster.whileLeading('funding recovery', async () => {
    const ports = { host: engine, db: database.db, ...services.funding, log: app.log };
    await finishDeposits(ports);
    await finishWithdrawals(ports);
    await finishCoinExchanges(ports);
  });
  // Leader fees settle weekly (and at start, the last period a stopped server may have missed).
  cluster.whileLeading('copy fees', async () => {
    const copyFees = new CopyFeeSchedule(
      { host: engine, db: database.db, mailer, log: app.log },
      config.DEMO_MODE ? (config.COPY_FEE_PERIOD_MS ?? null) : null,
    );
    await copyFees.start();
    return () => copyFees.stop();
  });
  // The audit trail, copied in chain order to a JetStream stream for other systems (NATS only).
  const durable =
    bus instanceof NatsBus
      ? await DurableStreams.open(bus, config.BUS_PREFIX).catch((error: unknown) => {
          app.log.error({ err: error }, 'JetStream unavailable: the audit stream is not written');
          return null;
        })
      : null;
  let auditRelay: AuditRelay | null = null;
  if (durable)
    cluster.whileLeading('audit stream', async () => {
      const relay = new AuditRelay(database.db, durable, app.log);
      auditRelay = relay;
      relay.start();
      return () => relay.stop();
    });
  // Price alerts are evaluated beside the engine, once, whatever instance their trader uses.
  cluster.whileLeading('price alerts', async () => {
    await alertParts.alerts.start();
    return () => alertParts.alerts.stop();
  });
  const stream = new MarketStream(market, async (host) => {
    try {
      return (await services.resolveTenant({ host, hostspecific: undefined })).id;
    } catch {
      return undefined;
    }
  });
  const accountStream = AccountStream.attach(app, services);
  alertParts.registerWorker(app);
  await cluster.start();
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
  const engineLeader = new client.Gauge({
    name: 'engine_leader',
    help: 'Whether this instance holds the trading engine lease and leads the engine (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(lease.epoch !== null && engine.isLeading ? 1 : 0);
    },
  });
  const engineEpoch = new client.Gauge({
    name: 'engine_epoch',
    help: 'The epoch of the engine lease this instance holds (0 when it holds none)',
    registers: [registry],
    collect() {
      this.set(lease.epoch ?? 0);
    },
  });
  const leaseLosses = new client.Counter({
    name: 'engine_lease_losses_total',
    help: 'Engine leases this instance lost since it started',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(lease.status().losses);
    },
  });
  const fencedCommits = new client.Counter({
    name: 'engine_commits_fenced_total',
    help: 'Group commits the database refused because a newer engine epoch existed',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(engine.stats.fenced);
    },
  });
  const busMessages = new client.Counter({
    name: 'bus_messages_total',
    help: 'Bus messages by direction (published, received, requests, request failures, served)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, value] of Object.entries(bus.stats)) this.inc({ kind }, value);
    },
  });
  const busConnected = new client.Gauge({
    name: 'bus_connected',
    help: 'Whether the bus (NATS, or in-process) is connected (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(bus.connected ? 1 : 0);
    },
  });
  const forwarded = new client.Counter({
    name: 'engine_calls_forwarded_total',
    help: 'Engine calls this instance forwarded to the leader, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'sent' }, cluster.stats.forwarded);
      this.inc({ outcome: 'retried' }, cluster.stats.forwardRetries);
      this.inc({ outcome: 'failed' }, cluster.stats.forwardFailures);
    },
  });
  const auditRelayed = new client.Counter({
    name: 'audit_stream_entries_total',
    help: 'Audit entries this instance copied to the JetStream audit stream while leading',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(auditRelay?.relayed ?? 0);
    },
  });
  void auditRelayed;
  void busMessages;
  void busConnected;
  void forwarded;
  void ticks;
  void filtered;
  void connections;
  void engineLeader;
  void engineEpoch;
  void leaseLosses;
  void fencedCommits;
  await registerPages(app, services);

  return {
    app,
    services,
    // Every part is stopped even when one fails (a shutdown during a database outage: the last
    // candle flush fails, the rest must still be released).
    close: async () => {
      const steps: (() => unknown)[] = [
        () => stream.close(),
        // The leader parts (alerts, copy fees) stop first, then the rest.
        () => cluster.stop(),
        () => alertParts.close(),
        () => sandbox?.stop(),
        () => app.close(),
        () => market.stop(),
        () => engine.stop(),
        // After the last commit: the next instance's epoch bump finds nothing in flight.
        () => lease.release(),
        () => mailer.close(),
        () => mailCatcher?.stop(),
        () => oidcSandbox?.stop(),
        () => redis?.quit(),
        () => bus.close(),
        () => (options.database ? undefined : database.close()),
      ];
      for (const step of steps) {
        try {
          await step();
        } catch (error) {
          app.log.warn({ err: error }, 'shutdown: a part did not stop cleanly');
        }
      }
    },
  };
}
