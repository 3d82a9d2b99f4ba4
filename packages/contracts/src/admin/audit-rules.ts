import { BACKOFFICE_MENU } from '../permissions';

/**
 * Rules of the audit area that the server and the back office share, without a schema library:
 * app-version numbers, platforms, package modules and the operation-history limits.
 */

/** Platforms an app version is released for. */
export const APP_PLATFORMS = ['ios', 'android', 'windows', 'macos', 'web'] as const;
export type TAppPlatform = (typeof APP_PLATFORMS)[number];

/** Release-note languages the back office edits; more may be stored (any language code). */
export const RELEASE_NOTE_LOCALES = ['zh-CN', 'en'] as const;

/**
 * A release version: semantic versioning 2.0 MAJOR.MINOR.PATCH with an optional pre-release
 * (1.4.0, 2.0.0-beta.2). Build metadata (+...) is not accepted: the build number is its own field.
 */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-((?:0|[1-9]\d{0,8}|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d{0,8}|\d*[A-Za-z-][0-9A-Za-z-]*))*))?$/;

export interface TSemver {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

export function parseSemver(text: string): TSemver | null {
  const match = SEMVER_PATTERN.exec(text.trim());
  if (!match) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4] ? match[4].split('.') : [],
  };
}

const NUMERIC = /^\d+$/;

/**
 * Semver precedence (semver.org, item 11): -1 when a < b, 0 when equal, 1 when a > b. A version
 * with a pre-release is lower than the same version without one; pre-release identifiers compare
 * numerically when both are numbers, numbers lower than text, and a shorter list lower when equal
 * so far. Throws on a text that is not a version.
 */
export function compareSemver(a: string, b: string): -1 | 0 | 1 {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) throw new Error(`not a version: ${!x ? a : b}`);
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  if (x.prerelease.length === 0 || y.prerelease.length === 0) {
    if (x.prerelease.length === y.prerelease.length) return 0;
    return x.prerelease.length === 0 ? 1 : -1;
  }
  const length = Math.max(x.prerelease.length, y.prerelease.length);
  for (let i = 0; i < length; i++) {
    const p = x.prerelease[i];
    const q = y.prerelease[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = NUMERIC.test(p);
    const qn = NUMERIC.test(q);
    if (pn && qn) return Number(p) < Number(q) ? -1 : 1;
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/**
 * Modules every broker keeps whatever its package: the dashboard follows statistics, and the
 * administration a broker needs to run its own back office (roles, staff, menus, the operation
 * history and the package page itself) is never switched off. Platform modules are not sold.
 */
export const PACKAGE_CORE_MODULES: readonly string[] = ['roles', 'staff', 'menus', 'operations', 'packages'];

/** The modules a package can switch on or off (menu keys, in menu order). */
export const PACKAGE_OPTIONAL_MODULES: readonly string[] = BACKOFFICE_MENU.filter(
  (entry) => entry.key !== 'dashboard' && !entry.platform && !PACKAGE_CORE_MODULES.includes(entry.key),
).map((entry) => entry.key);

/** The module a permission belongs to: the part before the dot (`users.adjust` -> `users`). */
export function permissionModule(permission: string): string {
  const dot = permission.indexOf('.');
  return dot < 0 ? permission : permission.slice(0, dot);
}

/** Whether a package with these optional modules on includes the permission's module. */
export function packageAllows(permission: string, modules: readonly string[]): boolean {
  const module = permissionModule(permission);
  return !PACKAGE_OPTIONAL_MODULES.includes(module) || modules.includes(module);
}

/** Package limits, in the order the pages show them. */
export const PACKAGE_LIMITS = ['staff', 'customers', 'tradingAccounts', 'symbols'] as const;
export type TPackageLimit = (typeof PACKAGE_LIMITS)[number];

/** Actor kinds of the operation history. */
export const AUDIT_ACTOR_KINDS = ['staff', 'user', 'anonymous', 'system'] as const;

/** Most rows one CSV export of the operation history holds (newest first). */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

/** Longest date range the statistics page reads at once, in days. */
export const STATS_MAX_DAYS = 366;
