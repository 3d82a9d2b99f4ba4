// The import graph of an app's TypeScript sources and its cycles (issue 16), shared by
// scripts/import-cycles.mjs and the front ends' import-boundary tests.
//
// An edge is one `import ... from`, `export ... from`, side-effect `import '...'` or dynamic `import('...')`
// whose specifier is relative (`./x`, `../x`) or a workspace alias of an app (`@broker/web/...` is
// apps/web/src/...), resolved to a `.ts`/`.tsx` file (`./x`, `./x.ts`, `./x.tsx`, `./x/index.ts`,
// `./x/index.tsx`; a `.js` suffix is read as `.ts`). Packages and non-TypeScript files (CSS, JSON, images) are
// not part of the graph.
//
// Type-only imports (`import type`, `export type ... from`, `typeof import('...')`) are kept, marked
// `typeOnly`: they vanish from the JavaScript, so they cannot make a module load before its dependency has
// run. A runtime cycle counts only the other edges and is the one the gate (`--fail`, the boundary tests)
// checks; a cycle that needs a type-only edge is reported beside it as a module cycle for the reader.
// `import { type A }` stays a runtime edge: with `verbatimModuleSyntax` the import statement is kept.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** @type {typeof import('typescript')} */
const ts = require('typescript');

const SOURCE = /\.tsx?$/;
const DECLARATION = /\.d\.ts$/;

/**
 * The module specifiers one file names, in source order.
 * @param {string} text
 * @param {string} [fileName]
 * @returns {{ specifier: string, typeOnly: boolean }[]}
 */
export function parseImports(text, fileName = 'file.tsx') {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {{ specifier: string, typeOnly: boolean }[]} */
  const found = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly === true });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The file a specifier names, or null for a package, a non-TypeScript file or a missing file.
 * @param {string} fromFile absolute path of the importing file
 * @param {string} specifier
 * @param {{ aliases?: Record<string, string>, isFile?: (path: string) => boolean }} [options]
 *   aliases: package name (`@broker/web`) to the absolute folder its `./*` export maps to
 * @returns {string | null}
 */
export function resolveImport(fromFile, specifier, options = {}) {
  const isFile = options.isFile ?? defaultIsFile;
  const bare = specifier.replace(/[?#].*$/, '');
  let base = null;
  if (bare.startsWith('./') || bare.startsWith('../') || bare === '.' || bare === '..') {
    base = resolve(dirname(fromFile), bare);
  } else {
    for (const [name, folder] of Object.entries(options.aliases ?? {})) {
      if (bare === name || bare.startsWith(`${name}/`)) base = join(folder, bare.slice(name.length + 1));
    }
  }
  if (base === null) return null;
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = SOURCE.test(base)
    ? [base]
    : [`${stem}.ts`, `${stem}.tsx`, join(stem, 'index.ts'), join(stem, 'index.tsx')];
  for (const candidate of candidates) {
    if (SOURCE.test(candidate) && !DECLARATION.test(candidate) && isFile(candidate)) return candidate;
  }
  return null;
}

/** @param {string} path */
function defaultIsFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Every `.ts`/`.tsx` file under a folder (declaration files left out), sorted.
 * @param {string} folder
 * @returns {string[]}
 */
export function sourceFiles(folder) {
  /** @type {string[]} */
  const files = [];
  const walk = (/** @type {string} */ dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !DECLARATION.test(entry.name)) files.push(path);
    }
  };
  walk(folder);
  return files.sort();
}

/**
 * The workspace aliases of the apps: `@broker/<app>` to `apps/<app>/src` (each app's package.json maps
 * `./*` to `./src/*`).
 * @param {string} root the repository
 * @returns {Record<string, string>}
 */
export function appAliases(root) {
  /** @type {Record<string, string>} */
  const aliases = {};
  for (const app of readdirSync(join(root, 'apps'))) {
    try {
      const manifest = JSON.parse(readFileSync(join(root, 'apps', app, 'package.json'), 'utf8'));
      const target = manifest.exports?.['./*'];
      if (typeof manifest.name === 'string' && typeof target === 'string') {
        aliases[manifest.name] = join(root, 'apps', app, dirname(target));
      }
    } catch {
      // not an app folder
    }
  }
  return aliases;
}

/**
 * @typedef {{ from: string, to: string, typeOnly: boolean }} TEdge
 * Paths are relative to the folder the graph was built from, with `/` separators.
 */

/**
 * The import edges among the source files under `folder` (edges leaving the folder are dropped).
 * @param {{ folder: string, aliases?: Record<string, string> }} options
 * @returns {{ files: string[], edges: TEdge[] }}
 */
export function importGraph({ folder, aliases = {} }) {
  const absolute = sourceFiles(folder);
  const inside = new Set(absolute);
  const name = (/** @type {string} */ path) => relative(folder, path).split(sep).join('/');
  /** @type {TEdge[]} */
  const edges = [];
  for (const file of absolute) {
    const seen = new Map();
    for (const { specifier, typeOnly } of parseImports(readFileSync(file, 'utf8'), file)) {
      const target = resolveImport(file, specifier, { aliases });
      if (!target || !inside.has(target)) continue;
      // One edge per pair; runtime if any import of the pair is.
      const known = seen.get(target);
      if (known === undefined || (known && !typeOnly)) seen.set(target, typeOnly);
    }
    for (const [target, typeOnly] of seen) edges.push({ from: name(file), to: name(target), typeOnly });
  }
  return { files: absolute.map(name), edges };
}

