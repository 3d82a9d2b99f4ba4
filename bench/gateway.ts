/**
 * Gateway benchmark: the full gateway path (tenant resolution, session lookup, zod validation,
 * handler, envelope) beside a bare Fastify route that returns the same JSON, in the same run.
 * Run: npm run bench:gateway   (DATABASE_URL=postgres://... to use a PostgreSQL server)
 */
import { cpus, totalmem } from 'node:os';
import { LOCALES } from '@broker/i18n/locales';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { seed } from '../apps/server/src/seed';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function measure(name: string, url: string, headers: Record<string, string>, body: string) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
  ADMIN_PASSWORD: 'Bench-Admin-Password-1',
  DATA_DIR: '.tmp/bench',
  MAIL_CATCHER_PORT: '0',
  OIDC_SANDBOX_PORT: 'off',
});
const app = await buildApp(config);
await seed(config, app.services.database);
await app.app.listen({ port: 0, host: '127.0.0.1' });
const gatewayPort = (app.app.server.address() as { port: number }).port;

const bare = Fastify();
const locales = LOCALES.map(({ code, iso, name, file }) => ({ code, iso, name, file }));
bare.post('/bare', async () => ({ code: 200, success: true, data: locales, errorCode: 200, message: 'OK' }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bare.server.address() as { port: number }).port;

const json = { 'content-type': 'application/json' };
const rows = [];
rows.push(await measure('bare Fastify route (baseline)', `http://127.0.0.1:${barePort}/bare`, json, '{}'));
rows.push(
  await measure(
    'POST /api/v1/common/localelist',
    `http://127.0.0.1:${gatewayPort}/api/v1/common/localelist`,
    json,
    '{}',
  ),
);
rows.push(
  await measure(
    'POST /gateway (Routes: localelist)',
    `http://127.0.0.1:${gatewayPort}/gateway`,
    { ...json, Routes: 'localelist' },
    '{}',
  ),
);
rows.push(
  await measure(
    'POST /gateway, unknown Hostspecific (error path)',
    `http://127.0.0.1:${gatewayPort}/gateway`,
    { ...json, Routes: 'localelist' },
    '{"Hostspecific":"nobody"}',
  ),
);

console.log(
  `\nGateway benchmark — ${new Date().toISOString()} — ${cpus()[0]?.model} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${app.services.database.kind}`,
);
console.log(`${CONNECTIONS} connections, ${DURATION} s each\n`);
console.log('| case | req/s | p50 ms | p99 ms | errors or non-2xx | vs baseline |');
console.log('|---|---|---|---|---|---|');
const baseline = rows[0]!.requestsPerSecond;
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.requestsPerSecond} | ${row.p50ms} | ${row.p99ms} | ${row.errors} | ${Math.round((row.requestsPerSecond / baseline) * 100)} % |`,
  );
}
await bare.close();
await app.close();
