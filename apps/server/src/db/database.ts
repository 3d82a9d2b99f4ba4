import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { TDatabaseSchema } from './schema';

export type TDb = Kysely<TDatabaseSchema>;

export interface TRawConnection {
  exec(sqlText: string): Promise<void>;
  rows<R = Record<string, unknown>>(sqlText: string): Promise<R[]>;
}

export interface TDatabase {
  db: TDb;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL with several statements (migrations). */
  exec(sqlText: string): Promise<void>;
  /** Runs fn on one pinned connection, for session-scoped work such as advisory locks. */
  withConnection<T>(fn: (connection: TRawConnection) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** A pg-Pool-shaped wrapper over the single PGlite connection; one client at a time. */
function pglitePool(client: PGlite) {
  let queue: Promise<void> = Promise.resolve();
  return {
    async connect() {
      let release!: () => void;
      const previous = queue;
      queue = new Promise<void>((r) => {
        release = r;
      });
      await previous;
      return {
        async query(text: string, params: unknown[]) {
          const result = await client.query<Record<string, unknown>>(text, params);
          const command = text.trimStart().split(/\s/, 1)[0]?.toUpperCase() ?? '';
          return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
        },
        release() {
          release();
        },
      };
    },
    async end() {
      await queue;
    },
  };
}

/** Opens PGlite (on disk, or in memory for memory://) or a PostgreSQL server. */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir: string;
}): Promise<TDatabase> {
  if (options.url && /^postgres(ql)?:\/\//.test(options.url)) {
    pg.types.setTypeParser(PG_INT8, (v) => v);
    pg.types.setTypeParser(PG_NUMERIC, (v) => v);
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server ends (a restart, a dropped database, admin shutdown) must not
    // crash the process: the pool replaces it on the next query, and callers see their own errors.
    let closing = false;
    pool.on('error', (error) => {
      if (!closing) console.warn(`postgres: idle connection lost (${error.message})`);
    });
    const db = new Kysely<TDatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      exec: async (text) => {
        await pool.query(text);
      },
      withConnection: async (fn) => {
        const connection = await pool.connect();
        try {
          return await fn({
            exec: async (text) => {
              await connection.query(text);
            },
            // biome-ignore lint/suspicious/noExplicitAny: rows are typed by the caller
            rows: async (text) => (await connection.query(text)).rows as any[],
          });
        } finally {
          connection.release();
        }
      },
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        closing = true;
        await db.destroy();
      },
    };
  }
  const inMemory = options.url?.startsWith('memory://');
  const dir = resolve(options.dataDir, 'pglite');
  if (!inMemory) mkdirSync(join(dir, '..'), { recursive: true });
  const client = new PGlite(inMemory ? undefined : dir, {
    parsers: { [PG_INT8]: (v: string) => v, [PG_NUMERIC]: (v: string) => v },
  });
  await client.waitReady;
  const pool = pglitePool(client);
  // biome-ignore lint/suspicious/noExplicitAny: the wrapper implements the subset of pg.Pool Kysely uses
  const db = new Kysely<TDatabaseSchema>({ dialect: new PostgresDialect({ pool: pool as any }) });
  let closed = false;
  const withConnection = async <T>(fn: (connection: TRawConnection) => Promise<T>): Promise<T> => {
    const connection = await pool.connect();
    try {
      return await fn({
        exec: async (text) => {
          await client.exec(text);
        },
        // biome-ignore lint/suspicious/noExplicitAny: rows are typed by the caller
        rows: async (text) => (await client.query(text)).rows as any[],
      });
    } finally {
      connection.release();
    }
  };
  return {
    db,
    kind: 'pglite',
    exec: (text) => withConnection((c) => c.exec(text)),
    withConnection,
    ping: async () => {
      if (closed) throw new Error('database closed');
      await sql`select 1`.execute(db);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
      await client.close();
    },
  };
}
