// Types of import-graph.mjs for the tests (the module itself is plain JavaScript run by node).
export interface TImport {
  specifier: string;
  typeOnly: boolean;
}
/** One import between two files, paths relative to the graph's folder with `/` separators. */
export interface TEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export function parseImports(text: string, fileName?: string): TImport[];
export function resolveImport(
  fromFile: string,
  specifier: string,
  options?: { aliases?: Record<string, string>; isFile?: (path: string) => boolean },
): string | null;
export function sourceFiles(folder: string): string[];
export function appAliases(root: string): Record<string, string>;
export function importGraph(options: { folder: string; aliases?: Record<string, string> }): {
  files: string[];
  edges: TEdge[];
};
export function stronglyConnected(
  nodes: readonly string[],
  edges: readonly { from: string; to: string }[],
): string[][];
export function findCycles(
  nodes: readonly string[],
  edges: readonly TEdge[],
  options?: { typeOnly?: boolean },
): string[][];
export function cyclePath(
  component: readonly string[],
  edges: readonly TEdge[],
  options?: { typeOnly?: boolean },
): string;
/** One import rule: its text (said in the failure) and the test an import fails. */
export interface TRule {
  rule: string;
  breaks: (edge: TEdge) => boolean;
}
export function importProblems(options: {
  files: readonly string[];
  edges: readonly TEdge[];
  rules: readonly TRule[];
  prefix?: string;
}): string[];
export function homeOf(file: string, group: string): string;
export function importEdge(from: string, to: string, typeOnly?: boolean): TEdge;
export function appRules(options: { app: string; rules: readonly TRule[]; root?: string }): {
  check(edges: readonly TEdge[]): string[];
  checkApp(): { files: string[]; edges: TEdge[]; problems: string[] };
};
