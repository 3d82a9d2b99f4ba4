import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkInstallScripts,
  checkRanges,
  checkRepo,
  checkSources,
  checkSync,
  satisfies,
  type TLockEntry,
  type TLockfile,
  type TManifest,
} from '../check-deps.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHA512 =
  'sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==';

function registryEntry(overrides: Partial<TLockEntry> = {}): TLockEntry {
  return {
    version: '1.2.3',
    resolved: 'https://registry.npmjs.org/left-pad/-/left-pad-1.2.3.tgz',
    integrity: SHA512,
    ...overrides,
  };
}

/** A root with one workspace (`packages/lib`, named `@x/lib`) that depends on left-pad. */
function lockWith(packages: Record<string, TLockEntry> = {}): TLockfile {
  return {
    lockfileVersion: 3,
    packages: {
      '': { name: 'root', workspaces: ['packages/*'] },
      'packages/lib': { name: '@x/lib', version: '0.1.0', dependencies: { 'left-pad': '^1.2.0' } },
      'node_modules/@x/lib': { resolved: 'packages/lib', link: true },
      'node_modules/left-pad': registryEntry(),
      ...packages,
    },
  };
}

function manifestsWith(lib: Partial<TManifest> = {}): Record<string, TManifest> {
  return {
    '': { name: 'root', workspaces: ['packages/*'] },
    'packages/lib': { name: '@x/lib', version: '0.1.0', dependencies: { 'left-pad': '^1.2.0' }, ...lib },
  };
}

describe('checkSources', () => {
  it('passes registry packages with a sha512 hash, workspace links and entries npm left without resolved', () => {
    const lock = lockWith({ 'node_modules/b': registryEntry({ resolved: undefined, version: '2.0.0' }) });
    expect(checkSources({ lock })).toEqual([]);
  });

  it('fails a tarball from another registry, over http, from git or a file outside the repository', () => {
    const lock = lockWith({
      'node_modules/a': registryEntry({ resolved: 'https://registry.example.com/a/-/a-1.2.3.tgz' }),
      'node_modules/b': registryEntry({ resolved: 'http://registry.npmjs.org/b/-/b-1.2.3.tgz' }),
      'node_modules/c': registryEntry({ resolved: 'git+ssh://git@github.com/x/c.git#abc123' }),
      'node_modules/d': registryEntry({ resolved: 'file:../d-1.2.3.tgz' }),
      'node_modules/e': { resolved: '../elsewhere/e', link: true },
    });
    const problems = checkSources({ lock });
    expect(problems).toHaveLength(5);
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      expect(problems.some((problem) => problem.includes(`(node_modules/${name})`))).toBe(true);
    }
  });

  it('fails a lock of the old format, which lists no packages to check', () => {
    expect(checkSources({ lock: { lockfileVersion: 1 } as unknown as TLockfile })).toHaveLength(1);
  });

  it("fails a registry tarball that is another package's", () => {
    const lock = lockWith({ 'node_modules/b': registryEntry() });
    expect(checkSources({ lock })).toEqual([
      expect.stringContaining(
        "b@1.2.3 (node_modules/b): tarball https://registry.npmjs.org/left-pad/-/left-pad-1.2.3.tgz is not b's own",
      ),
    ]);
  });

  it('fails a package without integrity or with only a sha1 hash', () => {
    const lock = lockWith({
      'node_modules/left-pad': registryEntry({ integrity: undefined }),
      'node_modules/old': registryEntry({
        resolved: undefined,
        integrity: 'sha1-3lYaNlgwXpzg39WfU5C8LBwWiT8=',
      }),
    });
    expect(checkSources({ lock })).toEqual([
      'left-pad@1.2.3 (node_modules/left-pad): no integrity hash in the lock',
      'old@1.2.3 (node_modules/old): integrity sha1-3lYaNlgwXpzg39WfU5C8LBwWiT8= is not a sha512 hash',
    ]);
  });
});

