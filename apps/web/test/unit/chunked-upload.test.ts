import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadError, uploadFile } from '../../src/lib/chunked-upload';

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, success: true, data, errorCode: 200, message: 'OK' }), {
    status: 200,
  });
const fail = (status: number, errorCode: number) =>
  new Response(
    JSON.stringify({
      code: errorCode,
      success: false,
      data: null,
      errorCode,
      message: `error ${errorCode}`,
      messageKey: `errors.${errorCode}`,
    }),
    { status },
  );

/** The server's protocol in memory, with faults to inject: drop a chunk's request, answer 503 once. */
function fakeServer(faults: { dropOnce?: number[]; lostAnswerOnce?: number[]; refuseMerge?: number } = {}) {
  const chunks = new Map<number, Uint8Array>();
  const posts: number[] = [];
  const headers: Record<string, string>[] = [];
  let total: number | null = null;
  let fileId: string | null = null;
  const dropOnce = new Set(faults.dropOnce ?? []);
  const lostAnswerOnce = new Set(faults.lostAnswerOnce ?? []);
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://local');
    headers.push((init?.headers ?? {}) as Record<string, string>);
    if (url.pathname === '/api/v1/account/golbal/upload' && init?.method === 'GET')
      return ok({ total, received: [...chunks.keys()].sort((a, b) => a - b), fileId });
    if (url.pathname === '/api/v1/account/golbal/upload') {
      const index = Number(url.searchParams.get('index'));
      posts.push(index);
      if (dropOnce.delete(index)) throw new TypeError('Failed to fetch');
      total = Number(url.searchParams.get('total'));
      chunks.set(index, new Uint8Array(await new Response(init?.body ?? null).arrayBuffer()));
      if (lostAnswerOnce.delete(index)) throw new TypeError('network connection was lost');
      return ok({ uploadId: url.searchParams.get('uploadId'), index, received: chunks.size, total });
    }
    if (url.pathname === '/api/v1/account/golbal/merge') {
      if (faults.refuseMerge) return fail(415, faults.refuseMerge);
      const body = JSON.parse(String(init?.body)) as { total: number };
      const parts = Array.from({ length: body.total }, (_, i) => chunks.get(i) ?? new Uint8Array());
      const size = parts.reduce((sum, part) => sum + part.length, 0);
      fileId = 'f1';
      return ok({ id: fileId, mime: 'video/mp4', size, url: '/files/f1', joined: parts });
    }
    return fail(404, -9002);
  }) as typeof fetch;
  return { fetchImpl, chunks, posts, headers };
}

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const noWait = async () => {};

