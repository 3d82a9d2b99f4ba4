// The embedded PostgreSQL (PGlite) in its own worker thread: its WebAssembly runs here, off the
// server's event loop. Plain JavaScript so that it loads without a TypeScript loader (tsx, vitest).
// Protocol: { id, op: 'query' | 'exec' | 'dump' | 'close', text (or UTF-8 bytes), params } -> { id, ok, rows,
// affectedRows } or { id, ok: false, error: { message, ...fields } }. `dump` writes the cluster, gzipped,
// to the file named by `text`; `workerData.snapshot` names such a file to start a new database from.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { threadId, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { ready, serve } from './db-worker-common.mjs';

const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const keep = (v) => v;

// One options object, the folder in it: PGlite reads its second argument only when the first is a
// folder, so an in-memory database given (undefined, options) silently lost the parsers.
const client = new PGlite({
  ...(workerData.dataDir ? { dataDir: workerData.dataDir } : {}),
  parsers: { [PG_INT8]: keep, [PG_NUMERIC]: keep },
  ...(workerData.snapshot ? { loadDataDir: new Blob([readFileSync(workerData.snapshot)]) } : {}),
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
    case 'dump': {
      // Everything committed is written to the cluster's files first: the tarball is those files.
      await client.exec('checkpoint');
      const file = await client.dumpDataDir('gzip');
      const bytes = new Uint8Array(await file.arrayBuffer());
      // Written aside and renamed: a reader never sees half a file, and concurrent writers of the same
      // snapshot each put a whole one in place.
      const temporary = `${message.text}.${process.pid}.${threadId}.tmp`;
      mkdirSync(dirname(message.text), { recursive: true });
      writeFileSync(temporary, bytes);
      renameSync(temporary, message.text);
      return {};
    }
    case 'close':
      await client.close();
      return {};
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

client.waitReady.then(() => ready(), ready);

serve(handle);
