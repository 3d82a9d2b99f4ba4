import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppErrorCode } from '@broker/domain/result-codes';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/errors';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

/** Issue 15, finding 10: a database outage answers -9005, and a wrong DATABASE_URL stops the start cleanly. */
const root = join(import.meta.dirname, '../../../..');

/** Takes the test server's database away the way it happens in production. */
async function takeDatabaseAway(url: string, close: () => Promise<void>) {
  if (!url.startsWith('postgres')) {
    // PGlite: its worker thread ends.
    await close();
    return;
  }
  // PostgreSQL: every connection is terminated and the database is gone (new ones fail too).
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [name],
    );
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

describe('database outage', () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('answers -9005 (service unavailable), not -9999, once the database is gone', {
    timeout: 60_000,
  }, async () => {
    {
      const api = new ApiClient(server.baseUrl);
      const before = await api.post('/api/v1/usercenter/emailregistered', { email: 'demo@example.com' });
      expect(before.body.data).toEqual({ registered: true });

      await takeDatabaseAway(server.config.DATABASE_URL ?? '', () => server.app.services.database.close());
      // Past the tenant cache (5 s), so the broker lookup also meets the outage.
      for (const call of [
        () => api.post('/api/v1/usercenter/emailregistered', { email: 'demo@example.com' }),
        () => api.post('/api/v1/usercenter/login', { email: 'demo@example.com', password: 'Demo2026!' }),
        () => api.post('/gateway', { email: 'someone@example.com' }, { routes: 'emailregistered' }),
      ]) {
        const { status, body } = await call();
        expect(body.code).toBe(AppErrorCode.SERVICE_UNAVAILABLE);
        expect(status).toBe(503);
      }
      await new Promise((r) => setTimeout(r, 5_200));
      const late = await api.post('/api/v1/usercenter/emailregistered', { email: 'demo@example.com' });
      expect(late.body.code).toBe(AppErrorCode.SERVICE_UNAVAILABLE);
    }
  });

  it('classifies connection failures, and only those, as unavailable', () => {
    const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('08006'),
      withCode('3D000', 'database "x" does not exist'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('database thread exited (1)'),
      new Error('wrapped', { cause: withCode('ECONNRESET') }),
      new AggregateError([withCode('ECONNREFUSED')], ''),
    ])
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    for (const error of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('22P02'),
      new Error('something else'),
      'a string',
      null,
    ])
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
  });

  it('a DATABASE_URL nobody answers stops the start with one line and exit code 78', {
    timeout: 60_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'broker-bad-db-'));
    try {
      const child = spawn(
        join(root, 'node_modules/.bin/node'),
        ['--import', 'tsx', join(root, 'apps/server/src/main.ts')],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            PORT: '0',
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            LOG_LEVEL: 'silent',
            DATABASE_URL: 'postgres://postgres@127.0.0.1:5999/x',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(stderr).toBe('DATABASE_URL: cannot connect to 127.0.0.1:5999/x (ECONNREFUSED)\n');
      expect(stdout).toBe('');
      expect(code).toBe(78);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
