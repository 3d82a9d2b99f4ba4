/**
 * How long a broker's market-configuration change takes to go live (issue 6: "within one second"):
 * `applyMarketConfig` after saving a new BTCUSDT markup, with 2,000 trading accounts of the broker
 * in the engine (each one's group levels are compared) and 1,000 open positions, on embedded PGlite.
 * Beside it, the same call when the levels also change (every account gets a durable `set_levels`
 * command, committed before the call returns).
 *
 * Run: npm run bench:market-config
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { applyMarketConfig } from '../apps/server/src/modules/trading/terms-sync';
import { seed } from '../apps/server/src/seed';

const ACCOUNTS = 2_000;
const POSITIONS = 1_000;
const RUNS = 20;
const round = (value: number) => Math.round(value * 100) / 100;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-market-config-'));
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  ADMIN_PASSWORD: 'Bench-Admin-Password-1',
  MAIL_CATCHER_PORT: '0',
  OIDC_SANDBOX_PORT: 'off',
  FEED: 'off',
});
const app = await buildApp(config);
try {
  await seed(config, app.services.database, app.services);
  const { engine, market, database } = app.services;
  const db = database.db;
  const tenant = await db
    .selectFrom('tenants')
    .select('id')
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenant.id)
    .executeTakeFirstOrThrow();
  market.onTick({ symbol: 'BTCUSDT', time: Date.now(), bid: 6_700_000, ask: 6_702_500 });
  const group = await engine.groupForNewAccount(tenant.id);
  const accounts: number[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const accountId = await engine.nextAccountId();
    const created = await engine.submit(
      {
        type: 'create_account',
        clientKey: `bench:${randomUUID()}`,
        time: Date.now(),
        accountId,
        accountType: 1,
        tradeType: 2,
        currency: 'USD',
        leverage: 100,
        initialBalance: 10_000_000,
        profile: group.id,
        marginCallBp: group.marginCallBp,
        stopOutBp: group.stopOutBp,
      },
      { accountId, tenantId: tenant.id, userId: user.id },
    );
    if (!created.ok) throw new Error(created.error);
    accounts.push(accountId);
  }
  for (let i = 0; i < POSITIONS; i++) {
    const opened = await engine.submit({
      type: 'open_market',
      clientKey: `bench:${randomUUID()}`,
      time: Date.now(),
      accountId: accounts[i % ACCOUNTS] as number,
      symbol: 'BTCUSDT',
      side: i % 2 === 0 ? 'buy' : 'sell',
      volume: 1,
    });
    if (!opened.ok) throw new Error(opened.error);
  }

  const measure = async (change: (run: number) => Promise<void>) => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await change(run);
      const started = performance.now();
      await applyMarketConfig(app.services.engine, tenant.id);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50ms: round(percentile(times, 50)), maxMs: round(times.at(-1) ?? 0), runs: RUNS };
  };
  const markup = await measure(async (run) => {
    await db
      .updateTable('instruments')
      .set({ markup_points: 100 + run })
      .where('tenant_id', '=', tenant.id)
      .where('symbol', '=', 'BTCUSDT')
      .execute();
  });
  const quote = market.quote('BTCUSDT', tenant.id);
  const levels = await measure(async (run) => {
    await db
      .updateTable('account_groups')
      .set({ margin_call_bp: 10_000 + run * 10, stop_out_bp: 5_000 })
      .where('tenant_id', '=', tenant.id)
      .where('is_default', '=', true)
      .execute();
  });
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`Market configuration benchmark — ${new Date().toISOString()} — ${machine}`);
  console.log(
    JSON.stringify({
      accounts: ACCOUNTS,
      positions: POSITIONS,
      markupChange: markup,
      spreadAfter: quote?.spread,
      levelsChangeOnEveryAccount: levels,
    }),
  );
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
