import { BusConnectError, buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseConnectError } from './db/errors';
import { EngineLeaseHeldError } from './modules/leadership';
import { seed } from './seed';

function describeProxyTrust(trust: false | string[]): string {
  if (trust === false) return 'socket peer (TRUST_PROXY off: X-Forwarded-For ignored)';
  return `X-Forwarded-For from ${trust.join(', ')} (TRUST_PROXY)`;
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    built = await buildApp(config);
  } catch (error) {
    // A database that cannot be reached is a setting to fix, like any other bad value.
    if (error instanceof DatabaseConnectError) {
      console.error(`DATABASE_URL: ${error.message}`);
      process.exit(78);
    }
    // Another instance leads the engine on this database and there is no bus (ADR 013), or the bus
    // named by NATS_URL does not answer.
    if (error instanceof EngineLeaseHeldError || error instanceof BusConnectError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const { app, services, close } = built;
  const seeded = await seed(config, services.database, services);
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const base = config.PUBLIC_URL ?? `http://localhost:${port}`;
  const lines = [
    '',
    '  Broker platform is running',
    `  Portal         ${base}/`,
    `  Back office    ${base}/admin`,
    `  Health         ${base}/HealthCheck/Get`,
    `  Database       ${services.database.kind === 'pglite' ? `embedded PGlite (${config.DATA_DIR}/pglite)` : 'PostgreSQL server'}`,
    `  Redis          ${config.REDIS_URL ? 'connected' : 'not configured (single instance)'}`,
    ...(services.mailCatcher
      ? [`  Mail and SMS   ${base}/dev/mailbox (built-in catcher; set SMTP_URL to send real mail)`]
      : []),
    ...(services.oidcSandbox
      ? [`  Sandbox ID     ${services.oidcSandbox.issuer} (third-party sign-in; any login and password)`]
      : []),
    `  Client address ${describeProxyTrust(config.TRUST_PROXY)}`,
    `  Payments       ${services.funding.sandbox ? 'built-in sandbox providers (card 4242 4242 4242 4242, USDT, bank; docs/funding.md)' : 'no provider configured (PAYMENT_SANDBOX=off)'}`,
    ...(config.DEMO_MODE
      ? [
          '',
          `  Demo mode: ${[
            services.mailCatcher ? 'mail catcher and /dev/mailbox' : null,
            'SMS sandbox',
            services.oidcSandbox ? 'Sandbox ID' : null,
            config.METRICS_TOKEN ? null : 'public /metrics',
          ]
            .filter(Boolean)
            .join(', ')} — do not use in production (DEMO_MODE=false)`,
        ]
      : []),
    '',
    `  Back-office administrator   ${seeded.adminUsername} / ${seeded.adminPassword ?? '(set on first start; see data/initial-admin-password or ADMIN_PASSWORD)'}`,
    ...(seeded.demoTrader
      ? [
          `  Demo trader                 ${seeded.demoTrader.email} (or phone +1 202 555 0123) / ${seeded.demoTrader.password}`,
        ]
      : []),
    '',
  ];
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
