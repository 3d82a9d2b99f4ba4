/**
 * What the benchmarks that drive the real app share (bench/copy.ts, bench/strategies.ts): the app
 * started in process on a fresh database, users written straight into it, percentiles, a bounded
 * pool, the machine's load, and the trading core's tick benchmark run as a child process.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { userActor } from '../apps/server/src/actor';
import { startTestServer } from '../apps/server/test/helpers';

export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** p50, p99 and max (ms, one decimal) and the count of `values`. */
export const stats = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50).toFixed(1),
    p99: percentile(sorted, 99).toFixed(1),
    max: (sorted[sorted.length - 1] ?? 0).toFixed(1),
    n: sorted.length,
  };
};

/** The 1, 5 and 15 minute load averages, for the figures they go with. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/**
 * The real app (`buildApp` through the tests' `startTestServer`: demo mode, listening on a free port)
 * without a price feed, on a fresh seeded database: embedded PGlite in memory when `databaseServer` is
 * null, else a new database on that PostgreSQL server.
 */
export async function startBenchApp(databaseServer: string | null = null) {
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseServer ?? '';
  const server = await startTestServer({ FEED: 'off', OIDC_SANDBOX_PORT: 'off' }).finally(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  });
  const built = server.app;
  const db = built.services.database.db;
  const host = built.services.engine;
  const tenant = (
    await db.selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  let time = Date.now();
  return {
    built,
    db,
    host,
    ports: { host, db },
    tenant,
    kind: built.services.database.kind === 'pglite' ? 'embedded PGlite (in memory)' : 'PostgreSQL server',
    /** Feeds one tick (prices in points) as the feed would; answers its time, unique and increasing. */
    tick(symbol: string, bid: number, ask: number) {
      time = Math.max(time + 1, Date.now());
      built.services.market.onTick({ symbol, time, bid, ask });
      return time;
    },
    actorOf: (userId: string) => userActor({ userId, tenantId: tenant, ip: '127.0.0.1' }),
    /** `count` users written straight into the database (registration is not what is measured). */
    async insertUsers(count: number): Promise<string[]> {
      const userIds = Array.from({ length: count }, () => randomUUID());
      for (let i = 0; i < userIds.length; i += 500)
        await db
          .insertInto('users')
          .values(
            userIds.slice(i, i + 500).map((id, j) => ({
              id,
              tenant_id: tenant,
              email: `bench.${i + j}.${id.slice(0, 8)}@example.com`,
              password_hash: 'x',
              display_name: `Bench ${i + j}`,
              country_code: null,
              locked_until: null,
            })),
          )
          .execute();
      return userIds;
    },
    close: server.close,
  };
}

/** One run of the trading core's tick benchmark (bench-core.ts) with `env`: its summary lines. */
export function runTickBench(env: Record<string, string>): string {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'packages/domain/test/trading/bench-core.ts'],
    { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return out
    .trim()
    .split('\n')
    .filter((line) => /^onTick|^main-thread|^invariants|^bots:|^activity/.test(line))
    .join('\n');
}
