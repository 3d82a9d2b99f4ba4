import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { DatabaseConnectError, DatabaseUnavailableError } from './errors';
import { PGliteThread } from './pglite-thread';
import type { TDatabaseSchema } from './schema';

export type TDb = Kysely<TDatabaseSchema>;

export interface TRawConnection {
  exec(sqlText: string): Promise<void>;
  rows<R = Record<string, unknown>>(sqlText: string): Promise<R[]>;
}

/** A connection of its own, outside the pool, that stays open until closed (the engine lease). */
export interface TSession {
  rows<R = Record<string, unknown>>(sqlText: string, params?: readonly unknown[]): Promise<R[]>;
  /** Called once when the connection ends for any reason (closed, terminated by the server, lost). */
  onEnd(listener: (error: Error | null) => void): void;
  /** Ends the connection at once (the server releases its session-level locks). */
  close(): Promise<void>;
}

export interface TDatabase {
  db: TDb;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL with several statements as one implicit transaction. */
  exec(sqlText: string): Promise<void>;
  /**
   * Runs one statement with text parameters, prepared once per connection under `name` (the text
   * must always be the same for a name). The engine's group commit: one statement, all or nothing.
   */
  run(name: string, sqlText: string, params: readonly string[]): Promise<void>;
  /** Runs fn on one pinned connection, for session-scoped work such as advisory locks. */
  withConnection<T>(fn: (connection: TRawConnection) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL server only: opens a session of its own, outside the pool, named `applicationName`
   * in pg_stat_activity. PGlite has one session, inside this process, and none to give.
   */
  session?(applicationName: string): Promise<TSession>;
  /**
   * Embedded PGlite only: how this database came to be — `created` (a new cluster), `snapshot` (a new
   * cluster loaded from a snapshot, ./pglite-snapshot.ts) or `existing` (a data folder in use).
   */
  origin?: 'created' | 'snapshot' | 'existing';
  /** Embedded PGlite only: writes the cluster, gzipped, to `file` for new databases to start from. */
  dump?(file: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|rollback|end|abort)\s*;?\s*$/i;

/**
 * A pg-Pool-shaped wrapper over the single PGlite session. Statements from any number of callers are
 * pipelined to the database thread, which runs them one at a time in arrival order. A transaction
 * (`begin` … `commit`/`rollback`) or a pinned connection holds the session alone from its first
 * statement: everyone else's next statement waits until it ends, so nothing runs inside another
 * caller's transaction.
 */
function pglitePool(client: PGliteThread) {
  let owner: object | null = null;
  let endOfOwner: (() => void) | null = null;
  /** Settles when the last owner that asked for the session has ended. */
  let tail: Promise<void> = Promise.resolve();
  const acquire = async (me: object) => {
    const previous = tail;
    let end!: () => void;
    tail = new Promise<void>((resolve) => {
      end = resolve;
    });
    await previous;
    owner = me;
    endOfOwner = end;
  };
  const release = (me: object) => {
    if (owner !== me) return;
    owner = null;
    const end = endOfOwner;
    endOfOwner = null;
    end?.();
  };
  /**
   * Whether someone else holds the session. Callers wait with `while (held(me)) await pool.tail()`
   * written at the call site, so that the last check and the send to the thread happen in the same
   * synchronous step: an await between them would let another caller's `begin` slip in between.
   */
  const held = (me: object | null) => owner !== null && owner !== me;
  return {
    acquire,
    release,
    held,
    tail: () => tail,
    async connect() {
      const me = {};
      return {
        async query(text: string, params: unknown[]) {
          if (owner !== me && BEGIN.test(text)) await acquire(me);
          else while (held(me)) await tail;
          try {
            // Sent in the same synchronous step as the check above.
            const result = await client.query<Record<string, unknown>>(text, params);
            const command = text.trimStart().split(/\s/, 1)[0]?.toUpperCase() ?? '';
            return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
          } finally {
            if (END.test(text)) release(me);
          }
        },
        release() {
          release(me);
        },
      };
    },
    async end() {
      await tail;
    },
  };
}

/**
 * One connection to the server before the pool is made, with a time limit: a wrong port, host or
 * database name fails the start at once with DatabaseConnectError (main.ts: one line, exit 78)
 * instead of a stack trace, or a hang until the system's TCP timeout.
 */
async function probeServer(url: string) {
  const parsed = new URL(url);
  const target = `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname}`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const text = String(message ?? error).split('\n', 1)[0] ?? '';
    const reason =
      typeof code === 'string' && /^E[A-Z_]+$/.test(code)
        ? code
        : typeof code === 'string'
          ? `${code} ${text}`
          : text || 'no answer';
    throw new DatabaseConnectError(target, reason);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether a DATABASE_URL names a PostgreSQL server (else the embedded PGlite). */
export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/** Opens PGlite (on disk, or in memory for memory://) or a PostgreSQL server. */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir: string;
  /** A snapshot file a new embedded database starts from when it exists (./pglite-snapshot.ts). */
  snapshot?: string | null;
}): Promise<TDatabase> {
  if (options.url && isPostgresUrl(options.url)) {
    pg.types.setTypeParser(PG_INT8, (v) => v);
    pg.types.setTypeParser(PG_NUMERIC, (v) => v);
    await probeServer(options.url);
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
      run: async (name, text, params) => {
        await pool.query({ name, text, values: params as string[] });
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
      session: async (applicationName) => {
        const client = new pg.Client({
          connectionString: options.url,
          application_name: applicationName,
          connectionTimeoutMillis: 10_000,
          keepAlive: true,
          keepAliveInitialDelayMillis: 5_000,
        });
        let ended = false;
        let endError: Error | null = null;
        const listeners: ((error: Error | null) => void)[] = [];
        const end = (error: Error | null) => {
          if (ended) return;
          ended = true;
          endError = error;
          for (const listener of listeners.splice(0)) listener(error);
        };
        // A session the server ends (terminated, database dropped, server restart) must not crash
        // the process: its owner hears of it through onEnd.
        client.on('error', (error) => end(error));
        client.on('end', () => end(null));
        await client.connect();
        return {
          // biome-ignore lint/suspicious/noExplicitAny: rows are typed by the caller
          rows: async (text, params) => (await client.query(text, params as any[])).rows as any[],
          onEnd: (listener) => {
            if (ended) listener(endError);
            else listeners.push(listener);
          },
          close: async () => {
            end(null);
            // A server that no longer answers (a partition) would keep end() waiting: the socket
            // goes after 2 s regardless.
            const closing = client.end().catch(() => undefined);
            const timer = setTimeout(() => {
              (
                client as unknown as { connection?: { stream?: { destroy(): void } } }
              ).connection?.stream?.destroy();
            }, 2_000);
            await closing;
            clearTimeout(timer);
          },
        };
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
  const created = inMemory || !existsSync(join(dir, 'PG_VERSION'));
  const snapshot = created && options.snapshot && existsSync(options.snapshot) ? options.snapshot : undefined;
  // int8 and numeric stay strings (money is never a float): the thread sets those parsers.
  let client = new PGliteThread(inMemory ? undefined : dir, snapshot);
  try {
    await client.waitReady;
  } catch (error) {
    if (!snapshot) throw error;
    // An unreadable snapshot (cut short, another version): the new cluster is created instead.
    await client.terminate();
    if (!inMemory) rmSync(dir, { recursive: true, force: true });
    client = new PGliteThread(inMemory ? undefined : dir);
    await client.waitReady;
  }
  const origin = !created ? 'existing' : snapshot && client.snapshot ? 'snapshot' : 'created';
  const pool = pglitePool(client);
  // biome-ignore lint/suspicious/noExplicitAny: the wrapper implements the subset of pg.Pool Kysely uses
  const db = new Kysely<TDatabaseSchema>({ dialect: new PostgresDialect({ pool: pool as any }) });
  let closed = false;
  const prepared = new Map<string, string>();
  let preparations = 0;
  const withConnection = async <T>(fn: (connection: TRawConnection) => Promise<T>): Promise<T> => {
    const me = {};
    await pool.acquire(me);
    try {
      return await fn({
        exec: async (text) => {
          await client.exec(text);
        },
        // biome-ignore lint/suspicious/noExplicitAny: rows are typed by the caller
        rows: async (text) => (await client.query(text)).rows as any[],
      });
    } finally {
      pool.release(me);
    }
  };
  return {
    db,
    kind: 'pglite',
    origin,
    dump: (file) => client.dump(file),
    // One message to the thread runs all its statements as one implicit transaction: it needs no
    // hold on the session, only that no one else's transaction is open.
    exec: async (text) => {
      while (pool.held(null)) await pool.tail();
      await client.exec(text);
    },
    // PGlite keeps no named statements of the wire protocol: the statement is prepared with SQL
    // (PREPARE, in the same message as its first EXECUTE) and run with EXECUTE and literals.
    run: async (name, text, params) => {
      let handle = prepared.get(name);
      let prepare = '';
      if (!handle) {
        // A fresh handle for every attempt: a PREPARE that ran before a failure stays behind.
        handle = `${name}_${++preparations}`;
        prepare = `prepare ${handle} as ${text};\n`;
      }
      const args = params.map((p) => `'${p.replace(/'/g, "''")}'`).join(', ');
      while (pool.held(null)) await pool.tail();
      await client.exec(`${prepare}execute ${handle}(${args})`);
      prepared.set(name, handle);
    },
    withConnection,
    ping: async () => {
      if (closed) throw new DatabaseUnavailableError('database closed');
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
