import { CSRF_COOKIE, CSRF_HEADER, type TEnvelope } from '@broker/contracts/envelope';
import { readCookie } from './cookies';

/**
 * Resumable chunked uploads (spec 7.2 `golbal/upload` and `golbal/merge`):
 *
 * - `POST /api/v1/account/golbal/upload?purpose=<p>&uploadId=<uuid>&index=<i>&total=<n>` with one
 *   chunk (at most 1 MiB) as the raw body; sending a chunk twice is harmless.
 * - `GET /api/v1/account/golbal/upload?uploadId=<uuid>`: the chunks the server already has, so an
 *   upload resumes after a dropped connection or a reload.
 * - `POST /api/v1/account/golbal/merge` `{ uploadId, total, purpose }`: joins the chunks in order;
 *   the server types the file by its content, applies the purpose's limit and answers the file id.
 *
 * Every call carries the session's CSRF token, like the gateway calls of `http.ts`.
 */

export type TChunkedPurpose = 'kyc' | 'feedback' | 'avatar';

export interface TUploadedFile {
  id: string;
  mime: string;
  bytes: number;
}

export interface TUploadOptions {
  purpose: TChunkedPurpose;
  /** Fraction (0 to 1) of the file's bytes sent; 1 once the server has the whole file. */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
  /** Chunk size in bytes; the server takes at most 1 MiB. */
  chunkBytes?: number;
  /** The language of error messages (the LanguageCode header); default: the page's language. */
  lang?: string;
  /** For tests: the fetch to use and how to wait between retries. */
  fetch?: typeof fetch;
  sleep?(ms: number): Promise<void>;
  /** Where an unfinished upload's id is kept so a reload resumes it; default: localStorage. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

/** The server's largest chunk. */
export const MAX_CHUNK_BYTES = 1024 * 1024;
const UPLOAD_PATH = '/api/v1/account/golbal/upload';
const MERGE_PATH = '/api/v1/account/golbal/merge';
/** Attempts per request before giving up; the waits between them double from 500 ms (to 8 s). */
const ATTEMPTS = 6;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** Result codes the client acts on (see @broker/domain/result-codes). */
const RATE_LIMITED = -9003;
const UPLOAD_INCOMPLETE = -9101;
const UPLOAD_BUSY = -9102;
const SERVICE_UNAVAILABLE = -9005;

/**
 * A failed upload. `messageKey` is a translation key: the server's (`errors.-9006` too large,
 * `errors.-9007` wrong type, ...) or `errors.network` when the server could not be reached.
 */
export class UploadError extends Error {
  constructor(
    readonly code: number,
    readonly messageKey: string,
    message: string,
    readonly details?: Record<string, string>,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** A failure worth retrying: no answer, a 5xx, a rate limit or a merge still running. */
class Transient extends Error {}

interface TChunkState {
  total: number | null;
  received: number[];
  fileId: string | null;
}

function uuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function defaultStorage(): TUploadOptions['storage'] {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy mode)
  }
}

/** A key naming this file for this purpose, so a reload finds the unfinished upload of the same file. */
function resumeKey(file: File | Blob, purpose: string, chunkBytes: number): string | null {
  if (!('name' in file) || !('lastModified' in file)) return null;
  return `upload:${purpose}:${chunkBytes}:${file.size}:${file.lastModified}:${file.name}`;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The upload was aborted.', 'AbortError');
}

/**
 * Uploads a file in chunks and answers the stored file. A chunk that fails (no answer, 5xx, rate
 * limit) is retried with back-off after asking the server which chunks it has; a refusal (type,
 * size, session) throws an UploadError at once; an abort throws the signal's reason (AbortError)
 * and keeps the upload resumable. Progress counts the bytes sent, as the browser reports them
 * while a chunk goes (XMLHttpRequest), and never goes back.
 */
export async function uploadFile(file: File | Blob, opts: TUploadOptions): Promise<TUploadedFile> {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  // In the browser chunks go through XMLHttpRequest for byte progress; a given fetch (tests) is used as is.
  const useXhr = !opts.fetch && typeof XMLHttpRequest !== 'undefined';
  const sleep = opts.sleep ?? defaultSleep;
  const chunkBytes = Math.max(1, Math.min(opts.chunkBytes ?? MAX_CHUNK_BYTES, MAX_CHUNK_BYTES));
  const total = Math.max(1, Math.ceil(file.size / chunkBytes));
  const storage = opts.storage === undefined ? defaultStorage() : opts.storage;
  const key = resumeKey(file, opts.purpose, chunkBytes);
  const resumed = key ? storage?.getItem(key) : null;
  let uploadId = resumed && /^[0-9a-f-]{36}$/.test(resumed) ? resumed : uuid();
  if (key && uploadId !== resumed) storage?.setItem(key, uploadId);
  const signal = opts.signal;
  const lang = opts.lang ?? (typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en');

  const headers = (extra: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = { LanguageCode: lang, ...extra };
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) out[CSRF_HEADER] = csrf;
    return out;
  };

  /** The answer of one request: its status and envelope (null when the body was not one). */
  type TAnswer<T> = { status: number; envelope: TEnvelope<T> | null };

  const viaFetch = async <T>(url: string, init: RequestInit): Promise<TAnswer<T>> => {
    let response: Response;
    try {
      response = await doFetch(url, { ...init, credentials: 'same-origin', ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      throw new Transient(String(error));
    }
    try {
      return { status: response.status, envelope: (await response.json()) as TEnvelope<T> };
    } catch {
      if (signal?.aborted) throw abortError(signal);
      return { status: response.status, envelope: null };
    }
  };

  /** A chunk through XMLHttpRequest, the one API that reports the bytes sent while sending. */
  const viaXhr = <T>(
    url: string,
    sendHeaders: Record<string, string>,
    body: Blob,
    onBytes: (sent: number) => void,
  ): Promise<TAnswer<T>> =>
    new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('POST', url);
      for (const [name, value] of Object.entries(sendHeaders)) request.setRequestHeader(name, value);
      request.responseType = 'json';
      request.upload.onprogress = (event) => onBytes(event.loaded);
      request.onload = () => {
        const envelope = request.response as TEnvelope<T> | null;
        resolve({
          status: request.status,
          envelope: envelope && typeof envelope === 'object' ? envelope : null,
        });
      };
      request.onerror = () => reject(new Transient('network error'));
      request.ontimeout = () => reject(new Transient('timeout'));
      request.onabort = () => reject(signal ? abortError(signal) : new Transient('aborted'));
      signal?.addEventListener('abort', () => request.abort(), { once: true });
      request.send(body);
    });

  /** The envelope's data, or Transient (worth retrying) or UploadError (a refusal). */
  const unwrap = <T>({ status, envelope }: TAnswer<T>): T => {
    if (!envelope) throw new Transient(`HTTP ${status}`);
    if (envelope.success) return envelope.data;
    const code = envelope.errorCode;
    if (status >= 500 || code === RATE_LIMITED || code === SERVICE_UNAVAILABLE || code === UPLOAD_BUSY)
      throw new Transient(`${code}`);
    throw new UploadError(code, envelope.messageKey ?? `errors.${code}`, envelope.message, envelope.fields);
  };

  const call = async <T>(url: string, init: RequestInit): Promise<T> => {
    signal?.throwIfAborted();
    return unwrap(await viaFetch<T>(url, init));
  };

  /** Runs `attempt` until it succeeds, waiting longer after each transient failure. */
  const withRetries = async <T>(attempt: (retry: number) => Promise<T>): Promise<T> => {
    let wait = FIRST_BACKOFF_MS;
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(retry);
      } catch (error) {
        if (!(error instanceof Transient)) throw error;
        if (retry + 1 >= ATTEMPTS)
          throw new UploadError(0, 'errors.network', 'The server could not be reached.');
        await sleep(wait);
        signal?.throwIfAborted();
        wait = Math.min(wait * 2, MAX_BACKOFF_MS);
      }
    }
  };

  const query = (params: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

  const askState = () =>
    call<TChunkState>(`${UPLOAD_PATH}?${query({ uploadId })}`, { method: 'GET', headers: headers({}) });

  const sizeOf = (index: number) => Math.min(chunkBytes, file.size - index * chunkBytes);
  const have = new Set<number>();
  /** Bytes of the chunk on its way, before the server confirmed it. */
  let sending = 0;
  let reported = -1;
  const report = () => {
    let bytes = sending;
    for (const index of have) bytes += sizeOf(index);
    const fraction = file.size === 0 ? 1 : Math.min(1, bytes / file.size);
    // A resent chunk starts again from 0: the bar does not go back.
    if (fraction <= reported) return;
    reported = fraction;
    opts.onProgress?.(fraction);
  };

  const sendChunk = (index: number) =>
    withRetries(async (retry) => {
      // After a failure the chunk may have arrived all the same: ask before sending it again.
      if (retry > 0) {
        const state = await askState();
        if (state.received.includes(index)) return;
      }
      const body = file.slice(index * chunkBytes, index * chunkBytes + sizeOf(index));
      const url = `${UPLOAD_PATH}?${query({ purpose: opts.purpose, uploadId, index, total })}`;
      const sendHeaders = headers({ 'content-type': 'application/octet-stream' });
      signal?.throwIfAborted();
      try {
        if (useXhr)
          unwrap(
            await viaXhr(url, sendHeaders, body, (sent) => {
              sending = Math.min(sent, body.size);
              report();
            }),
          );
        else await call(url, { method: 'POST', headers: sendHeaders, body });
      } finally {
        sending = 0;
      }
    });

  const merge = () =>
    withRetries(() =>
      call<{ id: string; mime: string; size: number }>(MERGE_PATH, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({ uploadId, total, purpose: opts.purpose }),
      }),
    );

  try {
    if (uploadId === resumed) {
      const state = await withRetries(askState);
      if (state.fileId !== null) for (let index = 0; index < total; index++) have.add(index);
      else if (state.total === null || state.total === total)
        for (const index of state.received)
          if (index < total) have.add(index);
          else {
            // Started with another chunking: begin again under a new id.
            uploadId = uuid();
            if (key) storage?.setItem(key, uploadId);
          }
    }
    report();
    for (let index = 0; index < total; index++) {
      if (have.has(index)) continue;
      await sendChunk(index);
      have.add(index);
      report();
    }
    let stored: { id: string; mime: string; size: number };
    try {
      stored = await merge();
    } catch (error) {
      // The server lost a chunk (an abandoned upload cleaned meanwhile): send what it lacks, once.
      if (!(error instanceof UploadError) || error.code !== UPLOAD_INCOMPLETE) throw error;
      const state = await withRetries(askState);
      const received = new Set(state.received);
      for (let index = 0; index < total; index++) if (!received.has(index)) await sendChunk(index);
      stored = await merge();
    }
    if (key) storage?.removeItem(key);
    report();
    return { id: stored.id, mime: stored.mime, bytes: stored.size };
  } catch (error) {
    // A refused file will not get better by resuming: forget its id.
    if (key && error instanceof UploadError && error.code !== 0) storage?.removeItem(key);
    throw error;
  }
}
