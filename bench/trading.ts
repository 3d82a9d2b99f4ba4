/**
 * Trading benchmark (issue 5), one command: `npm run bench:trading`.
 *
 * 1. Tick processing of the trading core with 10,000 accounts, 100,000 open positions and
 *    100,000 triggers (packages/domain/test/trading/bench-core.ts, run as a child process).
 * 2. Order placement through HTTP (gateway, session, trade token, signature check, engine,
 *    durable group commit) on embedded PGlite (on disk) and, when DATABASE_URL names one, on the
 *    PostgreSQL server — each beside raw single-row INSERTs on the same database in the same run,
 *    and beside the same clients against a bare Fastify route (the ceiling HTTP alone sets). Also
 *    reported: this process's cores, the server thread's busy share, the PostgreSQL server's cores
 *    (from /proc), and the group commits (orders per commit, ms per commit).
 * 3. The engine's in-memory order path beside the npm package `nodejs-order-book`, same harness.
 *
 * Environment: BENCH_SECONDS (default 10), BENCH_CONCURRENCY (default 32), BENCH_ONLY=ticks|http|memory,
 * BENCH_DB=pglite|postgresql, BENCH_CPU_PROF=<dir> (CPU profiles of the server thread over the order
 * window, of the load generator and of the database threads, written to <dir>).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { DEFAULT_INSTRUMENTS } from '@broker/domain/market/instruments';
import { type TCommand, TradingEngine } from '@broker/domain/trading/engine-core';
import { compileInstrument } from '@broker/domain/trading/instrument-terms';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { OrderBook, Side } from 'nodejs-order-book';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { seed } from '../apps/server/src/seed';
import { freshDatabaseUrl } from '../apps/server/test/helpers';
import { Trader } from '../apps/server/test/trader';
import type { TLoadData, TLoadResult } from './trading-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
// The database threads read this when they start (pglite-thread.ts).
if (PROFILE_DIR) process.env.DB_THREAD_CPU_PROF = PROFILE_DIR;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const root = join(import.meta.dirname, '..');

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Runs `op` from CONCURRENCY loops for SECONDS; answers throughput and latency percentiles. */
async function load(op: (worker: number) => Promise<void>) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await op(worker);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Math.round(latencies.length / elapsed),
    p50ms: round(percentile(latencies, 50)),
    p99ms: round(percentile(latencies, 99)),
    count: latencies.length,
    errors,
  };
}

/**
 * CPU milliseconds used so far by the local PostgreSQL server's processes (the postmaster's count
 * includes its ended children), from /proc; null where /proc or the server is not there.
 */
function postgresCpuMs(): number | null {
  try {
    let ticks = 0;
    let found = false;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14 to 17 of stat, 11 to 14 after the name.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      found = true;
    }
    return found ? ticks * 10 : null;
  } catch {
    return null;
  }
}