/**
 * Strongly connected components (Tarjan, iterative), each sorted, in discovery order.
 * @param {readonly string[]} nodes
 * @param {readonly { from: string, to: string }[]} edges
 * @returns {string[][]}
 */
export function stronglyConnected(nodes, edges) {
  /** @type {Map<string, string[]>} */
  const next = new Map();
  for (const node of nodes) next.set(node, []);
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)?.push(to);
  }
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  const onStack = new Set();
  /** @type {string[]} */
  const stack = [];
  /** @type {string[][]} */
  const components = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    /** @type {{ node: string, child: number }[]} */
    const work = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (!frame) break;
      const targets = next.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = /** @type {string} */ (targets[frame.child]);
        frame.child += 1;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        /** @type {string[]} */
        const component = [];
        let member;
        do {
          member = /** @type {string} */ (stack.pop());
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/**
 * The cycles of a graph: every strongly connected component of more than one file, and every file that
 * imports itself. Sorted by size (largest first), then by first file.
 * @param {readonly string[]} nodes
 * @param {readonly TEdge[]} edges
 * @param {{ typeOnly?: boolean }} [options] typeOnly: also follow type-only edges (default: runtime only)
 * @returns {string[][]}
 */
export function findCycles(nodes, edges, options = {}) {
  const followed = options.typeOnly ? edges : edges.filter((edge) => !edge.typeOnly);
  const selfImports = new Set(followed.filter((edge) => edge.from === edge.to).map((edge) => edge.from));
  return stronglyConnected(nodes, followed)
    .filter((component) => component.length > 1 || selfImports.has(/** @type {string} */ (component[0])))
    .sort((a, b) => b.length - a.length || String(a[0]).localeCompare(String(b[0])));
}

/**
 * One path around a cycle, for a message: `a -> b -> c -> a`, following edges inside the component.
 * @param {readonly string[]} component
 * @param {readonly TEdge[]} edges
 * @param {{ typeOnly?: boolean }} [options]
 * @returns {string}
 */
export function cyclePath(component, edges, options = {}) {
  const members = new Set(component);
  const start = /** @type {string} */ (component[0]);
  /** @type {Map<string, string[]>} */
  const next = new Map();
  for (const edge of edges) {
    if (!options.typeOnly && edge.typeOnly) continue;
    if (!members.has(edge.from) || !members.has(edge.to)) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  // Breadth-first from the start back to itself: the shortest loop through it.
  /** @type {Map<string, string>} */
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = /** @type {string} */ (queue.shift());
    for (const target of next.get(node) ?? []) {
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = /** @type {string} */ (previous.get(at)))
          path.splice(1, 0, at);
        return [...path, start].join(' -> ');
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return component.join(', ');
}

/**
 * @typedef {{ rule: string, breaks: (edge: TEdge) => boolean }} TRule
 * One import rule: its text (said in the failure) and the test an import fails.
 */

/**
 * Every broken rule of a graph, one message each, naming the file and the rule:
 * `<from> imports <to>: <rule>`, and `<file>: import cycle a -> b -> a (...)` for each runtime cycle.
 * @param {{ files: readonly string[], edges: readonly TEdge[], rules: readonly TRule[], prefix?: string }} options
 *   prefix: put before every path in the messages (for example `apps/web/src/`)
 * @returns {string[]}
 */
export function importProblems({ files, edges, rules, prefix = '' }) {
  /** @type {string[]} */
  const problems = [];
  for (const edge of edges) {
    for (const { rule, breaks } of rules) {
      if (!breaks(edge)) continue;
      const kind = edge.typeOnly ? ' (type-only)' : '';
      problems.push(`${prefix}${edge.from} imports ${prefix}${edge.to}${kind}: ${rule}`);
    }
  }
  for (const cycle of findCycles(files, edges)) {
    const path = cyclePath(cycle, edges)
      .split(' -> ')
      .map((file) => `${prefix}${file}`)
      .join(' -> ');
    problems.push(
      `${prefix}${cycle[0]}: import cycle ${path} (${cycle.length} files in the cycle): ` +
        'no module may import itself through others',
    );
  }
  return problems;
}

/**
 * Where a file belongs for the import rules: `<group>/<name>` for a file inside a folder of `group`
 * (`features/trade/Watchlist.tsx` is in `features/trade`), else its top folder (`lib`) or top file.
 * @param {string} file
 * @param {string} group
 * @returns {string}
 */
export function homeOf(file, group) {
  const parts = file.split('/');
  return parts[0] === group && parts.length > 2 ? `${group}/${parts[1]}` : (parts[0] ?? file);
}

/**
 * One import between two files, for a rule's own tests.
 * @param {string} from
 * @param {string} to
 * @param {boolean} [typeOnly]
 * @returns {TEdge}
 */
export function importEdge(from, to, typeOnly = false) {
  return { from, to, typeOnly };
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * An app's import rules bound to its `src` (messages name files from the repository root,
 * `apps/web/src/...`): `checkApp()` reads the app as it is; `check(edges)` judges a made-up graph, so a
 * test can show that a rule fails.
 * @param {{ app: string, rules: readonly TRule[], root?: string }} options
 */
export function appRules({ app, rules, root = REPO }) {
  const prefix = `apps/${app}/src/`;
  return {
    /** @param {readonly TEdge[]} edges */
    check: (edges) => {
      const files = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))];
      return importProblems({ files, edges, rules, prefix });
    },
    checkApp: () => {
      const { files, edges } = importGraph({ folder: join(root, prefix), aliases: appAliases(root) });
      return { files, edges, problems: importProblems({ files, edges, rules, prefix }) };
    },
  };
}
