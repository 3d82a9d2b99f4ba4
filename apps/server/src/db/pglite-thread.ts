import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError } from './errors';

// Kept apart from `new Worker(…)`: bundlers (Vite, so vitest) rewrite that pattern into an import.
const PGLITE_WORKER = new URL('./pglite-worker.mjs', import.meta.url);

const encoder = new TextEncoder();

interface TReply {
  id: number;
  ok: boolean;
  rows?: Record<string, unknown>[];
  affectedRows?: number;
  error?: { message: string } & Record<string, unknown>;
}

/**
 * PGlite run in a worker thread (`pglite-worker.mjs`): the same queries and results as an in-thread
 * PGlite, but its WebAssembly no longer takes the server's event loop (ADR 008). Messages: `query`,
 * `exec`, `dump` and `close`, with the database's errors passed back with their fields. The worker keeps
 * the process alive only while a call is waiting for it.
 */
export class PGliteThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(reply: TReply): void; reject(e: Error): void }>();
  private nextId = 1;
  private failure: Error | null = null;
  readonly waitReady: Promise<void>;

  /** `snapshot`: a file written by `dump`, for a new database to start from (./pglite-snapshot.ts). */
  constructor(
    dataDir: string | undefined,
    readonly snapshot?: string,
  ) {
    this.worker = new Worker(PGLITE_WORKER, {
      workerData: { dataDir, snapshot },
      // The worker runs plain JavaScript: no TypeScript loader from the parent. DB_THREAD_CPU_PROF
      // names a directory for CPU profiles of the database threads (a debugging aid).
      execArgv: process.env.DB_THREAD_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.DB_THREAD_CPU_PROF}`]
        : [],
    });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.waiting.set(0, {
        resolve: (reply) => (reply.ok ? resolve() : reject(toError(reply.error))),
        reject,
      });
    });
    this.worker.on('message', (reply: TReply) => {
      const entry = this.waiting.get(reply.id);
      if (!entry) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      entry.resolve(reply);
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const entry of this.waiting.values()) entry.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', (error) =>
      fail(new DatabaseUnavailableError(`database thread failed: ${error.message}`, { cause: error })),
    );
    this.worker.on('exit', (code) => fail(new DatabaseUnavailableError(`database thread exited (${code})`)));
  }

  private call(message: { op: 'query' | 'exec' | 'dump' | 'close'; text?: string; params?: unknown[] }) {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<TReply>((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (reply) => (reply.ok ? resolve(reply) : reject(toError(reply.error))),
        reject,
      });
      if (this.waiting.size === 1) this.worker.ref();
      // A long text (a group commit) goes as UTF-8 bytes whose buffer is handed over, not copied:
      // cloning a long string cost more than the rest of the commit on this side.
      if (message.text && message.text.length > 1024) {
        const bytes = encoder.encode(message.text);
        this.worker.postMessage({ id, op: message.op, bytes, params: message.params }, [bytes.buffer]);
      } else this.worker.postMessage({ id, ...message });
    });
  }

  async query<R = Record<string, unknown>>(
    text: string,
    params: unknown[] = [],
  ): Promise<{ rows: R[]; affectedRows: number }> {
    const reply = await this.call({ op: 'query', text, params });
    return { rows: (reply.rows ?? []) as R[], affectedRows: reply.affectedRows ?? 0 };
  }

  async exec(text: string): Promise<void> {
    await this.call({ op: 'exec', text });
  }

  /** Stops the thread at once (a database that failed to start). */
  async terminate(): Promise<void> {
    this.failure ??= new DatabaseUnavailableError('database closed');
    await this.worker.terminate();
  }

  /** Writes the whole cluster, gzipped, to `file` (a snapshot for new databases to start from). */
  async dump(file: string): Promise<void> {
    await this.call({ op: 'dump', text: file });
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.call({ op: 'close' });
    this.failure = new DatabaseUnavailableError('database closed');
    await this.worker.terminate();
  }
}

/** The worker's error as an Error with the database's fields (code, constraint, detail…). */
function toError(plain: TReply['error']): Error {
  const error = new Error(plain?.message ?? 'database error');
  if (plain)
    for (const [key, value] of Object.entries(plain))
      if (key !== 'message') Object.assign(error, { [key]: value });
  return error;
}