async function httpOrders(kind: 'pglite' | 'postgresql') {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-trading-'));
  const database = kind === 'postgresql' ? await freshDatabaseUrl() : null;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    ADMIN_PASSWORD: 'Bench-Admin-Password-1',
    MAIL_CATCHER_PORT: '0',
    OIDC_SANDBOX_PORT: 'off',
    FEED: 'off',
  });
  const app = await buildApp(config);
  try {
    await seed(config, app.services.database, app.services);
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.app.server.address() as { port: number }).port}`;
    app.services.market.onTick({ symbol: 'ETHUSDT', time: Date.now(), bid: 342185, ask: 342365 });
    const trader = await Trader.signIn(baseUrl);
    // Five demo accounts (a trader's limit) shared by the workers; 0.01 lot needs about 3.42 USD of
    // margin, so tens of thousands of orders stay far from any margin limit.
    const accounts: number[] = [];
    for (let i = 0; i < 5; i++) accounts.push(await trader.createAccount(1, 2, 100));
    const clients = {
      baseUrl,
      cookies: [...trader.api.cookies],
      userId: trader.userId,
      cipherKey: trader.cipherKey,
      accounts,
    };
    const orders = await runLoad(kind, clients, join(PROFILE_DIR ?? '', `server-thread-${kind}.cpuprofile`));
    // The ceiling HTTP alone sets here: the same clients and requests against a bare Fastify route
    // on this thread that parses the body and answers a fixed ticket, with no work behind it.
    const bareServer = Fastify({ logger: false });
    bareServer.post('/api/v1/order/send', async () => ({
      success: true,
      data: { ticket: 1, kind: 'position' },
    }));
    await bareServer.listen({ port: 0, host: '127.0.0.1' });
    const bareHttp = await runLoad(kind, {
      ...clients,
      targetUrl: `http://127.0.0.1:${(bareServer.server.address() as { port: number }).port}`,
    });
    await bareServer.close();
    const engineStats = { ...app.services.engine.stats };
    const db = app.services.database.db;
    await sql`create table bench_inserts (id bigserial primary key, account_id bigint not null, payload text not null)`.execute(
      db,
    );
    // Raw single-row INSERTs, each its own durable commit, from the same 32 loops. Two ways, and
    // the faster one is the baseline: through the app's own connection (the pool, or the PGlite
    // thread), and with the bare driver and no query builder (pg.Pool, or PGlite in this thread on
    // its own data directory).
    const throughApp = await load(async (worker) => {
      await db
        .insertInto('bench_inserts' as never)
        .values({ account_id: worker, payload: randomUUID() } as never)
        .execute();
    });
    const bare = await bareInserts(kind, database?.url ?? '', join(dataDir, 'bare'));
    const baseline = Math.max(throughApp.perSecond, bare.perSecond);
    return {
      database: kind,
      orders,
      rawInsertsThroughApp: throughApp,
      rawInsertsBareDriver: bare,
      ratio: round(orders.perSecond / Math.max(1, baseline)),
      bareHttpRoute: {
        perSecond: bareHttp.perSecond,
        p50ms: bareHttp.p50ms,
        p99ms: bareHttp.p99ms,
        serverThreadBusy: bareHttp.serverThreadBusy,
        loadThreadBusy: bareHttp.loadThreadBusy,
        serverThreadUsPerOrder: bareHttp.serverThreadUsPerOrder,
        loadThreadUsPerOrder: bareHttp.loadThreadUsPerOrder,
      },
      ratioToBareHttp: round(orders.perSecond / Math.max(1, bareHttp.perSecond)),
      averageBatch: round(engineStats.items / Math.max(1, engineStats.batches), 1),
      largestBatch: engineStats.largestBatch,
      commitMsPerBatch: round(engineStats.commitMs / Math.max(1, engineStats.batches)),
    };
  } finally {
    await app.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs the load generator (trading-load.ts) in a worker thread: clients are other machines in
 * production, not the server's thread. Measures over the worker's window: throughput, latency,
 * CPU of this process, this thread's busy share, and the PostgreSQL server's CPU.
 */
async function runLoad(
  kind: 'pglite' | 'postgresql',
  load: Omit<TLoadData, 'seconds' | 'concurrency'>,
  profileFile?: string,
) {
  const worker = new Worker(new URL('./trading-load.ts', import.meta.url), {
    execArgv: [
      '--import',
      'tsx',
      ...(PROFILE_DIR && profileFile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    ],
    workerData: { ...load, seconds: SECONDS, concurrency: CONCURRENCY },
  });
  let profiler: Session | null = null;
  let cpu0 = process.cpuUsage();
  let thread0 = process.threadCpuUsage();
  let elu0 = performance.eventLoopUtilization();
  let server0 = kind === 'postgresql' ? postgresCpuMs() : null;
  const measured = await new Promise<TLoadResult>((resolve, reject) => {
    worker.on('message', (message: 'start' | TLoadResult) => {
      if (message !== 'start') return resolve(message);
      if (PROFILE_DIR && profileFile) profiler = startProfile();
      cpu0 = process.cpuUsage();
      thread0 = process.threadCpuUsage();
      elu0 = performance.eventLoopUtilization();
      server0 = kind === 'postgresql' ? postgresCpuMs() : null;
    });
    worker.once('error', reject);
  });
  if (profiler && profileFile) await stopProfile(profiler, profileFile);
  const cpu = process.cpuUsage(cpu0);
  const thread = process.threadCpuUsage(thread0);
  const elu = performance.eventLoopUtilization(elu0);
  const server1 = kind === 'postgresql' ? postgresCpuMs() : null;
  await worker.terminate();
  const sortedLatencies = measured.latencies.sort((a, b) => a - b);
  const answered = Math.max(1, sortedLatencies.length);
  // The PostgreSQL server's processes on this machine (read from /proc; null elsewhere).
  const postgresMs = server0 !== null && server1 !== null ? server1 - server0 : null;
  return {
    perSecond: Math.round(sortedLatencies.length / measured.elapsed),
    p50ms: round(percentile(sortedLatencies, 50)),
    p99ms: round(percentile(sortedLatencies, 99)),
    count: sortedLatencies.length,
    errors: measured.errors,
    processCores: round((cpu.user + cpu.system) / 1000 / (measured.elapsed * 1000)),
    serverThreadBusy: round(elu.utilization),
    loadThreadBusy: round(measured.busy),
    // CPU time (user + system) per answered order of this thread and of the load generator's, and
    // of the PostgreSQL server: unlike the busy shares, these do not count time spent waiting for
    // a core on a loaded machine.
    serverThreadUsPerOrder: Math.round((thread.user + thread.system) / answered),
    loadThreadUsPerOrder: Math.round(measured.cpuUs / answered),
    postgresUsPerOrder: postgresMs === null ? null : Math.round((postgresMs * 1000) / answered),
    postgresCores: postgresMs === null ? null : round(postgresMs / (measured.elapsed * 1000)),
  };
}

/** Starts the V8 profiler on this (the server's) thread. */
function startProfile(): Session {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  return session;
}

function stopProfile(session: Session, file: string): Promise<void> {
  return new Promise((resolve, reject) =>
    session.post('Profiler.stop', (error, result) => {
      if (error) return reject(error);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(result.profile));
      session.disconnect();
      resolve();
    }),
  );
}

/** Raw single-row INSERTs with the bare driver: pg.Pool (10 connections) or an in-thread PGlite. */
async function bareInserts(kind: 'pglite' | 'postgresql', url: string, dir: string) {
  const create =
    'create table bench_bare (id bigserial primary key, account_id bigint not null, payload text not null)';
  const insert = 'insert into bench_bare (account_id, payload) values ($1, $2)';
  if (kind === 'postgresql') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    try {
      await pool.query(create);
      return await load(async (worker) => {
        await pool.query(insert, [worker, randomUUID()]);
      });
    } finally {
      await pool.end();
    }
  }
  const lite = new PGlite(dir);
  try {
    await lite.waitReady;
    await lite.exec(create);
    return await load(async (worker) => {
      await lite.query(insert, [worker, randomUUID()]);
    });
  } finally {
    await lite.close();
  }
}

