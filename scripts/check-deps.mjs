// Offline dependency check (issue 15): `npm audit` needs an advisory service that this network and CI cannot
// reach, so this verifies what can be verified from the repository alone: every locked package comes from the
// npm registry with a sha512 hash, no package runs an install script that package.json's `allowScripts` does
// not list, the lock matches every package.json, and declared ranges stay within ^, ~ or an exact version.
// Run it as `npm run check:deps`; docs/dependencies.md explains each rule and the online checks.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REGISTRY = 'https://registry.npmjs.org/';
const DEP_TYPES = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/** The package's real name: `name` for an alias, otherwise the last `node_modules/` segment of its key. */
export function packageName(key, entry) {
  if (entry?.name) return entry.name;
  const at = key.lastIndexOf('node_modules/');
  return at === -1 ? key : key.slice(at + 'node_modules/'.length);
}

function label(key, entry) {
  const name = packageName(key, entry);
  return `${entry?.version ? `${name}@${entry.version}` : name} (${key})`;
}

/** A relative path that stays inside the repository (no `..` out of it, not absolute, not a URL). */
function insideRepo(path) {
  if (path.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(path)) return false;
  const normal = posix.normalize(path);
  return normal !== '..' && !normal.startsWith('../');
}

function sourceProblem(name, resolved) {
  if (resolved.startsWith(REGISTRY)) {
    const path = new URL(resolved).pathname;
    return path.startsWith(`/${name}/-/`) ? null : `tarball ${resolved} is not ${name}'s own tarball`;
  }
  if (resolved.startsWith('file:')) {
    return insideRepo(resolved.slice('file:'.length)) ? null : `${resolved} is outside the repository`;
  }
  if (/^(git[+:]|github:|gitlab:|bitbucket:|gist:|ssh:)/.test(resolved)) return `git source ${resolved}`;
  if (resolved.startsWith('http:')) return `insecure http source ${resolved}`;
  return `source ${resolved} is not on ${REGISTRY}`;
}

/**
 * Rule 1: every locked package comes from the npm registry (or a folder or file inside the repository) and has a
 * sha512 integrity hash. An entry without `resolved` is a registry package (npm leaves it out under
 * omit-lockfile-registry-resolved); workspace links and bundled packages (inside their parent's hashed tarball)
 * have no hash of their own.
 */
export function checkSources({ lock }) {
  if (!lock.packages || lock.lockfileVersion < 2) {
    return [`package-lock.json: lockfileVersion ${lock.lockfileVersion} has no "packages"; run npm install`];
  }
  const problems = [];
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (key === '') continue;
    if (entry.link) {
      if (typeof entry.resolved !== 'string' || !insideRepo(entry.resolved)) {
        problems.push(`${label(key, entry)}: link to ${entry.resolved} is outside the repository`);
      }
      continue;
    }
    if (!key.includes('node_modules/')) {
      if (!insideRepo(key)) problems.push(`${label(key, entry)}: folder is outside the repository`);
      continue;
    }
    if (entry.inBundle) continue;
    const name = packageName(key, entry);
    if (entry.resolved !== undefined) {
      const problem = sourceProblem(name, String(entry.resolved));
      if (problem) problems.push(`${label(key, entry)}: ${problem}`);
    }
    const hashes = typeof entry.integrity === 'string' ? entry.integrity.split(/\s+/) : [];
    if (hashes.length === 0) problems.push(`${label(key, entry)}: no integrity hash in the lock`);
    else if (!hashes.some((hash) => hash.startsWith('sha512-'))) {
      problems.push(`${label(key, entry)}: integrity ${entry.integrity} is not a sha512 hash`);
    }
  }
  return problems;
}

/** What the installed copy of a package runs at install time, or null when it is not installed. */
export function readInstalledScripts({ root, key }) {
  const dir = join(root, key);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
  const scripts = INSTALL_SCRIPTS.filter((script) => manifest.scripts?.[script]);
  if (manifest.gypfile !== false && !manifest.scripts?.install && existsSync(join(dir, 'binding.gyp'))) {
    scripts.push('binding.gyp (node-gyp rebuild)');
  }
  return scripts;
}

/**
 * Rule 2: a package with an install-time script (as the lock records it in `hasInstallScript`, or as its
 * installed package.json shows it) must be listed in `allowScripts`: `true` allows any version, a string only
 * that exact version. `readInstalled` returns the installed scripts of a lock key, or null when not installed.
 */
