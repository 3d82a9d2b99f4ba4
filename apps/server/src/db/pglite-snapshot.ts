import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TMigrationFile } from './migrate';

/**
 * A new embedded database starts from a snapshot of a freshly created and migrated cluster instead
 * of creating one (PGlite's initdb) and running every migration: 0.85 s and 0.2 s on the CI machine
 * against 0.4 s to load the snapshot (ADR 008's thread, docs/operations.md). The first new database
 * of a given PGlite version and set of migrations writes the snapshot (gzip, about 4.5 MB) to the
 * system's temporary folder; any change to either names another file, so a stale one is never used.
 * Databases that already exist, and PostgreSQL servers, are not concerned.
 */
export function pgliteSnapshotFile(migrations: readonly TMigrationFile[]): string | null {
  const version = pgliteVersion();
  if (!version) return null;
  const hash = createHash('sha256').update(`pglite ${version}\n`);
  for (const file of migrations) hash.update(`${file.version} ${file.name}\n${file.sql}\n`);
  return join(tmpdir(), 'broker-pglite-snapshots', `${hash.digest('hex').slice(0, 24)}.tar.gz`);
}

function pgliteVersion(): string | null {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? null;
    }
  } catch {
    // not resolvable from here: no snapshot
  }
  return null;
}
