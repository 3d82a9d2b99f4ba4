import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  cyclePath,
  importGraph,
  stronglyConnected,
  type TEdge,
} from '../../../../scripts/lib/import-graph.mjs';

/**
 * The server's module boundaries (ARCHITECTURE.md, "Server modules"; ADR 011), checked on every
 * `npm run check`:
 * 1. another module, the HTTP layer and the composition import a module only through its `index.ts`;
 * 2. a module does not import the HTTP layer (`api/`, `http/`): use cases take an actor and ports,
 *    never the call context;
 * 3. a file writes only the tables its module declares in its `schema.ts` (the HTTP layer and the
 *    composition own none);
 * 4. a file reads only its module's tables (reporting reads across for statistics);
 * 5. the graph of modules is acyclic.
 * A breach fails with the file and the rule.
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MODULES = join(SRC, 'modules');

const RULES = {
  face: "imports another module's file: import its index.ts",
  http: 'a module imports the HTTP layer: take an actor and ports instead of the call context',
  table: 'writes a table its module does not own: call the owning module',
  read: 'reads a table its module does not own: ask the owning module (only reporting reads across)',
  cycle: 'the modules depend on each other in a cycle',
} as const;

/**
 * The tables each module declares in the `T<Module>Schema` interface of its schema.ts; a module
 * without a schema.ts (reporting) owns none.
 */
function ownership(): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const entry of readdirSync(MODULES, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(MODULES, entry.name, 'schema.ts');
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const block = /export interface T\w+Schema \{([^}]*)\}/.exec(text)?.[1] ?? '';
    owners.set(
      entry.name,
      [...block.matchAll(/^\s+([a-z_]+): \w+;$/gm)].map((m) => m[1] as string),
    );
  }
  return owners;
}

const moduleOf = (file: string): string | null =>
  file.startsWith('modules/') ? (file.split('/')[1] ?? null) : null;
const isHttpLayer = (file: string) => file.startsWith('api/') || file.startsWith('http/');

