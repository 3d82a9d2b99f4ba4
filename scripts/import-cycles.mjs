// Import cycles per app (issue 16): `npm run cycles` (or `node scripts/import-cycles.mjs [--fail] [app...]`).
//
// Walks the relative and workspace-alias imports (`import ... from`, `export ... from`, side-effect imports,
// dynamic `import('...')`) of the .ts/.tsx files under apps/server/src, apps/backoffice/src and
// apps/web/src, finds the strongly connected components (Tarjan) and prints, per app, the cycles: every
// component of more than one file, and every file that imports itself, with the files of each.
//
// Type-only imports (`import type`, `export type ... from`, `typeof import()`) are counted separately: they
// leave no trace in the JavaScript, so they cannot cause a runtime cycle. Two numbers are printed per app:
// runtime cycles (the gate) and module cycles (type-only imports followed too). The exit code is 0 unless
// `--fail` is given and some app has a runtime cycle. The graph and Tarjan live in scripts/lib/import-graph.mjs.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appAliases, cyclePath, findCycles, importGraph } from './lib/import-graph.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const APPS = ['server', 'backoffice', 'web'];

const args = process.argv.slice(2);
const fail = args.includes('--fail');
const verbose = args.includes('--verbose');
const chosen = args.filter((arg) => !arg.startsWith('--'));
const unknown = chosen.filter((app) => !APPS.includes(app));
if (unknown.length > 0) {
  console.error(`unknown app ${unknown.join(', ')}; the apps are ${APPS.join(', ')}`);
  process.exit(2);
}

const aliases = appAliases(ROOT);
let runtimeTotal = 0;
for (const app of chosen.length > 0 ? chosen : APPS) {
  const folder = join(ROOT, 'apps', app, 'src');
  const { files, edges } = importGraph({ folder, aliases });
  const runtime = findCycles(files, edges);
  const modules = findCycles(files, edges, { typeOnly: true });
  runtimeTotal += runtime.length;
  const typeEdges = edges.filter((edge) => edge.typeOnly).length;
  console.log(
    `${app}: ${runtime.length} runtime cycle${runtime.length === 1 ? '' : 's'}, ` +
      `${modules.length} counting type-only imports ` +
      `(${files.length} files, ${edges.length - typeEdges} runtime and ${typeEdges} type-only import edges)`,
  );
  const show = (/** @type {string[][]} */ cycles, /** @type {string} */ label, typeOnly = false) => {
    cycles.forEach((cycle, at) => {
      console.log(`  ${label} ${at + 1} (${cycle.length} file${cycle.length === 1 ? '' : 's'}):`);
      console.log(`    e.g. ${cyclePath(cycle, edges, { typeOnly })}`);
      for (const file of cycle) console.log(`    apps/${app}/src/${file}`);
    });
  };
  show(runtime, 'runtime cycle');
  // Module cycles that are not already runtime cycles (a type-only edge closes them or joins two).
  const runtimeKeys = new Set(runtime.map((cycle) => cycle.join('\n')));
  const extra = modules.filter((cycle) => !runtimeKeys.has(cycle.join('\n')));
  if (verbose || runtime.length === 0) show(extra, 'module cycle (through type-only imports)', true);
  else if (extra.length > 0)
    console.log(`  (${extra.length} more module cycles through type-only imports: --verbose)`);
}

if (fail && runtimeTotal > 0) {
  console.error(`${runtimeTotal} runtime import cycle${runtimeTotal === 1 ? '' : 's'}`);
  process.exit(1);
}