describe('checkInstallScripts', () => {
  it('fails an install script that allowScripts does not list, and one whose pinned version differs', () => {
    const lock = lockWith({
      'node_modules/evil': registryEntry({ resolved: undefined, hasInstallScript: true }),
      'node_modules/argon2': registryEntry({
        resolved: undefined,
        version: '0.46.0',
        hasInstallScript: true,
      }),
      'node_modules/esbuild': registryEntry({
        resolved: undefined,
        version: '0.28.2',
        hasInstallScript: true,
      }),
    });
    const result = checkInstallScripts({ lock, allowScripts: { esbuild: true, argon2: '0.45.1' } });
    expect(result.found).toEqual(['evil@1.2.3', 'argon2@0.46.0', 'esbuild@0.28.2']);
    expect(result.problems).toEqual([
      expect.stringMatching(
        /^evil@1\.2\.3 \(node_modules\/evil\): .*evil is not in package.json's allowScripts/,
      ),
      expect.stringMatching(/^argon2@0\.46\.0 .*allowScripts pins argon2 to 0\.45\.1/),
    ]);
  });

  it('fails an installed package whose install script or binding.gyp the lock does not record', () => {
    const lock = lockWith();
    const result = checkInstallScripts({
      lock,
      allowScripts: {},
      readInstalled: (key) => (key === 'node_modules/left-pad' ? ['postinstall'] : []),
    });
    expect(result.problems).toEqual([
      expect.stringContaining('installed copy has install scripts (postinstall) the lock does not record'),
      expect.stringContaining('left-pad is not in'),
    ]);
  });

  it('warns about an allowScripts entry that no package needs any more', () => {
    expect(checkInstallScripts({ lock: lockWith(), allowScripts: { gone: true } }).warnings).toEqual([
      'allowScripts lists gone, but no locked package of that name has an install script',
    ]);
  });
});

describe('checkSync', () => {
  it('passes a lock that records what the package.json files declare', () => {
    expect(checkSync({ lock: lockWith(), manifests: manifestsWith() })).toEqual([]);
  });

  it('fails a dependency declared in a workspace but missing from the lock', () => {
    const manifests = manifestsWith({ dependencies: { 'left-pad': '^1.2.0', zod: '^4.0.0' } });
    expect(checkSync({ lock: lockWith(), manifests })).toEqual([
      'zod: packages/lib/package.json declares it in dependencies (^4.0.0), the lock does not (run npm install)',
      'zod: declared in packages/lib/package.json, missing from the lock',
    ]);
  });

  it('fails a changed range that the locked version does not satisfy, and a dependency only the lock has', () => {
    const lock = lockWith({ '': { name: 'root', devDependencies: { tsx: '4.0.0' } } });
    const manifests = manifestsWith({ dependencies: { 'left-pad': '^2.0.0' } });
    expect(checkSync({ lock, manifests })).toEqual([
      'tsx: the lock records it in devDependencies of package.json, which does not',
      'left-pad: packages/lib/package.json declares ^2.0.0 in dependencies, the lock records ^1.2.0',
      'left-pad@1.2.3: locked version does not satisfy ^2.0.0 of packages/lib/package.json',
    ]);
  });
});

describe('checkRanges', () => {
  it('refuses *, latest, open ranges and git specs, but not workspaces', () => {
    const manifests = manifestsWith({
      dependencies: {
        '@x/lib': '*',
        a: '*',
        b: 'latest',
        c: '>=1.0.0',
        d: 'github:x/d',
        e: '~1.2.3',
        f: '1.0.0',
      },
    });
    expect(checkRanges({ manifests }).map((problem) => problem.split(':')[0])).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('satisfies', () => {
  it('follows semver for exact, caret and tilde ranges', () => {
    expect(satisfies('1.4.0', '^1.2.3')).toBe(true);
    expect(satisfies('2.0.0', '^1.2.3')).toBe(false);
    expect(satisfies('0.2.9', '^0.2.3')).toBe(true);
    expect(satisfies('0.3.0', '^0.2.3')).toBe(false);
    expect(satisfies('1.2.9', '~1.2.3')).toBe(true);
    expect(satisfies('1.3.0', '~1.2.3')).toBe(false);
    expect(satisfies('1.3.0-beta.1', '^1.2.3')).toBe(false);
    expect(satisfies('1.2.3-beta.2', '^1.2.3-beta.1')).toBe(true);
    expect(satisfies('1.2.3', '>=1.0.0')).toBeNull();
  });
});

describe("the repository's own lock", () => {
  it('passes every check, each install script allowed and each allowScripts entry used', () => {
    const { problems, warnings, stats } = checkRepo({ root: ROOT, npmLs: false });
    expect(problems).toEqual([]);
    expect(warnings).toEqual([]);
    expect(stats.packages).toBeGreaterThan(100);
    expect(stats.installScripts.length).toBeGreaterThan(0);
  });
});