/** The engine's order path in memory (place a resting limit order) beside nodejs-order-book's. */
function inMemoryOrderPath() {
  const N = 100_000;
  const instruments = DEFAULT_INSTRUMENTS.map((spec) => compileInstrument(spec));
  const engine = new TradingEngine({ instruments });
  const time = Date.parse('2026-11-25T12:00:00Z');
  engine.onTick('EURUSD', 108_500, 108_512, time);
  for (let id = 1; id <= 100; id++)
    engine.apply({
      type: 'create_account',
      clientKey: `a${id}`,
      time,
      accountId: id,
      accountType: 1,
      tradeType: 2,
      currency: 'USD',
      leverage: 100,
      initialBalance: 1_000_000_000,
    });
  const commands: TCommand[] = [];
  for (let i = 0; i < N; i++)
    commands.push({
      type: 'place_pending',
      clientKey: `o${i}`,
      time,
      accountId: (i % 100) + 1,
      symbol: 'EURUSD',
      orderType: i % 2 === 0 ? 'buy_limit' : 'sell_limit',
      volume: 1,
      price: i % 2 === 0 ? 108_000 - (i % 400) : 109_000 + (i % 400),
    });
  const t0 = performance.now();
  for (const command of commands) {
    const result = engine.apply(command);
    if (!result.ok) throw new Error(`rejected: ${result.error}`);
  }
  const engineMs = performance.now() - t0;

  const book = new OrderBook();
  const t1 = performance.now();
  for (let i = 0; i < N; i++)
    book.limit({
      side: i % 2 === 0 ? Side.BUY : Side.SELL,
      id: `o${i}`,
      size: 1,
      price: i % 2 === 0 ? 1.08 - (i % 400) / 100_000 : 1.09 + (i % 400) / 100_000,
    });
  const bookMs = performance.now() - t1;
  return {
    orders: N,
    engine: {
      ordersPerSecond: Math.round(N / (engineMs / 1000)),
      microsecondsPerOrder: round((engineMs * 1000) / N),
    },
    nodejsOrderBook: {
      ordersPerSecond: Math.round(N / (bookMs / 1000)),
      microsecondsPerOrder: round((bookMs * 1000) / N),
    },
    note: 'engine: validation, margin, idempotency record and trigger-book insert per order; order book: price-level insert',
  };
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`Trading benchmark — ${new Date().toISOString()} — ${machine}`);

const only = process.env.BENCH_ONLY;
console.log('\n1. Tick processing (10,000 accounts, 100,000 positions, 100,000 triggers)');
const core =
  only && only !== 'ticks'
    ? 'skipped (BENCH_ONLY)'
    : execFileSync(
        process.execPath,
        ['--import', 'tsx', join(root, 'packages/domain/test/trading/bench-core.ts')],
        {
          cwd: root,
          encoding: 'utf8',
          maxBuffer: 16 * 1024 * 1024,
        },
      );
console.log(core.trim());

console.log(
  `\n2. Order placement over HTTP with durable commit (${CONCURRENCY} concurrent clients, ${SECONDS} s)`,
);
// BENCH_DB=pglite|postgresql runs one database only.
const databases = (['pglite', 'postgresql'] as const).filter(
  (kind) =>
    (!process.env.BENCH_DB || process.env.BENCH_DB === kind) &&
    (kind === 'pglite' || process.env.DATABASE_URL?.startsWith('postgres')),
);
const results = [];
if (!only || only === 'http') for (const kind of databases) results.push(await httpOrders(kind));
for (const r of results) console.log(JSON.stringify(r));

console.log('\n3. In-memory order path beside nodejs-order-book');
console.log(only && only !== 'memory' ? 'skipped (BENCH_ONLY)' : JSON.stringify(inMemoryOrderPath()));
