/**
 * Whether an error means the database cannot be reached (as opposed to a query it refused): the
 * server answers those -9005 (service unavailable) instead of -9999, in one place (sendError).
 *
 * - network errors of the pg driver: ECONNREFUSED, ECONNRESET, ETIMEDOUT, EHOSTUNREACH, …
 * - SQLSTATE class 08 (connection exception), 57P01..57P03 (admin or crash shutdown, cannot connect
 *   now), 53300 (too many connections), 3D000 (the database no longer exists)
 * - the pg pool's own messages (connection terminated, timeout while connecting, pool ended)
 * - the PGlite worker thread gone or closed (`DatabaseUnavailableError` from pglite-thread.ts)
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    if (typeof current !== 'object') return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The database is gone: its thread ended, or it was closed. */
export class DatabaseUnavailableError extends Error {}

/** A database that cannot be reached when the server starts (a wrong DATABASE_URL, a host down). */
export class DatabaseConnectError extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`cannot connect to ${target} (${reason})`);
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123]|53300|3D000)$/;

const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Client was closed and is not queryable|driver has already been destroyed|database closed$|database thread exited)/;
