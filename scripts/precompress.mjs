// Precompresses the built static assets (issue 21, item 14): beside each compressible file of the
// portal's client build and of the back office, a `.br` (brotli, quality 11) and a `.gz` (gzip,
// level 9) file, which the server sends as they are (`@fastify/static` with `preCompressed`), so
// that no asset is compressed per request and every one at the best ratio.
//
// Run by `npm run build` after the client builds; `node scripts/precompress.mjs [dir...]` for others.
// A variant is written only when it is smaller than the file; stale variants are rewritten.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DIRS = ['apps/web/dist/client', 'apps/backoffice/dist'];
/** Text formats; images, fonts (woff2 is brotli inside) and archives are compressed already. */
const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.map',
  '.ico',
  '.webmanifest',
]);
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes `<file>.br` and `<file>.gz` for each compressible file under `dir`; returns the totals. */
export async function precompress(dir) {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const content = await readFile(path);
    if (content.length < MIN_BYTES) continue;
    const [br, gzipped] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
      gz(content, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    totals.files += 1;
    totals.bytes += content.length;
    for (const [suffix, data] of [
      ['.br', br],
      ['.gz', gzipped],
    ]) {
      if (data.length < content.length) {
        await writeFile(path + suffix, data);
        totals[suffix.slice(1)] += data.length;
      } else {
        await rm(path + suffix, { force: true });
        totals[suffix.slice(1)] += content.length;
      }
    }
  }
  return totals;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_DIRS.map((d) => join(root, d));
  for (const dir of dirs) {
    const exists = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!exists) {
      console.log(`precompress: ${relative(root, dir) || dir} not built, skipped`);
      continue;
    }
    const t = await precompress(dir);
    const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
    console.log(
      `precompress: ${relative(root, dir) || dir}: ${t.files} files, ${kb(t.bytes)} → br ${kb(t.br)}, gzip ${kb(t.gz)}`,
    );
  }
}