describe('chunked upload', () => {
  beforeEach(() => {
    vi.stubGlobal('document', { cookie: 'csrf=token-1', documentElement: { lang: 'ja' } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the file in ordered chunks with the CSRF token and answers the stored file', async () => {
    const server = fakeServer();
    const progress: number[] = [];
    const file = new Blob([bytes(2500)]);
    const stored = await uploadFile(file, {
      purpose: 'kyc',
      chunkBytes: 1000,
      fetch: server.fetchImpl,
      storage: null,
      onProgress: (f) => progress.push(f),
    });
    expect(stored).toEqual({ id: 'f1', mime: 'video/mp4', bytes: 2500 });
    expect(server.posts).toEqual([0, 1, 2]);
    expect([...(server.chunks.get(2) ?? [])]).toEqual([...bytes(2500).slice(2000)]);
    expect(progress).toEqual([0, 0.4, 0.8, 1]);
    for (const h of server.headers) {
      expect(h['x-csrf-token']).toBe('token-1');
      expect(h.LanguageCode).toBe('ja');
    }
  });

  it('reports the bytes of a chunk while it is sent, through XMLHttpRequest in the browser', async () => {
    const sent: { url: string; headers: Record<string, string>; size: number }[] = [];
    class FakeXhr {
      static DONE = 4;
      status = 0;
      response: unknown = null;
      responseType = '';
      upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      ontimeout: (() => void) | null = null;
      onabort: (() => void) | null = null;
      private url = '';
      private headers: Record<string, string> = {};
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      abort() {}
      send(body: Blob) {
        sent.push({ url: this.url, headers: this.headers, size: body.size });
        setTimeout(() => {
          this.upload.onprogress?.({ loaded: body.size / 2 });
          this.upload.onprogress?.({ loaded: body.size });
          this.status = 200;
          this.response = { code: 200, success: true, data: {}, errorCode: 200, message: 'OK' };
          this.onload?.();
        }, 1);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const merged = ok({ id: 'f2', mime: 'image/png', size: 2000 });
    vi.stubGlobal('fetch', async () => merged.clone());
    const progress: number[] = [];
    const stored = await uploadFile(new Blob([bytes(2000)]), {
      purpose: 'kyc',
      chunkBytes: 1000,
      storage: null,
      onProgress: (f) => progress.push(f),
    });
    expect(stored).toEqual({ id: 'f2', mime: 'image/png', bytes: 2000 });
    expect(progress).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(sent.map((r) => r.size)).toEqual([1000, 1000]);
    expect(sent[0]?.url).toMatch(/purpose=kyc&uploadId=[0-9a-f-]{36}&index=0&total=2$/);
    expect(sent[0]?.headers['x-csrf-token']).toBe('token-1');
  });

  it('retries a dropped chunk with back-off and does not resend one the server already has', async () => {
    const server = fakeServer({ dropOnce: [1], lostAnswerOnce: [2] });
    const waits: number[] = [];
    const stored = await uploadFile(new Blob([bytes(4000)]), {
      purpose: 'kyc',
      chunkBytes: 1000,
      fetch: server.fetchImpl,
      storage: null,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(stored.bytes).toBe(4000);
    // Chunk 1 was sent again; chunk 2 reached the server before the connection dropped: not resent.
    expect(server.posts).toEqual([0, 1, 1, 2, 3]);
    expect(waits).toEqual([500, 500]);
  });

  it('resumes an unfinished upload of the same file after a reload', async () => {
    const server = fakeServer();
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    let failing = true;
    const flaky = (async (input: string | URL | Request, init?: RequestInit) => {
      if (failing && String(input).includes('index=2')) throw new TypeError('offline');
      return server.fetchImpl(input, init);
    }) as typeof fetch;
    const file = new File([bytes(3000)], 'selfie.mp4', { lastModified: 1 });
    const first = uploadFile(file, {
      purpose: 'kyc',
      chunkBytes: 1000,
      fetch: flaky,
      storage,
      sleep: noWait,
    });
    await expect(first).rejects.toMatchObject({ messageKey: 'errors.network' });
    expect(store.size).toBe(1);
    failing = false;
    const progress: number[] = [];
    const stored = await uploadFile(file, {
      purpose: 'kyc',
      chunkBytes: 1000,
      fetch: flaky,
      storage,
      sleep: noWait,
      onProgress: (f) => progress.push(f),
    });
    expect(stored.bytes).toBe(3000);
    expect(progress[0]).toBeCloseTo(2 / 3);
    expect(server.posts.filter((i) => i === 0)).toHaveLength(1);
    expect(store.size).toBe(0);
  });

  it('throws the server refusal at once, with its translation key', async () => {
    const server = fakeServer({ refuseMerge: -9007 });
    const error = await uploadFile(new Blob([bytes(10)]), {
      purpose: 'kyc',
      fetch: server.fetchImpl,
      storage: null,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ code: -9007, messageKey: 'errors.-9007' });
  });

  it('stops when aborted', async () => {
    const server = fakeServer();
    const controller = new AbortController();
    const promise = uploadFile(new Blob([bytes(3000)]), {
      purpose: 'kyc',
      chunkBytes: 1000,
      fetch: server.fetchImpl,
      storage: null,
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.3) controller.abort();
      },
    });
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.posts).toEqual([0]);
  });
});
