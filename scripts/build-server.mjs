// Builds the server to JavaScript (apps/server/dist), so that a production install (`npm ci
// --omit=dev`) starts it without tsx: `node apps/server/dist/main.mjs`.
//
// - main.mjs: apps/server/src/main.ts with the workspace packages (@broker/*, which export .ts
//   sources) bundled in; npm packages stay imports, resolved from node_modules at run time.
// - pglite-worker.mjs: the embedded database's worker thread, next to main.mjs, where
//   pglite-thread.ts looks for it (`new URL('./pglite-worker.mjs', import.meta.url)`).
// - Other source files that find their data next to themselves (migrations, legal texts, a package's
//   folder) keep doing so: their `import.meta.url` is rewritten to their source file's address,
//   relative to the bundle. The built server runs inside the repository tree, next to those files.
//
// Every npm package the bundle imports must be a production dependency of apps/server or of the
// root package: the build fails otherwise (a production install would not have it).
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'apps/server/dist');

/** The worker finds itself next to the bundle; every other file keeps its source address. */
const KEEPS_BUNDLE_ADDRESS = [join(root, 'apps/server/src/db/pglite-thread.ts')];

const sourceAddress = {
  name: 'source-relative-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`) || KEEPS_BUNDLE_ADDRESS.includes(args.path))
        return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(outdir, args.path).split(sep).join('/');
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
        ),
        loader: args.path.endsWith('.tsx') ? 'tsx' : args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/** Bare imports other than the workspace packages stay imports (node_modules at run time). */
const packagesExternal = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@broker/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'apps/server/src/main.ts',
    'pglite-worker': 'apps/server/src/db/pglite-worker.mjs',
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  // Bundled CommonJS (none today) would need require: give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [sourceAddress, packagesExternal],
});

// Every package the bundle imports is a production dependency.
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const declared = new Set([
  ...Object.keys(readJson('package.json').dependencies ?? {}),
  ...Object.keys(readJson('apps/server/package.json').dependencies ?? {}),
]);
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const missing = new Set();
for (const output of Object.values(result.metafile.outputs))
  for (const { path, external } of output.imports)
    if (external && !builtins.has(path) && !path.startsWith('node:') && !declared.has(packageOf(path)))
      missing.add(packageOf(path));
if (missing.size > 0) {
  console.error(
    `build:server: imported at run time but not in the dependencies of apps/server: ${[...missing].join(', ')}`,
  );
  process.exit(1);
}
const size = (file) => (result.metafile.outputs[file]?.bytes ?? 0) / 1024;
console.log(
  `build:server: apps/server/dist/main.mjs (${size('apps/server/dist/main.mjs').toFixed(0)} KiB), pglite-worker.mjs (${size('apps/server/dist/pglite-worker.mjs').toFixed(0)} KiB)`,
);
