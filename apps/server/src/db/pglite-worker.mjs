// The embedded PostgreSQL (PGlite) in its own worker thread: its WebAssembly runs here, off the
// server's event loop. Plain JavaScript so that it loads without a TypeScript loader (tsx, vitest).
// Protocol: { id, op: 'query' | 'exec' | 'close', text (or UTF-8 bytes), params } -> { id, ok, rows, affectedRows }
// or { id, ok: false, error: { message, ...fields } }.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const keep = (v) => v;

const client = new PGlite(workerData.dataDir ?? undefined, {
  parsers: { [PG_INT8]: keep, [PG_NUMERIC]: keep },
});

/** A database error as plain data: message plus its primitive fields (code, constraint, detail…). */
function plainError(error) {
  const out = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object')
    for (const [key, value] of Object.entries(error))
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  return out;
}

const decoder = new TextDecoder();

async function handle(message) {
  if (message.bytes) message.text = decoder.decode(message.bytes);
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

client.waitReady.then(
  () => parentPort.postMessage({ id: 0, ok: true }),
  (error) => parentPort.postMessage({ id: 0, ok: false, error: plainError(error) }),
);

parentPort.on('message', (message) => {
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, ok: true, ...result }),
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: plainError(error) }),
  );
});