/** The SQL a source text holds in Kysely's sql`...` templates, one per line. */
const sqlTexts = (text: string) =>
  [...text.matchAll(/\bsql(?:<[^>]*>)?`([^`]*)`/g)].map((m) => m[1]).join('\n');

/** The tables a source text writes, through Kysely or in SQL. */
export function writtenTables(text: string, tables: readonly string[]): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*'([a-z_]+)'/g,
  ))
    found.add(m[1] as string);
  const known = new Set(tables);
  for (const m of sqlTexts(text).matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)\b/gi)) {
    const table = (m[1] as string).toLowerCase();
    if (known.has(table)) found.add(table);
  }
  return [...found].sort();
}

/** The tables a source text reads, through Kysely (with or without an alias) or in SQL. */
export function readTables(text: string, tables: readonly string[]): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:selectFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'([a-z_]+)/g))
    found.add(m[1] as string);
  const known = new Set(tables);
  for (const m of sqlTexts(text).matchAll(/\b(?:from|join)\s+([a-z_]+)\b/gi)) {
    const table = (m[1] as string).toLowerCase();
    if (known.has(table)) found.add(table);
  }
  return [...found].sort();
}

/**
 * Every breach of the five rules, as `<file> -> <what>: <rule key>` (cycles as
 * `<module> -> ... -> <module>: cycle`).
 */
export function boundaryProblems(input: {
  files: readonly string[];
  edges: readonly TEdge[];
  texts: ReadonlyMap<string, string>;
  owners: ReadonlyMap<string, readonly string[]>;
}): string[] {
  const problems: string[] = [];
  const moduleEdges: { from: string; to: string; typeOnly: boolean }[] = [];
  for (const edge of input.edges) {
    const from = moduleOf(edge.from);
    const to = moduleOf(edge.to);
    // The database's type is composed of every module's schema.ts (db/schema.ts), type-only.
    const composesSchema =
      edge.from === 'db/schema.ts' && edge.typeOnly && edge.to === `modules/${to}/schema.ts`;
    if (to && from !== to && edge.to !== `modules/${to}/index.ts` && !composesSchema)
      problems.push(`${edge.from} -> ${edge.to}: face`);
    if (from && isHttpLayer(edge.to)) problems.push(`${edge.from} -> ${edge.to}: http`);
    if (from && to && from !== to) moduleEdges.push({ from, to, typeOnly: edge.typeOnly });
  }
  const tableOwner = new Map<string, string>();
  for (const [owner, tables] of input.owners) for (const table of tables) tableOwner.set(table, owner);
  const allTables = [...tableOwner.keys()];
  for (const file of input.files) {
    if (file.startsWith('db/') || file === 'seed.ts') continue; // migrations and the demo seed
    const mine = moduleOf(file);
    const text = input.texts.get(file) ?? '';
    const written = writtenTables(text, allTables);
    for (const table of written)
      if (tableOwner.get(table) !== mine) problems.push(`${file} -> table ${table}: table`);
    if (mine === 'reporting') continue; // the read-only statistics read every module's tables
    for (const table of readTables(text, allTables))
      if (tableOwner.get(table) !== mine && !written.includes(table))
        problems.push(`${file} -> reads ${table}: read`);
  }
  const modules = [...new Set(moduleEdges.flatMap((e) => [e.from, e.to]))];
  for (const component of stronglyConnected(modules, moduleEdges).filter((c) => c.length > 1))
    problems.push(`${cyclePath(component, moduleEdges, { typeOnly: true })}: cycle`);
  return problems.sort();
}

const explain = (problem: string) => {
  const key = problem.slice(problem.lastIndexOf(': ') + 2) as keyof typeof RULES;
  return `${problem.slice(0, problem.lastIndexOf(': '))}: ${RULES[key]}`;
};

describe('server module boundaries', () => {
  const graph = importGraph({ folder: SRC });
  const texts = new Map(graph.files.map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));
  const problems = boundaryProblems({ ...graph, texts, owners: ownership() });

  it('holds every rule', () => {
    expect(problems.map(explain)).toEqual([]);
  });

  it('declares every table exactly once, and the database is made of every module schema', () => {
    const owned = [...ownership().values()].flat();
    expect(owned.length).toBeGreaterThan(45);
    expect(new Set(owned).size).toBe(owned.length);
    const database = readFileSync(join(SRC, 'db/schema.ts'), 'utf8');
    for (const [module, tables] of ownership())
      if (tables.length > 0)
        expect(database, module).toMatch(new RegExp(`from '../modules/${module}/schema'`));
  });
});

describe('the boundary checker', () => {
  const owners = new Map([
    ['identity', ['users', 'sessions']],
    ['trading', ['positions']],
  ]);
  const check = (edges: TEdge[], texts: Record<string, string> = {}) =>
    boundaryProblems({
      files: [...new Set([...edges.flatMap((e) => [e.from, e.to]), ...Object.keys(texts)])],
      edges,
      texts: new Map(Object.entries(texts)),
      owners,
    });
  const edge = (from: string, to: string, typeOnly = false): TEdge => ({ from, to, typeOnly });

  it("fails an import of another module's inner file, and passes one through its index", () => {
    expect(check([edge('modules/trading/open.ts', 'modules/identity/users.ts')])).toEqual([
      'modules/trading/open.ts -> modules/identity/users.ts: face',
    ]);
    expect(check([edge('modules/trading/open.ts', 'modules/identity/index.ts')])).toEqual([]);
    expect(check([edge('api/trading.ts', 'modules/trading/open.ts')])).toEqual([
      'api/trading.ts -> modules/trading/open.ts: face',
    ]);
  });

  it('fails a module importing the HTTP layer, even for types', () => {
    expect(check([edge('modules/trading/open.ts', 'http/context.ts', true)])).toEqual([
      'modules/trading/open.ts -> http/context.ts: http',
    ]);
  });

  it("fails a write to another module's table, through Kysely or in SQL", () => {
    expect(
      check([], {
        'modules/trading/open.ts': "await db.updateTable('users').set({ name: 'x' }).execute();",
        'modules/trading/close.ts': 'await sql`update sessions set revoked_at = now()`.execute(db);',
        'modules/trading/own.ts': "await db.insertInto('positions').values(row).execute();",
        'modules/trading/prose.ts': '// an update of users would be wrong here',
        'api/handlers.ts': "await db.deleteFrom('positions').execute();",
      }),
    ).toEqual([
      'api/handlers.ts -> table positions: table',
      'modules/trading/close.ts -> table sessions: table',
      'modules/trading/open.ts -> table users: table',
    ]);
  });

  it("fails a read of another module's table, joins and SQL included, except in reporting", () => {
    expect(
      check([], {
        'modules/trading/read.ts': "await db.selectFrom('users').selectAll().execute();",
        'modules/trading/join.ts': "db.selectFrom('positions as p').innerJoin('sessions as s', 's.x', 'p.y')",
        'modules/trading/raw.ts': 'await sql`select count(*) from users`.execute(db);',
        'modules/trading/own.ts': "await db.selectFrom('positions').selectAll().execute();",
        'modules/reporting/stats.ts': "await db.selectFrom('users').innerJoin('positions', 'a', 'b')",
      }),
    ).toEqual([
      'modules/trading/join.ts -> reads sessions: read',
      'modules/trading/raw.ts -> reads users: read',
      'modules/trading/read.ts -> reads users: read',
    ]);
  });

  it('fails modules that depend on each other in a cycle, type-only imports included', () => {
    expect(
      check([
        edge('modules/trading/open.ts', 'modules/identity/index.ts'),
        edge('modules/identity/users.ts', 'modules/trading/index.ts', true),
      ]),
    ).toEqual(['identity -> trading -> identity: cycle']);
  });
});
