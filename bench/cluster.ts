/**
 * Several instances (issue 20): order throughput and latency through one instance and through three
 * behind HAProxy with the engine on one of them, beside the single-process figures and the
 * one-by-one baseline in the same run; the failover time over five SIGKILLs of the leader; and two
 * engines on disjoint accounts (two brokers on two databases: the sharding of docs/operations.md).
 *
 * Needs PostgreSQL, NATS and haproxy (`apt-get install haproxy`). Run:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:cluster
 * BENCH_SECONDS (default 8) per case, BENCH_CLIENTS (default 16) concurrent traders.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/modules/identity/passwords';
import { healthOf, LocalCluster, type TInstance, until } from '../apps/server/test/cluster';
import { Trader } from '../apps/server/test/trader';

if (!process.env.DATABASE_URL?.startsWith('postgres')) {
  console.error('bench:cluster needs DATABASE_URL=postgres://... (several processes share one database)');
  process.exit(2);
}
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const SYMBOL = 'BTCUSDT';

async function makeTraders(databaseUrl: string, baseUrl: string, count: number): Promise<Trader[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('select id from tenants where is_default');
  const hash = await hashPassword('Bench-2026!');
  const emails: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench.${randomUUID()}@example.com`;
    emails.push(email);
    await client.query(
      'insert into users (id, tenant_id, email, password_hash, display_name) values ($1, $2, $3, $4, $5)',
      [randomUUID(), rows[0]?.id, email, hash, `Bench ${i}`],
    );
  }
  await client.end();
  return Promise.all(emails.map((email) => Trader.signIn(baseUrl, email, 'Bench-2026!')));
}

interface TRow {
  case: string;
  orders: number;
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Clients sending market orders back to back (buy and sell in turn, so margin never runs out). */
async function load(name: string, clients: Trader[], accounts: number[], seconds = SECONDS): Promise<TRow> {
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (client, index) => {
      const accountId = accounts[index] as number;
      let n = 0;
      while (performance.now() < end) {
        const side = n++ % 2 === 0 ? 'buy' : 'sell';
        const t0 = performance.now();
        const answer = await client
          .send(accountId, { symbol: SYMBOL, side, volume: '0.01' })
          .catch(() => null);
        if (answer?.body.success) latencies.push(performance.now() - t0);
        else failed++;
        if (n % 40 === 0)
          await client.call('/api/v1/order/closeall', {
            account_id: accountId,
            idempotencyKey: randomUUID(),
          });
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    case: name,
    orders: latencies.length,
    perSecond: Math.round(latencies.length / seconds),
    p50: Math.round(quantile(latencies, 0.5) * 100) / 100,
    p99: Math.round(quantile(latencies, 0.99) * 100) / 100,
    failed,
  };
}

const rows: TRow[] = [];
const env = { FEED: 'simulator', LOG_LEVEL: 'error' };
console.log(
  `# bench:cluster — ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()[0]?.toFixed(1)}`,
);

// 1. One process without the bus (as npm start runs it, on PostgreSQL): the reference.
{
  const single = new LocalCluster(1, env, { nats: false, proxy: false });
  await single.start();
  const base = single.instances[0]?.baseUrl as string;
  const traders = await makeTraders(single.database, base, CLIENTS);
  const accounts = await Promise.all(traders.map((t) => t.createAccount()));
  rows.push(
    await load('one by one: 1 client, single process, no bus (baseline)', traders.slice(0, 1), accounts, 4),
  );
  rows.push(await load(`single process, no bus, ${CLIENTS} clients`, traders, accounts));
  await single.stop();
}

// 2. Three instances on NATS behind HAProxy, the engine on one.
const cluster = new LocalCluster(3, env);
await cluster.start();
const leader = (await until(() => cluster.leader())) as TInstance;
const standby = cluster.instances.find((i) => i !== leader) as TInstance;
const traders = await makeTraders(cluster.database, cluster.proxyUrl, CLIENTS);
const accounts = await Promise.all(traders.map((t) => t.createAccount()));
rows.push(
  await load(
    `the leader directly (bus on, nothing forwarded), ${CLIENTS} clients`,
    traders.map((t) => t.at(leader.baseUrl)),
    accounts,
  ),
);
rows.push(
  await load(
    `a standby directly (every order forwarded), ${CLIENTS} clients`,
    traders.map((t) => t.at(standby.baseUrl)),
    accounts,
  ),
);
rows.push(
  await load(`three instances behind HAProxy (2 of 3 forwarded), ${CLIENTS} clients`, traders, accounts),
);

// 3. Failover: the leader SIGKILLed five times under the same load through HAProxy.
const failovers: number[] = [];
{
  let running = true;
  const accepted: [number, number][] = [];
  const streams = traders.map(async (client, index) => {
    const accountId = accounts[index] as number;
    let n = 0;
    while (running) {
      const key = randomUUID();
      const side = n++ % 2 === 0 ? 'buy' : 'sell';
      for (;;) {
        const sent = Date.now();
        const answer = await client
          .send(accountId, { symbol: SYMBOL, side, volume: '0.01', idempotencyKey: key })
          .catch(() => null);
        if (answer?.body.success) {
          accepted.push([sent, Date.now()]);
          break;
        }
        if (!running) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (n % 40 === 0)
        await client
          .call('/api/v1/order/closeall', { account_id: accountId, idempotencyKey: randomUUID() })
          .catch(() => null);
    }
  });
  for (let kill = 0; kill < 5; kill++) {
    await new Promise((r) => setTimeout(r, 2_000));
    const current = (await until(() => cluster.leader())) as TInstance;
    const killedAt = Date.now();
    await cluster.kill(current);
    const deadAt = Date.now();
    const first = await until(
      async () => accepted.filter(([s]) => s >= deadAt).sort((a, b) => a[1] - b[1])[0],
      60_000,
      10,
    );
    failovers.push(first[1] - killedAt);
    await cluster.launch(current.index);
  }
  running = false;
  await Promise.all(streams);
}
const epoch = (await healthOf((await until(() => cluster.leader())).baseUrl))?.body.parts.engine.epoch;
await cluster.stop();

// 4. Two engines on disjoint accounts: two brokers, each on its own database and engine.
{
  const a = new LocalCluster(1, env, { nats: false, proxy: false });
  const b = new LocalCluster(1, env, { nats: false, proxy: false });
  await Promise.all([a.start(), b.start()]);
  const half = Math.max(1, CLIENTS / 2);
  const ta = await makeTraders(a.database, a.instances[0]?.baseUrl as string, half);
  const tb = await makeTraders(b.database, b.instances[0]?.baseUrl as string, half);
  const aa = await Promise.all(ta.map((t) => t.createAccount()));
  const ab = await Promise.all(tb.map((t) => t.createAccount()));
  const [ra, rb] = await Promise.all([load('shard A', ta, aa), load('shard B', tb, ab)]);
  rows.push({
    case: `two engines, disjoint accounts (2 × ${half} clients; sum, worst p99)`,
    orders: ra.orders + rb.orders,
    perSecond: ra.perSecond + rb.perSecond,
    p50: Math.max(ra.p50, rb.p50),
    p99: Math.max(ra.p99, rb.p99),
    failed: ra.failed + rb.failed,
  });
  await Promise.all([a.stop(), b.stop()]);
}

console.log('\n| case | orders | orders/s | p50 ms | p99 ms | failed |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.case} | ${r.orders} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.failed} |`);
const sorted = [...failovers].sort((x, y) => x - y);
console.log(
  `\nfailover, SIGKILL of the leader to the first order accepted by the next one (5 kills, ${CLIENTS} clients through HAProxy): ${failovers.join(', ')} ms; p50 ${quantile(sorted, 0.5)} ms, max ${sorted.at(-1)} ms; final epoch ${epoch}`,
);
console.log(`load after: ${loadavg()[0]?.toFixed(1)}`);
process.exit(0);
