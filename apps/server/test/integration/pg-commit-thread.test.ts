import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../../src/db/database';
import { freshDatabaseUrl } from '../helpers';

const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;

/**
 * On PostgreSQL the engine's group commits (`database.exec`) run on a connection of their own in a
 * worker thread (ADR 008): errors keep their fields, a text is all or nothing, and a lost
 * connection is replaced.
 */
describe.runIf(onPostgres)('PostgreSQL commit thread', () => {
  let database: TDatabase;
  let drop: () => Promise<void>;
  let url: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'pg-commit-thread-'));

  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    url = fresh.url;
    drop = fresh.drop;
    database = await openDatabase({ url, dataDir });
    await database.exec('create table t (id integer primary key, note text not null)');
  });
  afterAll(async () => {
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const notes = async () =>
    (await sql<{ id: number; note: string }>`select id, note from t order by id`.execute(database.db)).rows;

  it('commits a long multi-statement text and answers only once it is visible to others', async () => {
    const long = 'x'.repeat(4000);
    await database.exec(`insert into t values (1, '${long}'); insert into t values (2, 'two')`);
    expect(await notes()).toEqual([
      { id: 1, note: long },
      { id: 2, note: 'two' },
    ]);
  });

  it('rolls back the whole text on an error and passes its code and constraint', async () => {
    const error = await database
      .exec(`insert into t values (3, 'three'); insert into t values (1, 'again')`)
      .catch((e: unknown) => e as { code?: string; constraint?: string });
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((await notes()).map((r) => r.id)).toEqual([1, 2]);
    // The same connection goes on working after a statement error.
    await database.exec(`insert into t values (3, 'three')`);
    expect((await notes()).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('opens a new connection after the server ends the one it had', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const name = new URL(url).pathname.slice(1);
      const ended = await admin.query(
        'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The pool's idle connections were ended too; the first attempts may see the loss.
    let committed = false;
    for (let attempt = 0; attempt < 5 && !committed; attempt++) {
      try {
        await database.exec(`insert into t values (4, 'four')`);
        committed = true;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    expect(committed).toBe(true);
    expect((await notes()).map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });
});
