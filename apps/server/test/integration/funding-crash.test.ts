import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, TEST_ADMIN_PASSWORD } from '../helpers';

/**
 * Issue 17: a SIGKILL while a payout is on its way neither loses nor doubles it. A real server
 * process approves a withdrawal and is killed with SIGKILL while the sandbox provider is paying it
 * out; a second process on the same database and DATA_DIR finishes it: the withdrawal completes, the
 * provider paid it once, and the ledger settled it once.
 */
const root = resolve(__dirname, '../../../..');
let dataDir = '';
let databaseUrl = '';
let drop: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  const database = await freshDatabaseUrl();
  drop = database.drop;
  // PGlite on disk in DATA_DIR (not in memory), so that the second process finds the first's data.
  databaseUrl = database.url === 'memory://' ? '' : database.url;
  dataDir = mkdtempSync(join(tmpdir(), 'payout-crash-'));
});
afterAll(async () => {
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function run(args: string[]): { child: ChildProcess; line: (prefix: string) => Promise<string> } {
  const child = spawn(
    join(root, 'node_modules/.bin/node'),
    ['--import', 'tsx', join(root, 'apps/server/test/fixtures/payout-crash-child.ts'), ...args],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        DEMO_MODE: 'true',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        SEED_MONEY_TWO_FACTOR: 'false',
        MAIL_CATCHER_PORT: '0',
        OIDC_SANDBOX_PORT: '0',
        FEED: 'off',
        PAYMENT_WEBHOOK_DELAY_MS: '5,20',
        PAYMENT_DUPLICATE_RATE: '0.5',
        // Long enough that the kill lands while the provider is still paying out.
        PAYMENT_PAYOUT_DELAY_MS: '1500,1500',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  const scan = () => {
    for (const row of out.split('\n'))
      for (const waiter of [...waiters])
        if (row.startsWith(waiter.prefix)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(row.slice(waiter.prefix.length).trim());
        }
  };
  child.stdout?.on('data', (chunk) => {
    out += chunk;
    scan();
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const line = (prefix: string) =>
    new Promise<string>((resolveLine, reject) => {
      waiters.push({ prefix, resolve: resolveLine });
      scan();
      child.on('exit', (code) =>
        reject(new Error(`child exited (${code}) before "${prefix}": ${err.slice(-2000)}`)),
      );
    });
  return { child, line };
}

describe('a payout interrupted by SIGKILL', () => {
  it('completes once after the restart: paid once, settled once, the balance right', {
    timeout: 120_000,
  }, async () => {
    const first = run(['setup']);
    const [withdrawalId = '', accountId = ''] = (await first.line('READY')).split(' ');
    expect(withdrawalId).not.toBe('');
    const killed = new Promise((resolveExit) => first.child.on('exit', resolveExit));
    first.child.kill('SIGKILL');
    await killed;
    const second = run(['resume', withdrawalId, accountId]);
    const result = JSON.parse(await second.line('RESULT')) as {
      status: string;
      balance: number;
      payouts: number;
      settlements: number;
    };
    expect(result).toEqual({ status: 'completed', balance: 30_000, payouts: 1, settlements: 1 });
  });
});
