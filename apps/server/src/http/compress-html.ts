import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Below this size compression saves less than it costs (the same threshold as `@fastify/compress`'s). */
const THRESHOLD_BYTES = 1024;

export type THtmlEncoding = 'br' | 'gzip' | 'identity';

/** The encoding to answer with for an `accept-encoding` header: brotli, else gzip, else none (q=0 refuses). */
export function negotiateEncoding(header: string | string[] | undefined): THtmlEncoding {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const accepted = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

/**
 * Compresses a server-rendered page (issue 21, item 14). The portal's pages are rendered in the
 * not-found handler, which `@fastify/compress`'s route hooks do not reach, so they are compressed
 * here: brotli at quality 5 (a 70 KB page in about a millisecond, within a few per cent of quality
 * 11) or gzip at level 6.
 */
export function compressHtml(
  body: string,
  acceptEncoding: string | string[] | undefined,
): { encoding: THtmlEncoding; body: string | Buffer } {
  const encoding = negotiateEncoding(acceptEncoding);
  if (encoding === 'identity' || Buffer.byteLength(body) < THRESHOLD_BYTES)
    return { encoding: 'identity', body };
  if (encoding === 'br') {
    return {
      encoding,
      body: brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
    };
  }
  return { encoding, body: gzipSync(body, { level: 6 }) };
}
