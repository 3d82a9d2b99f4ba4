// The database worker thread's reply protocol (pglite-worker.mjs), kept apart from the database
// code. Plain JavaScript so that it loads without a TypeScript loader.
import { parentPort } from 'node:worker_threads';

/** A database error as plain data: message plus its primitive fields (code, constraint, detail…). */
export function plainError(error) {
  const out = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object')
    for (const [key, value] of Object.entries(error))
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  return out;
}

const decoder = new TextDecoder();

/**
 * Answers each message { id, op, text | bytes, params } with { id, ok: true, ...result } or
 * { id, ok: false, error }; a long text arrives as transferred UTF-8 bytes.
 */
export function serve(handle) {
  parentPort.on('message', (message) => {
    if (message.bytes) message.text = decoder.decode(message.bytes);
    handle(message).then(
      (result) => parentPort.postMessage({ id: message.id, ok: true, ...result }),
      (error) => parentPort.postMessage({ id: message.id, ok: false, error: plainError(error) }),
    );
  });
}

/** The ready message (id 0), or the error that kept the worker from starting. */
export function ready(error) {
  parentPort.postMessage(
    error === undefined ? { id: 0, ok: true } : { id: 0, ok: false, error: plainError(error) },
  );
}