export function checkInstallScripts({ lock, allowScripts, readInstalled = () => null }) {
  const problems = [];
  const found = [];
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (key === '' || entry.link || !key.includes('node_modules/')) continue;
    const installed = readInstalled(key) ?? [];
    if (installed.length > 0 && !entry.hasInstallScript) {
      problems.push(
        `${label(key, entry)}: installed copy has install scripts (${installed.join(', ')}) the lock does not record`,
      );
    }
    if (!entry.hasInstallScript && installed.length === 0) continue;
    const name = packageName(key, entry);
    found.push(`${name}@${entry.version}`);
    const allowed = allowScripts?.[name];
    if (allowed === true || (typeof allowed === 'string' && allowed === entry.version)) continue;
    const why =
      typeof allowed === 'string'
        ? `allowScripts pins ${name} to ${allowed}`
        : `${name} is not in package.json's allowScripts`;
    problems.push(`${label(key, entry)}: has an install script and ${why}; review it, then allow it`);
  }
  const names = new Set(found.map((spec) => spec.slice(0, spec.lastIndexOf('@'))));
  const warnings = Object.keys(allowScripts ?? {})
    .filter((name) => !names.has(name))
    .map((name) => `allowScripts lists ${name}, but no locked package of that name has an install script`);
  return { problems, warnings, found };
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parseVersion(text) {
  const match = VERSION.exec(text);
  if (!match) return null;
  return { tuple: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] ?? null };
}

