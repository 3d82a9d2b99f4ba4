import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../helpers';

// Issue 21, item 14: assets are sent precompressed (build step scripts/precompress.mjs), pages are
// compressed per request. Needs `npm run build`.
let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (path: string, acceptEncoding: string) =>
  fetch(server.baseUrl + path, { headers: { 'accept-encoding': acceptEncoding } });

function decode(encoding: string | null, body: Buffer) {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

const WEB_ASSETS = 'apps/web/dist/client/assets';
const BACKOFFICE_ASSETS = 'apps/backoffice/dist/assets';
const largest = (dir: string, ext: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(ext))
    .map((name) => ({ name, size: readFileSync(join(dir, name)).length }))
    .sort((a, b) => b.size - a.size)[0]?.name;

describe('precompressed assets', () => {
  const cases = [
    { label: 'portal script', prefix: '/assets/', dir: WEB_ASSETS, ext: '.js' },
    { label: 'portal style sheet', prefix: '/assets/', dir: WEB_ASSETS, ext: '.css' },
    { label: 'back office script', prefix: '/admin/assets/', dir: BACKOFFICE_ASSETS, ext: '.js' },
  ];
  for (const { label, prefix, dir, ext } of cases) {
    it(`${label}: brotli for br, gzip otherwise, the same bytes once decoded, cached a year`, async () => {
      const name = largest(dir, ext);
      expect(name, `a built ${ext} in ${dir}`).toBeTruthy();
      const original = readFileSync(join(dir, `${name}`));
      const precompressedBr = readFileSync(join(dir, `${name}.br`));
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['br', 'br'],
        ['gzip, deflate', 'gzip'],
        ['gzip', 'gzip'],
      ] as const) {
        const answer = await get(prefix + name, accept);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-encoding'), accept).toBe(encoding);
        expect(answer.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
        expect(answer.headers.get('cache-control')).toContain('immutable');
        expect(answer.headers.get('content-type')).toMatch(ext === '.js' ? /javascript/ : /text\/css/);
        // fetch decodes on its own; read the raw bytes through a non-decoding path below.
        const decoded = Buffer.from(await answer.arrayBuffer());
        expect(decoded.equals(original), `${accept}: decoded bytes`).toBe(true);
      }
      // The brotli answer is the build's file itself (no compression per request).
      const raw = await rawGet(prefix + name, 'br');
      expect(raw.encoding).toBe('br');
      expect(raw.body.equals(precompressedBr)).toBe(true);
      expect(decode('br', raw.body).equals(original)).toBe(true);
      const rawGzip = await rawGet(prefix + name, 'gzip');
      expect(rawGzip.encoding).toBe('gzip');
      expect(decode('gzip', rawGzip.body).equals(original)).toBe(true);
    });
  }

  it('is sent as it is to a client that accepts no encoding', async () => {
    const name = largest(WEB_ASSETS, '.js');
    const raw = await rawGet(`/assets/${name}`, 'identity');
    expect(raw.encoding).toBeUndefined();
    expect(raw.body.equals(readFileSync(join(WEB_ASSETS, `${name}`)))).toBe(true);
  });
});

describe('server-rendered pages', () => {
  it('are compressed with brotli or gzip per accept-encoding, the same page once decoded', async () => {
    const plain = await rawGet('/en', 'identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toContain('<html');
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const answer = await rawGet('/en', accept);
      expect(answer.encoding, accept).toBe(encoding);
      expect(answer.vary?.toLowerCase()).toContain('accept-encoding');
      expect(answer.body.length).toBeLessThan(plain.body.length / 3);
      const html = decode(encoding, answer.body).toString();
      expect(html).toContain('<html');
      expect(html).toContain('window.__BOOT__');
    }
  });
});

describe('what a page carries (issue 21, item 14)', () => {
  const boot = (html: string) =>
    JSON.parse(/<script>window.__BOOT__=(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as {
      catalog: Record<string, string>;
      catalogHref?: string;
    };
  const english = JSON.parse(readFileSync('packages/i18n/locales/en.json', 'utf8')) as Record<string, string>;

  it('inlines only the messages its render used and loads its code and the whole catalog after the first paint', async () => {
    const html = await (await get('/en/markets', 'identity')).text();
    const data = boot(html);
    const inlined = Object.keys(data.catalog);
    expect(inlined).toContain('markets.title');
    expect(inlined.length).toBeLessThan(Object.keys(english).length / 4);
    for (const key of inlined) expect(data.catalog[key]).toBe(english[key]);
    expect(data.catalogHref).toMatch(/^\/assets\/catalog-en-[\w-]+\.json$/);
    // No script is fetched before the first paint: the page's code (the entry, its chunks, the
    // route's own chunk) and the whole catalog are asked for by a small script at the end of the
    // body, after the stylesheet, once the first frame is painted.
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    const loader =
      /<script>\(function\(e,m,f\)\{.*?\}\)\(("[^"]+"),(\[[^\]]*\]),(\[[^\]]*\])\)<\/script>/.exec(html);
    expect(loader).toBeTruthy();
    const [, entry, modules, fetches] = loader as RegExpExecArray;
    expect(JSON.parse(entry as string)).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const chunks = JSON.parse(modules as string) as string[];
    expect(chunks.some((href) => /^\/assets\/MarketsPage-[\w-]+\.js$/.test(href))).toBe(true);
    expect(chunks.some((href) => /^\/assets\/i18n-[\w-]+\.js$/.test(href))).toBe(true);
    expect(JSON.parse(fetches as string)).toEqual([data.catalogHref]);
    expect(html.indexOf('(function(e,m,f)')).toBeGreaterThan(html.indexOf('rel="stylesheet" crossorigin'));
    // Every chunk it names is served.
    for (const href of [JSON.parse(entry as string) as string, ...chunks])
      expect((await get(href, 'br')).status, href).toBe(200);
    // A page's first Intl.NumberFormat (30-120 ms, four times that on a slow phone) is made in the
    // head, while the stylesheet downloads: neither a long task after the first paint nor part of
    // the hydration's render.
    const warm = html.indexOf('<script>try{new Intl.NumberFormat(document.documentElement.lang');
    expect(warm).toBeGreaterThan(0);
    expect(warm).toBeLessThan(html.indexOf('rel="stylesheet"'));
    // The whole catalog: every English message, cached for a year, brotli for those who take it.
    const file = await get(data.catalogHref as string, 'br');
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(file.headers.get('content-encoding')).toBe('br');
    expect(await file.json()).toEqual(english);
  });

  it('inlines the whole catalog in the pseudo-locale', async () => {
    const data = boot(await (await get('/en?pseudo=1', 'identity')).text());
    expect(data.catalogHref).toBeUndefined();
    expect(Object.keys(data.catalog).length).toBe(Object.keys(english).length);
  });
});

/** A GET whose body is not decoded (fetch would decode it). */
async function rawGet(path: string, acceptEncoding: string) {
  const { request } = await import('node:http');
  const url = new URL(server.baseUrl + path);
  return new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          encoding: response.headers['content-encoding'],
          vary: response.headers.vary,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
