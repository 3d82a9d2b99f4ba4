// Types of check-deps.mjs for its test (the script itself is plain JavaScript run by node).
export interface TLockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  inBundle?: boolean;
  hasInstallScript?: boolean;
  [field: string]: unknown;
}
export interface TLockfile {
  lockfileVersion?: number;
  packages: Record<string, TLockEntry>;
}
export interface TManifest {
  name?: string;
  version?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean | string>;
}

export const REGISTRY: string;
export function packageName(key: string, entry?: TLockEntry): string;
export function checkSources(options: { lock: TLockfile }): string[];
export function readInstalledScripts(options: { root: string; key: string }): string[] | null;
export function checkInstallScripts(options: {
  lock: TLockfile;
  allowScripts: Record<string, boolean | string> | undefined;
  readInstalled?: (key: string) => string[] | null;
}): { problems: string[]; warnings: string[]; found: string[] };
export function satisfies(version: string, spec: string): boolean | null;
export function checkSync(options: { lock: TLockfile; manifests: Record<string, TManifest> }): string[];
export function checkRanges(options: { manifests: Record<string, TManifest> }): string[];
export function workspaceFolders(options: { root: string; patterns: string[] | undefined }): string[];
export function npmLsProblems(options: { root: string }): string[];
export function checkRepo(options: { root: string; npmLs?: boolean }): {
  problems: string[];
  warnings: string[];
  stats: { packages: number; links: number; manifests: number; installScripts: string[] };
};
