// The embedded PostgreSQL (PGlite) in its own worker thread: its WebAssembly runs here, off the
// server's event loop. Plain JavaScript so that it loads without a TypeScript loader (tsx, vitest).
// Protocol: { id, op: 'query' | 'exec' | 'close', text (or UTF-8 bytes), params } -> { id, ok, rows, affectedRows }
// or { id, ok: false, error: { message, ...fields } }.
import { workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { ready, serve } from './db-worker-common.mjs';

const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const keep = (v) => v;

const client = new PGlite(workerData.dataDir ?? undefined, {
  parsers: { [PG_INT8]: keep, [PG_NUMERIC]: keep },
});

async function handle(message) {
  switch (message.op) {
    case 'query': {
      const result = await client.query(message.text, message.params ?? []);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    }
    case 'exec':
      await client.exec(message.text);
      return {};
    case 'close':
      await client.close();
      return {};
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

client.waitReady.then(() => ready(), ready);

serve(handle);