function compareTuple(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function comparePre(a, b) {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    if (x[i] === y[i]) continue;
    const numeric = /^\d+$/.test(x[i]) && /^\d+$/.test(y[i]);
    if (numeric) return Number(x[i]) - Number(y[i]);
    return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}

/** The spec's bare version range for an `npm:` alias, otherwise the spec itself. */
function rangeOf(spec) {
  return spec.startsWith('npm:') ? spec.slice(spec.lastIndexOf('@') + 1) : spec;
}

/** Whether `version` satisfies an exact, ^ or ~ range, as npm's semver would; null for any other range. */
export function satisfies(version, spec) {
  const range = rangeOf(spec);
  const operator = range[0] === '^' || range[0] === '~' ? range[0] : '';
  const base = parseVersion(range.slice(operator.length));
  const have = parseVersion(version);
  if (!base || !have) return null;
  if (operator === '') return compareTuple(have.tuple, base.tuple) === 0 && have.pre === base.pre;
  if (have.pre !== null && (base.pre === null || compareTuple(have.tuple, base.tuple) !== 0)) return false;
  const order = compareTuple(have.tuple, base.tuple) || comparePre(have.pre, base.pre);
  if (order < 0) return false;
  const [major, minor, patch] = base.tuple;
  let upper;
  if (operator === '~') upper = [major, minor + 1, 0];
  else if (major > 0) upper = [major + 1, 0, 0];
  else if (minor > 0) upper = [0, minor + 1, 0];
  else upper = [0, 0, patch + 1];
  return compareTuple(have.tuple, upper) < 0;
}

/** The lock entry that Node's resolution finds for `name` from the folder `from`. */
function resolveInLock(lock, from, name) {
  let dir = from;
  for (;;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    const entry = lock.packages?.[key];
    if (entry) return entry.link ? (lock.packages?.[entry.resolved] ?? entry) : entry;
    if (dir === '') return null;
    const cut = dir.lastIndexOf('/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/**
 * Rule 3: the lock matches the package.json files. `manifests` maps each folder ('' for the root, then each
 * workspace) to its package.json. Each must have its lock entry with the same declared dependencies, each
 * workspace its link, and each declared dependency a locked package that satisfies its range.
 */
export function checkSync({ lock, manifests }) {
  const problems = [];
  const packages = lock.packages ?? {};
  for (const [folder, manifest] of Object.entries(manifests)) {
    const file = folder === '' ? 'package.json' : `${folder}/package.json`;
    const entry = packages[folder];
    if (!entry) {
      problems.push(`${manifest.name ?? folder}: ${file} is not in package-lock.json (run npm install)`);
      continue;
    }
    if (folder !== '') {
      const link = packages[`node_modules/${manifest.name}`];
      if (!link?.link || link.resolved !== folder) {
        problems.push(`${manifest.name}: the lock does not link node_modules/${manifest.name} to ${folder}`);
      }
    }
    for (const type of DEP_TYPES) {
      const declared = manifest[type] ?? {};
      const locked = entry[type] ?? {};
      for (const [name, spec] of Object.entries(declared)) {
        if (!(name in locked)) {
          problems.push(
            `${name}: ${file} declares it in ${type} (${spec}), the lock does not (run npm install)`,
          );
        } else if (locked[name] !== spec) {
          problems.push(`${name}: ${file} declares ${spec} in ${type}, the lock records ${locked[name]}`);
        }
        if (type === 'peerDependencies') continue;
        const target = resolveInLock(lock, folder, name);
        if (!target) {
          if (type !== 'optionalDependencies')
            problems.push(`${name}: declared in ${file}, missing from the lock`);
          continue;
        }
        if (spec === '*' || !target.version) continue;
        if (satisfies(target.version, spec) === false) {
          problems.push(`${name}@${target.version}: locked version does not satisfy ${spec} of ${file}`);
        }
      }
      for (const name of Object.keys(locked)) {
        if (!(name in declared))
          problems.push(`${name}: the lock records it in ${type} of ${file}, which does not`);
      }
    }
  }
  return problems;
}

const PINNED = /^[~^]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Rule 4: a declared dependency is an exact version or a ^ or ~ range (also behind an `npm:` alias); `*`,
 * `latest`, open ranges, git, URL and file specs are refused, except for the repository's own workspaces.
 * Peer dependencies state compatibility, not what is installed, and are not checked.
 */
export function checkRanges({ manifests }) {
  const workspaces = new Set(
    Object.entries(manifests)
      .filter(([folder]) => folder !== '')
      .map(([, manifest]) => manifest.name),
  );
  const problems = [];
  for (const [folder, manifest] of Object.entries(manifests)) {
    const file = folder === '' ? 'package.json' : `${folder}/package.json`;
    for (const type of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      for (const [name, spec] of Object.entries(manifest[type] ?? {})) {
        if (workspaces.has(name)) continue;
        const range = spec.startsWith('npm:') ? spec.slice(spec.lastIndexOf('@') + 1) : spec;
        if (!PINNED.test(range)) {
          problems.push(`${name}: ${file} declares "${spec}" in ${type}; use an exact version, ^ or ~`);
        }
      }
    }
  }
  return problems;
}

/** The folders the root's `workspaces` patterns name (`dir/*` or a plain folder) that hold a package.json. */
export function workspaceFolders({ root, patterns }) {
  const folders = [];
  for (const pattern of patterns ?? []) {
    const candidates = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((dirent) => dirent.isDirectory())
          .map((dirent) => `${pattern.slice(0, -2)}/${dirent.name}`)
      : [pattern];
    for (const folder of candidates) if (existsSync(join(root, folder, 'package.json'))) folders.push(folder);
  }
  return folders.sort();
}

/** npm's own check of the lock against the package.json files (missing or invalid), offline and without installing. */
export function npmLsProblems({ root }) {
  const args = ['ls', '--all', '--package-lock-only', '--offline', '--json'];
  const execPath = process.env.npm_execpath;
  const result =
    execPath && /\.[cm]?js$/.test(execPath)
      ? spawnSync(process.execPath, [execPath, ...args], { cwd: root, encoding: 'utf8' })
      : spawnSync('npm', args, { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  try {
    return (JSON.parse(result.stdout).problems ?? []).map((problem) => `npm ls: ${problem}`);
  } catch {
    return [`npm ls --package-lock-only could not run: ${(result.stderr || String(result.error)).trim()}`];
  }
}

/** Every rule against the repository at `root`. */
export function checkRepo({ root, npmLs = true }) {
  const readJson = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
  const lock = readJson('package-lock.json');
  const rootManifest = readJson('package.json');
  const manifests = { '': rootManifest };
  for (const folder of workspaceFolders({ root, patterns: rootManifest.workspaces })) {
    manifests[folder] = readJson(`${folder}/package.json`);
  }
  const scripts = checkInstallScripts({
    lock,
    allowScripts: rootManifest.allowScripts,
    readInstalled: (key) => readInstalledScripts({ root, key }),
  });
  const problems = [
    ...checkSources({ lock }),
    ...scripts.problems,
    ...checkSync({ lock, manifests }),
    ...checkRanges({ manifests }),
    ...(npmLs ? npmLsProblems({ root }) : []),
  ];
  const entries = Object.entries(lock.packages ?? {}).filter(([key]) => key !== '');
  const stats = {
    packages: entries.filter(([key, entry]) => key.includes('node_modules/') && !entry.link).length,
    links: entries.filter(([, entry]) => entry.link).length,
    manifests: Object.keys(manifests).length,
    installScripts: scripts.found,
  };
  return { problems, warnings: scripts.warnings, stats };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { problems, warnings, stats } = checkRepo({ root });
  for (const warning of warnings) console.warn(`check-deps warning: ${warning}`);
  for (const problem of problems) console.error(`check-deps: ${problem}`);
  const summary =
    `${stats.packages} locked packages, ${stats.links} workspace links, ${stats.manifests} package.json files; ` +
    `install scripts: ${stats.installScripts.join(', ') || 'none'}`;
  if (problems.length > 0) {
    console.error(`check-deps: ${problems.length} problem(s) in ${summary}`);
    process.exit(1);
  }
  console.log(`check-deps: ok: ${summary}`);
}
