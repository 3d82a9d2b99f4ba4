/**
 * Crash test of the trading engine's durability (issue 5): starts the real server, streams signed
 * market orders at it from several concurrent clients, kills it with SIGKILL at a random moment,
 * restarts it on the same data, and repeats. At the end every order that was acknowledged must
 * exist exactly once, and re-sending every idempotency key ever used (acknowledged or not) must
 * never create a second position for a key.
 *
 *   npm run test:kill                      # 20 rounds on embedded PGlite (DATA_DIR on disk)
 *   DATABASE_URL=postgres://… npm run test:kill   # the same against a PostgreSQL server
 *   KILL_ROUNDS=5 npm run test:kill
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabaseUrl } from '../apps/server/test/helpers';
import { Trader } from '../apps/server/test/trader';

const root = join(import.meta.dirname, '..');
const SYMBOL = 'ETHUSDT';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

interface TServer {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
}

async function start(dataDir: string, databaseUrl: string, port: number): Promise<TServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_PASSWORD: 'Kill-Test-Admin-2026',
      LOG_LEVEL: 'error',
      MAIL_CATCHER_PORT: '0',
      OIDC_SANDBOX_PORT: 'off',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/HealthCheck/Get`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Wait for the first quotes of the symbol so market orders can fill.
  while (Date.now() < deadline) {
    const answer = (await (
      await fetch(`${baseUrl}/api/v1/quote/currencydetail`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ symbol: SYMBOL }),
      })
    ).json()) as { success: boolean };
    if (answer.success) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, baseUrl, output: () => output };
}

function kill(server: TServer): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

interface TSent {
  key: string;
  acked: number | null;
}

export async function runKillTest(
  options: { rounds?: number; clients?: number; log?: (line: string) => void } = {},
) {
  const rounds = options.rounds ?? Number(process.env.KILL_ROUNDS ?? 20);
  const clients = options.clients ?? 4;
  const log = options.log ?? ((line: string) => console.log(line));
  const dataDir = mkdtempSync(join(tmpdir(), 'kill-test-'));
  const database = await freshDatabaseUrl();
  // PGlite keeps its files under DATA_DIR; an empty DATABASE_URL selects it.
  const databaseUrl = database.url === 'memory://' ? '' : database.url;
  const port = await freePort();
  const sent: TSent[] = [];
  let accountId = 0;
  let cookies: Map<string, string> | null = null;
  let identity: { userId: string; cipherKey: string } | null = null;
  const started = performance.now();
  try {
    for (let round = 1; round <= rounds; round++) {
      const server = await start(dataDir, databaseUrl, port);
      let trader: Trader;
      if (!cookies || !identity) {
        trader = await Trader.signIn(server.baseUrl);
        accountId = await trader.createAccount(1, 2, 100);
      } else {
        // The session survives restarts: same cookies, same cipher key; only the trade token is renewed.
        trader = new Trader(server.baseUrl);
        trader.api.cookies = new Map(cookies);
        trader.userId = identity.userId;
        trader.cipherKey = identity.cipherKey;
        await trader.renewTradeToken();
      }
      cookies = new Map(trader.api.cookies);
      identity = { userId: trader.userId, cipherKey: trader.cipherKey };
      const before = sent.length;
      let stop = false;
      const stream = async () => {
        while (!stop) {
          const entry: TSent = { key: randomUUID(), acked: null };
          sent.push(entry);
          try {
            const answer = await trader.send(accountId, {
              symbol: SYMBOL,
              side: 'buy',
              volume: '0.01',
              idempotencyKey: entry.key,
            });
            if (answer.body.success) entry.acked = answer.body.data.ticket;
            else if (answer.status < 500)
              throw new Error(`refused: ${answer.body.errorCode} ${answer.body.message}`);
          } catch (error) {
            if (error instanceof Error && error.message.startsWith('refused')) throw error;
            return; // the connection died with the server
          }
        }
      };
      const streams = Array.from({ length: clients }, () => stream());
      await new Promise((r) => setTimeout(r, 150 + Math.random() * 600));
      await kill(server);
      stop = true;
      await Promise.all(streams);
      const acked = sent.slice(before).filter((s) => s.acked !== null).length;
      log(`round ${round}/${rounds}: ${sent.length - before} sent, ${acked} acknowledged, then SIGKILL`);
    }

    const server = await start(dataDir, databaseUrl, port);
    const trader = new Trader(server.baseUrl);
    trader.api.cookies = new Map(cookies ?? []);
    trader.userId = identity?.userId ?? '';
    trader.cipherKey = identity?.cipherKey ?? '';
    await trader.renewTradeToken();
    const positions = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body.data as {
      order_id: number;
    }[];
    const open = new Set(positions.map((p) => p.order_id));
    const acked = sent.filter((s) => s.acked !== null);
    const lost = acked.filter((s) => !open.has(s.acked as number));
    // Re-send every key: a committed one answers its ticket, an uncommitted one opens now, none twice.
    const replayTickets = new Map<string, number>();
    for (const entry of sent) {
      const answer = await trader.send(accountId, {
        symbol: SYMBOL,
        side: 'buy',
        volume: '0.01',
        idempotencyKey: entry.key,
      });
      if (!answer.body.success)
        throw new Error(`replay refused: ${answer.body.errorCode} ${answer.body.message}`);
      replayTickets.set(entry.key, answer.body.data.ticket);
    }
    const changed = acked.filter((s) => replayTickets.get(s.key) !== s.acked);
    const after = (await trader.call('/api/v1/order/positions', { account_id: accountId })).body
      .data as unknown[];
    const distinctTickets = new Set(replayTickets.values());
    await kill(server);
    const report = {
      rounds,
      sent: sent.length,
      acknowledged: acked.length,
      recoveredAcknowledged: acked.length - lost.length,
      lost: lost.length,
      ticketChangedOnReplay: changed.length,
      positionsAfterReplay: after.length,
      keys: sent.length,
      distinctTickets: distinctTickets.size,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      database: databaseUrl ? 'postgresql' : 'pglite',
    };
    log(JSON.stringify(report));
    const ok =
      lost.length === 0 &&
      changed.length === 0 &&
      after.length === sent.length &&
      distinctTickets.size === sent.length;
    return { ok, report };
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ok } = await runKillTest();
  console.log(ok ? 'PASS: every acknowledged order survived, none twice' : 'FAIL');
  process.exit(ok ? 0 : 1);
}
