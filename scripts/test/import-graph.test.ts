import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cyclePath,
  findCycles,
  importGraph,
  parseImports,
  resolveImport,
  stronglyConnected,
  type TEdge,
} from '../lib/import-graph.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const made: string[] = [];

/** A throw-away source folder holding the given files. */
function fixture(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'import-graph-'));
  made.push(folder);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

const edge = (from: string, to: string, typeOnly = false): TEdge => ({ from, to, typeOnly });

describe('parseImports', () => {
  it('reads static, re-export, side-effect and dynamic imports, marking the type-only ones', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C, d } from './c';",
      "export { e } from './e';",
      "export type { F } from './f';",
      "export * from './g';",
      "import './h.css';",
      "const page = () => import('./page');",
      "type T = typeof import('./t');",
      '// import { x } from "./commented";',
      'const text = "import { y } from \'./in-a-string\'";',
      'export const view = <p>Don\'t import from "./jsx-text"</p>;',
    ].join('\n');
    expect(parseImports(text, 'x.tsx')).toEqual([
      { specifier: './a', typeOnly: false },
      { specifier: './b', typeOnly: true },
      { specifier: './c', typeOnly: false },
      { specifier: './e', typeOnly: false },
      { specifier: './f', typeOnly: true },
      { specifier: './g', typeOnly: false },
      { specifier: './h.css', typeOnly: false },
      { specifier: './page', typeOnly: false },
      { specifier: './t', typeOnly: true },
    ]);
  });
});

describe('resolveImport', () => {
  const files = new Set(['/src/a.ts', '/src/b.tsx', '/src/c/index.ts', '/src/d/index.tsx', '/src/e.ts']);
  const isFile = (path: string) => files.has(path);

  it('resolves ./x, ./x.ts, .tsx, ./x/index.ts(x), a .js suffix and a workspace alias', () => {
    const from = '/src/main.ts';
    expect(resolveImport(from, './a', { isFile })).toBe('/src/a.ts');
    expect(resolveImport(from, './a.ts', { isFile })).toBe('/src/a.ts');
    expect(resolveImport(from, './b', { isFile })).toBe('/src/b.tsx');
    expect(resolveImport(from, './c', { isFile })).toBe('/src/c/index.ts');
    expect(resolveImport(from, './d', { isFile })).toBe('/src/d/index.tsx');
    expect(resolveImport(from, './e.js', { isFile })).toBe('/src/e.ts');
    expect(resolveImport('/src/c/index.ts', '../a', { isFile })).toBe('/src/a.ts');
    expect(resolveImport(from, '@app/web/a', { isFile, aliases: { '@app/web': '/src' } })).toBe('/src/a.ts');
  });

  it('leaves packages, other files and missing files out', () => {
    const from = '/src/main.ts';
    expect(resolveImport(from, 'react', { isFile })).toBeNull();
    expect(resolveImport(from, '@app/webby/a', { isFile, aliases: { '@app/web': '/src' } })).toBeNull();
    expect(resolveImport(from, './styles.css', { isFile })).toBeNull();
    expect(resolveImport(from, './missing', { isFile })).toBeNull();
  });
});

describe('stronglyConnected and findCycles', () => {
  it('finds a cycle, its files, and a self-import', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'];
    const edges = [edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd'), edge('e', 'e')];
    expect(stronglyConnected(nodes, edges).map((c) => c.join())).toEqual(
      expect.arrayContaining(['a,b,c', 'd', 'e']),
    );
    expect(findCycles(nodes, edges)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(cyclePath(['a', 'b', 'c'], edges)).toBe('a -> b -> c -> a');
  });

  it('finds none in an acyclic graph', () => {
    const nodes = ['a', 'b', 'c', 'd'];
    const edges = [edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd')];
    expect(findCycles(nodes, edges)).toEqual([]);
    expect(stronglyConnected(nodes, edges)).toHaveLength(4);
  });

  it('counts a cycle closed by a type-only import only as a module cycle', () => {
    const edges = [edge('a', 'b'), edge('b', 'a', true)];
    expect(findCycles(['a', 'b'], edges)).toEqual([]);
    expect(findCycles(['a', 'b'], edges, { typeOnly: true })).toEqual([['a', 'b']]);
  });

  it('handles a long chain without running out of stack', () => {
    const nodes = Array.from({ length: 20_000 }, (_, i) => `f${i}`);
    const edges = nodes.map((node, i) => edge(node, nodes[(i + 1) % nodes.length] as string));
    expect(findCycles(nodes, edges)).toHaveLength(1);
    expect(findCycles(nodes, edges)[0]).toHaveLength(20_000);
  });
});

describe('importGraph on a fixture folder', () => {
  it('finds the cycle through an index file', () => {
    const folder = fixture({
      'lib/api.ts': "import { ROUTES } from '../areas/shop';\nexport const call = () => ROUTES;\n",
      'areas/shop/index.ts': "export { ShopPage } from './ShopPage';\nexport const ROUTES = {};\n",
      'areas/shop/ShopPage.tsx':
        "import { call } from '../../lib/api';\nexport const ShopPage = () => call();\n",
      'main.tsx': "import { ShopPage } from './areas/shop';\nimport './styles.css';\nShopPage();\n",
    });
    const { files, edges } = importGraph({ folder });
    expect(files).toEqual(['areas/shop/ShopPage.tsx', 'areas/shop/index.ts', 'lib/api.ts', 'main.tsx']);
    expect(findCycles(files, edges)).toEqual([
      ['areas/shop/ShopPage.tsx', 'areas/shop/index.ts', 'lib/api.ts'],
    ]);
  });

  it('finds none once the route list lives apart from the pages', () => {
    const folder = fixture({
      'lib/api.ts': 'export const call = (routes: object) => routes;\n',
      'areas/shop/routes.ts': 'export const ROUTES = {};\n',
      'areas/shop/ShopPage.tsx':
        "import type { ROUTES } from './routes';\nimport { call } from '../../lib/api';\nexport const ShopPage = (r: typeof ROUTES) => call(r);\n",
      'main.tsx':
        "import { ROUTES } from './areas/shop/routes';\nconst page = () => import('./areas/shop/ShopPage');\nexport { ROUTES, page };\n",
    });
    const { files, edges } = importGraph({ folder });
    expect(edges).toContainEqual(edge('main.tsx', 'areas/shop/ShopPage.tsx'));
    expect(edges).toContainEqual(edge('areas/shop/ShopPage.tsx', 'areas/shop/routes.ts', true));
    expect(findCycles(files, edges)).toEqual([]);
    expect(findCycles(files, edges, { typeOnly: true })).toEqual([]);
  });
});

describe('import-cycles script', () => {
  it('prints a count per app and exits 0 without --fail', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/import-cycles.mjs'), 'web'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^web: \d+ runtime cycles?, \d+ counting type-only imports/m);
  });

  it('rejects an unknown app', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/import-cycles.mjs'), 'nope'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
  });
});
