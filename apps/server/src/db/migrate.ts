import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TDatabase } from './database';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../migrations');
const MIGRATION_LOCK_ID = 7_340_021;

export interface TMigrationFile {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): TMigrationFile[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file.slice(0, 3), 10),
      name: file.slice(4, -4),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

/**
 * Applies the numbered SQL migrations that are not yet applied, each in its own transaction.
 * On a PostgreSQL server an advisory lock keeps several starting instances from racing.
 */
export async function migrate(database: TDatabase, files = readMigrations()): Promise<number[]> {
  return database.withConnection(async (connection) => {
    await connection.exec(`create table if not exists schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`);
    const lock = database.kind === 'postgres';
    if (lock) await connection.exec(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      const done = new Set(
        (await connection.rows<{ version: number }>('select version from schema_migrations')).map(
          (r) => r.version,
        ),
      );
      const applied: number[] = [];
      for (const file of files) {
        if (done.has(file.version)) continue;
        const name = file.name.replace(/'/g, "''");
        try {
          await connection.exec(
            `begin;\n${file.sql}\n;insert into schema_migrations (version, name) values (${file.version}, '${name}');\ncommit;`,
          );
        } catch (error) {
          await connection.exec('rollback').catch(() => undefined);
          throw new Error(`Migration ${file.version}_${file.name} failed: ${String(error)}`);
        }
        applied.push(file.version);
      }
      return applied;
    } finally {
      if (lock) await connection.exec(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    }
  });
}
