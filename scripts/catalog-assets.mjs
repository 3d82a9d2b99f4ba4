// The portal's full message catalogs as static assets (issue 21, item 14): one file per language,
// `catalog-<lang>-<hash>.json` beside the client build's assets (cached for a year, precompressed by
// scripts/precompress.mjs), and `.vite/catalogs.json` naming each language's file for the server
// renderer. A page inlines only the messages its server render used; the browser fetches the rest
// from here after the page has painted (entry-server.tsx, lib/i18n.tsx).
//
// Run by `npm run build` after the client build and before the precompression.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'packages/i18n/locales');
const client = join(root, 'apps/web/dist/client');
const assets = join(client, 'assets');

await mkdir(assets, { recursive: true });
for (const name of await readdir(assets))
  if (/^catalog-.+\.json(\.br|\.gz)?$/.test(name)) await rm(join(assets, name));
const files = {};
for (const name of (await readdir(source)).filter((n) => n.endsWith('.json')).sort()) {
  const lang = name.slice(0, -'.json'.length);
  // The languages only, not the translators' lists beside them (identical-allowlist.json).
  if (!/^[a-z]{2,3}(-[A-Z]{2})?$/.test(lang)) continue;
  const text = JSON.stringify(JSON.parse(await readFile(join(source, name), 'utf8')));
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 10);
  const file = `catalog-${lang}-${hash}.json`;
  await writeFile(join(assets, file), text);
  files[lang] = `/assets/${file}`;
}
await mkdir(join(client, '.vite'), { recursive: true });
await writeFile(join(client, '.vite/catalogs.json'), `${JSON.stringify(files, null, 2)}\n`);
console.log(`build:catalogs: ${Object.keys(files).length} catalogs in apps/web/dist/client/assets`);
