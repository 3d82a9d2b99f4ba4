/**
 * Funding benchmark (issue 17), one command: `npm run bench:funding`.
 *
 * On embedded PGlite (in memory), or on the PostgreSQL server DATABASE_URL names, through the real
 * app (`buildApp`):
 * 1. Transfers between a main account and three sub-accounts through the `transferFunds` use case
 *    (idempotency row, the engine's two-legged ledger transaction, durable group commit), CONCURRENCY
 *    loops for SECONDS.
 * 2. Deposit credits through `receiveWebhook` (signature check, event recorded once, deposit claimed,
 *    engine credit committed), one signed event per deposit.
 * 3. Baseline in the same run on the same database: raw single-row INSERTs (one statement each) with
 *    the same concurrency.
 *
 * Environment: BENCH_SECONDS (default 8), BENCH_CONCURRENCY (default 32).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { userActor } from '../apps/server/src/actor';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDeposit, receiveWebhook, transferFunds } from '../apps/server/src/modules/funding';
import { sandboxWebhookSecret, signSandboxWebhook } from '../apps/server/src/modules/funding/providers';
import { openAccount, openSubAccount } from '../apps/server/src/modules/trading';
import { seed } from '../apps/server/src/seed';
import { freshDatabaseUrl } from '../apps/server/test/helpers';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

async function load(op: () => Promise<void>) {
  const latencies: number[] = [];
  let errors = 0;
  const reasons = new Map<string, number>();
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await op();
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors++;
          const code = String((error as { code?: unknown }).code ?? (error as Error).message);
          reasons.set(code, (reasons.get(code) ?? 0) + 1);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50).toFixed(1),
    p99: percentile(latencies, 99).toFixed(1),
    done: latencies.length,
    errors,
    reasons: [...reasons].map(([code, count]) => `${code} ×${count}`).join(', '),
  };
}

async function main() {
  const database = await freshDatabaseUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-funding-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    DEMO_MODE: 'true',
    MAIL_CATCHER_PORT: '0',
    OIDC_SANDBOX_PORT: 'off',
    FEED: 'off',
    ADMIN_PASSWORD: 'Bench-Admin-Password-2026',
    PAYMENT_DUPLICATE_RATE: '0',
  });
  const built = await buildApp(config);
  await seed(config, built.services.database, built.services);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const db = built.services.database.db;
  const ports = { host: built.services.engine, db, ...built.services.funding };
  const tenant = await db
    .selectFrom('tenants')
    .select('id')
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'demo@example.com')
    .executeTakeFirstOrThrow();
  await db.updateTable('users').set({ kyc_status: 'approved' }).where('id', '=', user.id).execute();
  const actor = userActor({ userId: user.id, tenantId: tenant.id, ip: '127.0.0.1' });
  const main = await openAccount(ports, {
    actor,
    account_type: 2,
    trade_type: 1,
    leverage: 100,
    idempotencyKey: randomUUID(),
  });
  const accountId = main.account_id;
  await built.services.engine.submit({
    type: 'deposit',
    accountId,
    amount: 100_000_000,
    clientKey: randomUUID(),
    time: Date.now(),
  });
  const subs = await Promise.all(
    (['copy', 'copy', 'strategy'] as const).map((purpose) =>
      openSubAccount(ports, { actor, accountId, purpose, idempotencyKey: randomUUID() }),
    ),
  );
  const types = ['transfer_follow', 'transfer_follow', 'transfer_strategy'] as const;

  // 1. Transfers, alternating out and back so balances never run dry.
  let n = 0;
  const transfers = await load(async () => {
    const i = n++;
    const which = i % subs.length;
    const out = Math.floor(i / subs.length) % 2 === 0;
    await transferFunds(ports, {
      actor,
      type: `${types[which]}_${out ? 'out' : 'in'}` as 'transfer_follow_out',
      account_id: accountId,
      sub_account_id: (subs[which] as { accountId: number }).accountId,
      amount: '1.00',
      idempotencyKey: randomUUID(),
    });
  });

  // 2. Deposit credits by signed webhook: deposits are created first (not timed), then credited.
  const secret = sandboxWebhookSecret(
    readFileSync(join(dataDir, 'payment-sandbox-secret'), 'utf8').trim(),
    'sandboxbank',
  );
  const pending: string[] = [];
  for (let i = 0; i < 4_000; i++)
    pending.push(
      (
        await createDeposit(ports, {
          actor,
          account_id: accountId,
          method: 'bank',
          amount: '100.00',
          idempotencyKey: randomUUID(),
        })
      ).id,
    );
  const provider = 'sandboxbank';
  const credits = await load(async () => {
    const depositId = pending.pop();
    if (!depositId) throw new Error('out of deposits');
    const body = JSON.stringify({
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      provider,
      created: Date.now(),
      sequence: 1,
      livemode: false,
      type: 'deposit.succeeded',
      data: { depositId, providerRef: `bank_${depositId}`, amount: 10_000, currency: 'USD' },
    });
    const answer = await receiveWebhook(ports, {
      providerId: provider,
      rawBody: body,
      headers: { 'x-sandbox-signature': signSandboxWebhook(secret, body, Date.now()) },
      ip: '127.0.0.1',
    });
    if (answer.outcome !== 'credited') throw new Error(answer.outcome);
  });

  // 3. Baseline: raw single-row inserts, same concurrency, same database.
  await sql`create table bench_rows (id text primary key, amount bigint, created_at timestamptz default now())`.execute(
    db,
  );
  const baseline = await load(async () => {
    await sql`insert into bench_rows (id, amount) values (${randomUUID()}, 100)`.execute(db);
  });

  const kind =
    built.services.database.kind === 'pglite' ? 'embedded PGlite (in memory)' : 'PostgreSQL server';
  console.log(
    `\nFunding benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${kind}`,
  );
  console.log(`${CONCURRENCY} concurrent loops, ${SECONDS} s per case\n`);
  console.log('| case | per s | p50 ms | p99 ms | done | errors | vs baseline |');
  console.log('|---|---|---|---|---|---|---|');
  const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
    console.log(
      `| ${name} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.done} | ${r.errors} | ${Math.round((100 * r.perSecond) / baseline.perSecond)} % |`,
    );
  row('raw single-row INSERT (baseline)', baseline);
  row('transfer main ↔ sub-account (use case, engine, group commit)', transfers);
  row('deposit credit by signed webhook (verify, record once, claim, engine)', credits);
  for (const [name, r] of [
    ['transfers', transfers],
    ['credits', credits],
  ] as const)
    if (r.errors) console.log(`${name}: errors by code: ${r.reasons}`);
  const total = await sql<{ n: string }>`select count(*) as n from transfers where tx_id is not null`.execute(
    db,
  );
  console.log(
    `\ntransfers recorded with their ledger transaction: ${total.rows[0]?.n}; errors above are refusals (none expected)`,
  );
  await built.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
