import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../../src/db/database';

/** PGlite runs in a worker thread; these check the session sharing rules of its pool (ADR 008). */
describe('PGlite in its worker thread', () => {
  let database: TDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));

  beforeAll(async () => {
    database = await openDatabase({ url: undefined, dataDir });
    await database.exec('create table t (id integer primary key, note text not null, amount bigint)');
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps int8 as strings, dates as dates, and answers rows in order', async () => {
    const rows = await sql<{ big: string; at: Date; n: number }>`
      select 9007199254740993::bigint as big, timestamptz '2026-11-23T00:00:00Z' as at, 7 as n`.execute(
      database.db,
    );
    expect(rows.rows[0]).toEqual({ big: '9007199254740993', at: new Date('2026-11-23T00:00:00Z'), n: 7 });
  });

  it('passes the database error fields (code, constraint) through the thread', async () => {
    await database.db
      .insertInto('t' as never)
      .values({ id: 1, note: 'a' } as never)
      .execute();
    const error = await database.db
      .insertInto('t' as never)
      .values({ id: 1, note: 'b' } as never)
      .execute()
      .catch((e: unknown) => e as { code?: string; constraint?: string; message: string });
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((error as Error).message).toContain('duplicate key');
  });

  it('never runs another caller’s statement inside an open transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let outsideDone = false;
    const transaction = database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('t' as never)
        .values({ id: 10, note: 'in transaction' } as never)
        .execute();
      await held;
      // Rolled back: the statement sent meanwhile by another caller must not go with it.
      throw new Error('roll back');
    });
    // Give the transaction time to begin, then write from outside while it is open.
    await new Promise((r) => setTimeout(r, 50));
    const outside = database.db
      .insertInto('t' as never)
      .values({ id: 11, note: 'outside' } as never)
      .execute()
      .then(() => {
        outsideDone = true;
      });
    await new Promise((r) => setTimeout(r, 100));
    expect(outsideDone).toBe(false);
    release();
    await expect(transaction).rejects.toThrow('roll back');
    await outside;
    const ids = await database.db
      .selectFrom('t' as never)
      .select('id' as never)
      .orderBy('id' as never)
      .execute();
    expect(ids.map((r) => (r as { id: number }).id)).toEqual([1, 11]);
  });

  it('pipelines single statements from many callers without losing any', async () => {
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        database.db
          .insertInto('t' as never)
          .values({ id: 100 + i, note: `n${i}`, amount: String(10n ** 15n + BigInt(i)) } as never)
          .execute(),
      ),
    );
    const sum = await sql<{ n: string; total: string }>`
      select count(*)::bigint as n, sum(amount)::bigint as total from t where id >= 100`.execute(database.db);
    expect(sum.rows[0]).toEqual({ n: '200', total: String(200n * 10n ** 15n + 19_900n) });
  });

  it('runs a multi-statement text all or nothing', async () => {
    await expect(
      database.exec("insert into t (id, note) values (500, 'x'); insert into t (id, note) values (1, 'dup')"),
    ).rejects.toMatchObject({ code: '23505' });
    const row = await database.db
      .selectFrom('t' as never)
      .selectAll()
      .where('id' as never, '=', 500 as never)
      .execute();
    expect(row).toEqual([]);
  });

  it('keeps its data on disk across a reopen', async () => {
    await database.close();
    database = await openDatabase({ url: undefined, dataDir });
    const count = await sql<{ n: string }>`select count(*)::bigint as n from t`.execute(database.db);
    expect(count.rows[0]?.n).toBe('202');
  });
});
