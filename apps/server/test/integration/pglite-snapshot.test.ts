import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrate';
import { pgliteSnapshotFile } from '../../src/db/pglite-snapshot';

// A new embedded database starts from a snapshot of a migrated cluster (src/db/pglite-snapshot.ts).
const migrations = readMigrations();

async function tableCount(database: TDatabase) {
  return database.withConnection(async (c) =>
    Number((await c.rows<{ n: string }>(`select count(*) as n from schema_migrations`))[0]?.n ?? 0),
  );
}

describe('embedded database snapshot', () => {
  it('is written by the first new database and loaded by the next, migrated and writable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'broker-snapshot-'));
    const file = join(dir, 'snapshots', 'cluster.tar.gz');

    const first = await openDatabase({ url: 'memory://', dataDir: dir, snapshot: file });
    expect(first.origin).toBe('created');
    expect((await migrate(first, migrations)).length).toBe(migrations.length);
    await first.dump?.(file);
    await first.close();

    const second = await openDatabase({ url: 'memory://', dataDir: dir, snapshot: file });
    expect(second.origin).toBe('snapshot');
    // Every migration is in the snapshot: none is applied again.
    expect(await migrate(second, migrations)).toEqual([]);
    expect(await tableCount(second)).toBe(migrations.length);
    await second.exec(`insert into schema_migrations (version, name) values (9999, 'written after load')`);
    expect(await tableCount(second)).toBe(migrations.length + 1);
    await second.close();

    // A data folder: a new one loads the snapshot, and opening it again finds it as it was left.
    const folder = mkdtempSync(join(tmpdir(), 'broker-snapshot-dir-'));
    const onDisk = await openDatabase({ url: undefined, dataDir: folder, snapshot: file });
    expect(onDisk.origin).toBe('snapshot');
    await onDisk.exec(`insert into schema_migrations (version, name) values (9998, 'kept on disk')`);
    await onDisk.close();
    const reopened = await openDatabase({ url: undefined, dataDir: folder, snapshot: file });
    expect(reopened.origin).toBe('existing');
    expect(await tableCount(reopened)).toBe(migrations.length + 1);
    await reopened.close();
  }, 60_000);

  it('is passed over when it cannot be read: the cluster is created instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'broker-snapshot-bad-'));
    const file = join(dir, 'broken.tar.gz');
    writeFileSync(file, 'not a tarball');
    const database = await openDatabase({ url: undefined, dataDir: dir, snapshot: file });
    expect(database.origin).toBe('created');
    expect((await migrate(database, migrations)).length).toBe(migrations.length);
    await database.close();
  }, 60_000);

  it('is named by the PGlite version and the migrations, so a changed migration never loads a stale one', () => {
    const file = pgliteSnapshotFile(migrations);
    expect(file).toMatch(/broker-pglite-snapshots[/\\][0-9a-f]{24}\.tar\.gz$/);
    const changed = migrations.map((m, i) =>
      i === migrations.length - 1 ? { ...m, sql: `${m.sql}\n-- changed` } : m,
    );
    expect(pgliteSnapshotFile(changed)).not.toBe(file);
    expect(pgliteSnapshotFile(migrations)).toBe(file);
  });
});
