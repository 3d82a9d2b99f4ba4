import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { AppErrorCode } from '@broker/domain/result-codes';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { EngineLeaseHeldError } from '../../src/modules/leadership';
import { isFencedOff, persistBatch } from '../../src/modules/trading/persistence';
import { pushTick, startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { restartableServers } from '../restart';
import { Trader } from '../trader';

/**
 * Issue 20, first milestone (ADR 013): the engine's lease and the fencing of its commits.
 * The fencing runs on both databases (PGlite takes and checks the epoch too); the refusal of a
 * second instance needs a PostgreSQL server, where two processes can reach one database.
 */
const root = join(import.meta.dirname, '../../../..');
const onServer = process.env.DATABASE_URL?.startsWith('postgres') ?? false;

type THealth = {
  status: string;
  parts: { engine: { status: string; role: string; epoch: number | null; lease: string } };
};
async function health(baseUrl: string): Promise<{ code: number; body: THealth }> {
  const response = await fetch(`${baseUrl}/HealthCheck/Get`);
  return { code: response.status, body: (await response.json()) as THealth };
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('engine lease: fencing and stepping down', () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer({ FEED: 'off' });
  });
  afterAll(async () => server?.close());

  it('refuses a commit of a stale epoch, stores nothing of it, steps down and leads again with a new epoch', {
    timeout: 60_000,
  }, async () => {
    const db = server.app.services.database.db;
    const first = await health(server.baseUrl);
    expect(first.code).toBe(200);
    expect(first.body.parts.engine).toMatchObject({
      status: 'ok',
      role: 'leader',
      lease: onServer ? 'advisory-lock' : 'embedded',
    });
    const epoch = first.body.parts.engine.epoch as number;
    expect(epoch).toBeGreaterThanOrEqual(1);

    pushTick(server, 'BTCUSDT', 67000, 67025);
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const before = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
    expect(before.body.success, before.body.message).toBe(true);

    // A newer leader took the next epoch (here by hand): this instance's next commit is fenced off.
    await sql`update engine_epoch set epoch = epoch + 1 where id = 1`.execute(db);
    const stale = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.02',
      idempotencyKey: 'fenced-order',
    });
    expect(stale.body.success).toBe(false);
    expect(stale.body.code).toBe(AppErrorCode.SERVICE_UNAVAILABLE);
    // Nothing of it is stored: no position, no order history row, no idempotency record.
    const positions = await db
      .selectFrom('positions')
      .select(['volume'])
      .where('account_id', '=', accountId)
      .execute();
    expect(positions.map((p) => p.volume)).toEqual([1]);
    const history = await db
      .selectFrom('order_history')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(history).toHaveLength(1);
    const keys = await db
      .selectFrom('engine_idempotency')
      .select('key')
      .where('key', 'like', '%fenced-order')
      .execute();
    expect(keys).toEqual([]);
    expect(server.app.services.engine.stats.fenced).toBe(1);

    // Alone on its database (no bus), the instance wins the lease back with a newer epoch,
    // rebuilds from the database and trades again: the refused order, sent again, is placed once.
    const again = await until(async () => {
      const { code, body } = await health(server.baseUrl);
      return code === 200 && (body.parts.engine.epoch ?? 0) > epoch + 1 ? body : undefined;
    });
    expect(again.parts.engine).toMatchObject({ role: 'leader', epoch: epoch + 2 });
    const retried = await trader.send(accountId, {
      symbol: 'BTCUSDT',
      side: 'buy',
      volume: '0.02',
      idempotencyKey: 'fenced-order',
    });
    expect(retried.body.success, retried.body.message).toBe(true);
    const open = await trader.call('/api/v1/order/positions', { account_id: accountId });
    expect(open.body.data).toHaveLength(2);
    const terms = await db
      .selectFrom('engine_terms')
      .select(['epoch', 'ended_at'])
      .orderBy('epoch')
      .execute();
    expect(terms.map((t) => Number(t.epoch)).at(-1)).toBe(epoch + 2);
    expect(terms.at(-1)?.ended_at).toBeNull();

    // The statement itself: a group written with an epoch that is not the current one is refused
    // by the database (SQLSTATE BF001) and leaves nothing behind.
    const item = {
      events: [],
      states: new Map(),
      deals: [],
      finished: [],
      ledger: [],
      idempotency: { key: 'direct-stale', fingerprint: 'f', result: { ok: true } },
    };
    const refused = await persistBatch(server.app.services.database, [item], undefined, epoch).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isFencedOff(refused), String(refused)).toBe(true);
    const direct = await db
      .selectFrom('engine_idempotency')
      .select('key')
      .where('key', '=', 'direct-stale')
      .execute();
    expect(direct).toEqual([]);
  });

  it('stores every order it acknowledged and none it refused while a newer epoch cuts in', {
    timeout: 60_000,
  }, async () => {
    const db = server.app.services.database.db;
    pushTick(server, 'BTCUSDT', 67000, 67025);
    const trader = await Trader.signIn(server.baseUrl);
    const accountId = await trader.createAccount(1, 2, 100);
    const send = (key: string) =>
      trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01', idempotencyKey: key });
    // Orders in flight when another leader takes the next epoch, and more right after it.
    const first = Array.from({ length: 20 }, (_, i) => `wave-a-${i}`);
    const second = Array.from({ length: 20 }, (_, i) => `wave-b-${i}`);
    const inFlight = first.map(send);
    await new Promise((r) => setTimeout(r, 5));
    await sql`update engine_epoch set epoch = epoch + 1 where id = 1`.execute(db);
    const answers = [...(await Promise.all([...inFlight, ...second.map(send)]))];
    const keys = [...first, ...second];
    const acknowledged = keys.filter((_, i) => answers[i]?.body.success === true);
    const refused = keys.filter((_, i) => answers[i]?.body.success !== true);
    expect(refused.length).toBeGreaterThan(0);
    for (const i of keys.keys())
      if (answers[i]?.body.success !== true)
        expect(answers[i]?.body.code).toBe(AppErrorCode.SERVICE_UNAVAILABLE);
    const stored = await db
      .selectFrom('engine_idempotency')
      .select('key')
      .where('key', 'like', `${accountId}:wave-%`)
      .execute();
    expect(stored.map((r) => r.key.slice(`${accountId}:`.length)).sort()).toEqual([...acknowledged].sort());
    const positions = await db
      .selectFrom('positions')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(positions).toHaveLength(acknowledged.length);
    // Once it leads again, its memory is the database's: the same positions, none of the refused.
    await until(async () => ((await health(server.baseUrl)).code === 200 ? true : undefined));
    const open = await trader.call('/api/v1/order/positions', { account_id: accountId });
    expect(open.body.data).toHaveLength(acknowledged.length);
  });

  it.runIf(onServer)(
    'steps down when the server ends its lease session, and leads again with the next epoch',
    {
      timeout: 60_000,
    },
    async () => {
      const db = server.app.services.database.db;
      const { epoch } = (await health(server.baseUrl)).body.parts.engine;
      pushTick(server, 'BTCUSDT', 67000, 67025);
      const trader = await Trader.signIn(server.baseUrl);
      const accountId = await trader.createAccount(1, 2, 100);
      // As a database restart or an administrator would: the session holding the lock is ended.
      const ended = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_stat_activity
       where datname = current_database() and application_name like 'broker engine %'`.execute(db);
      expect(ended.rows).toEqual([{ ended: true }]);
      const back = await until(async () => {
        const { code, body } = await health(server.baseUrl);
        return code === 200 && body.parts.engine.epoch === (epoch ?? 0) + 1 ? body : undefined;
      });
      expect(back.parts.engine.role).toBe('leader');
      const order = await trader.send(accountId, { symbol: 'BTCUSDT', side: 'buy', volume: '0.01' });
      expect(order.body.success, order.body.message).toBe(true);
    },
  );
});

describe.runIf(onServer)('engine lease: one engine per database without a bus', () => {
  const servers = restartableServers('engine-lease');

  /** The server as an operator starts it: `main.ts` in a process of its own. */
  function startProcess(): { child: ChildProcess; exit: Promise<number | null>; output: () => string } {
    const child = spawn(
      join(root, 'node_modules/.bin/node'),
      ['--import', 'tsx', join(root, 'apps/server/src/main.ts')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          DEMO_MODE: 'true',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: servers.config().DATA_DIR,
          LOG_LEVEL: 'silent',
          DATABASE_URL: servers.config().DATABASE_URL ?? '',
          ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
          MAIL_CATCHER_PORT: '0',
          OIDC_SANDBOX_PORT: '0',
          FEED: 'off',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    child.stdout?.on('data', (chunk) => {
      text += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      text += chunk;
    });
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exit, output: () => text };
  }

  it('refuses a second instance with a clear message and exit code 78; the lease goes with its holder', {
    timeout: 120_000,
  }, async () => {
    const holder = startProcess();
    try {
      await until(
        async () => (holder.output().includes('Broker platform is running') ? true : undefined),
        60_000,
      );

      // A second process on the same database: refused before it starts anything, with why and what to do.
      const second = startProcess();
      expect(await second.exit).toBe(78);
      const said = second.output();
      expect(said).toContain('Refusing to start the trading engine: another live instance holds its lease');
      expect(said).toContain(`pid ${holder.child.pid}`);
      expect(said).toContain('NATS_URL');
      expect(said).not.toContain('Broker platform is running');

      // The same in process: buildApp refuses and leaves nothing open.
      await expect(buildApp(servers.config())).rejects.toBeInstanceOf(EngineLeaseHeldError);
    } finally {
      // Killed without a chance to clean up: the server ends its session, and the lock with it.
      holder.child.kill('SIGKILL');
      await holder.exit;
    }

    const next = await until<TTestServer>(() => servers.boot().catch(() => undefined), 20_000);
    try {
      const { code, body } = await health(next.baseUrl);
      expect(code).toBe(200);
      expect(body.parts.engine).toMatchObject({ role: 'leader', lease: 'advisory-lock', epoch: 2 });
    } finally {
      await next.close();
    }
    // A clean stop gives the lease back at once: a restart leads with the next epoch.
    const restarted = await servers.boot();
    try {
      expect((await health(restarted.baseUrl)).body.parts.engine.epoch).toBe(3);
    } finally {
      await restarted.close();
    }
  });
});
