// One PostgreSQL connection in its own worker thread, for the trading engine's group commits: the
// socket writes and reads of a commit run here, off the server's event loop. Plain JavaScript so
// that it loads without a TypeScript loader (tsx, vitest).
// Protocol: { id, op: 'exec' | 'close', text (or UTF-8 bytes) } -> { id, ok } or
// { id, ok: false, error: { message, ...fields } }. Ready ({ id: 0, ok: true }) at once: the
// connection is opened on the first exec, and opened again after it is lost.
import { workerData } from 'node:worker_threads';
import pg from 'pg';
import { ready, serve } from './db-worker-common.mjs';

/** @type {pg.Client | null} */
let client = null;
/** @type {Promise<pg.Client> | null} */
let opening = null;

function connection() {
  if (client) return Promise.resolve(client);
  if (!opening) {
    const next = new pg.Client({ connectionString: workerData.url });
    // A lost connection (server restart, terminated backend) is dropped here; the next exec opens
    // a new one, and the exec in flight gets its own error.
    next.on('error', () => {
      if (client === next) client = null;
      next.end().catch(() => undefined);
    });
    opening = next.connect().then(
      () => {
        opening = null;
        client = next;
        return next;
      },
      (error) => {
        opening = null;
        throw error;
      },
    );
  }
  return opening;
}

async function handle(message) {
  switch (message.op) {
    case 'exec': {
      const c = await connection();
      try {
        await c.query(message.text);
      } catch (error) {
        // An error without a SQLSTATE is the connection's, not the statement's: start afresh.
        if (!/^[0-9A-Z]{5}$/.test(String(error?.code ?? ''))) {
          if (client === c) client = null;
          c.end().catch(() => undefined);
        }
        throw error;
      }
      return {};
    }
    case 'close': {
      const c = client;
      client = null;
      if (c) await c.end();
      return {};
    }
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

ready();
serve(handle);
