import { createHash } from 'node:crypto';
import {
  compareSemver,
  PACKAGE_OPTIONAL_MODULES,
  packageAllows,
  parseSemver,
} from '@broker/contracts/admin/audit-rules';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrate';
import { csvCell, likeLiteral } from '../../src/modules/audit/admin/operations';
import { GENESIS_HASH, type TChainLink, verifyChain, walkChain } from '../../src/modules/audit/chain';
import { type TRelease, updateVerdict } from '../../src/modules/entitlements/versions';
import { statsRange } from '../../src/modules/reporting/statistics';
import { freshDatabaseUrl } from '../helpers';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A well-formed chain of n links, as the walk reads it. */
function chain(n: number): TChainLink[] {
  const links: TChainLink[] = [];
  let previous = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const hash = sha(`${seq}:${previous}`);
    links.push({
      id: String(100 + seq),
      seq,
      createdAt: '2026-01-01T00:00:00.000Z',
      prevHash: previous,
      hash,
      recomputed: hash,
    });
    previous = hash;
  }
  return links;
}

describe('walking the chain', () => {
  const start = { seq: 0, hash: GENESIS_HASH };

  it('passes a whole chain and continues from a cursor page after page', () => {
    const links = chain(6);
    const first = walkChain(links.slice(0, 3), start);
    expect(first.broken).toBeNull();
    const second = walkChain(links.slice(3), first.cursor);
    expect(second).toEqual({ cursor: { seq: 6, hash: links[5]?.hash }, broken: null });
    expect(walkChain([], start)).toEqual({ cursor: start, broken: null });
  });

  it('names an entry whose content no longer matches its hash', () => {
    const links = chain(5);
    links[2] = { ...(links[2] as TChainLink), recomputed: sha('changed') };
    expect(walkChain(links, start)).toMatchObject({
      cursor: { seq: 2 },
      broken: { seq: 3, id: '103', reason: 'content' },
    });
  });

  it('names the entry after a removed one, and a first entry that is not number 1', () => {
    const links = chain(5);
    expect(walkChain([...links.slice(0, 2), ...links.slice(3)], start).broken).toMatchObject({
      seq: 4,
      reason: 'missing',
    });
    expect(walkChain(links.slice(1), start).broken).toMatchObject({ seq: 2, reason: 'missing' });
  });

  it('names an entry that does not point at the hash before it', () => {
    const links = chain(4);
    const forged = sha('forged');
    links[1] = { ...(links[1] as TChainLink), hash: forged, recomputed: forged };
    expect(walkChain(links, start).broken).toMatchObject({ seq: 3, reason: 'link' });
  });
});

describe('semantic versions', () => {
  it('parses versions and refuses what is not one', () => {
    expect(parseSemver('1.20.3-rc.1')).toEqual({ major: 1, minor: 20, patch: 3, prerelease: ['rc', '1'] });
    for (const bad of ['1.2', '01.2.3', '1.2.3+build.5', 'v1.2.3', '1.2.3-', '1.2.3-01', '1..3', ''])
      expect(parseSemver(bad), bad).toBeNull();
  });

  it('orders versions by semver precedence, pre-releases below their release', () => {
    const ordered = [
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let i = 0; i < ordered.length; i++)
      for (let j = 0; j < ordered.length; j++) {
        const a = ordered[i] as string;
        const b = ordered[j] as string;
        expect(compareSemver(a, b), `${a} vs ${b}`).toBe(Math.sign(i - j));
      }
    expect(() => compareSemver('1.0', '1.0.0')).toThrow();
  });
});

describe('the apps update check', () => {
  const release = (version: string, extra: Partial<TRelease> = {}): TRelease => ({
    version,
    buildNumber: 1,
    forceUpdate: false,
    minSupportedVersion: null,
    notes: { en: `Notes ${version}`, 'zh-CN': `说明 ${version}` },
    downloadUrl: 'https://example.com/app',
    releasedAt: '2026-01-01T00:00:00Z',
    ...extra,
  });
  const now = Date.parse('2026-06-01T00:00:00Z');
  const releases = [
    release('1.0.0'),
    release('1.1.0', { forceUpdate: true }),
    release('1.2.0', { minSupportedVersion: '1.0.5' }),
    release('2.0.0', { releasedAt: '2026-12-01T00:00:00Z' }),
  ];

  it.each([
    ['1.2.0', false, false],
    ['1.1.0', true, false],
    ['1.0.7', true, true], // a forced release (1.1.0) is above it
    ['1.0.0', true, true], // below the minimum supported version and the forced release
    ['3.0.0', false, false], // ahead of every release (a test build)
  ])('an app on %s: update %s, forced %s', (current, available, forced) => {
    const verdict = updateVerdict(releases, current, 'en', now);
    expect(verdict.latest?.version).toBe('1.2.0'); // 2.0.0 is not released yet
    expect(verdict).toMatchObject({ updateAvailable: available, forced, minSupportedVersion: '1.0.5' });
  });

  it('answers notes in the language asked, else English, and nothing without releases', () => {
    expect(updateVerdict(releases, '1.0.0', 'zh-CN', now).latest?.notes).toBe('说明 1.2.0');
    expect(updateVerdict(releases, '1.0.0', 'de', now).latest?.notes).toBe('Notes 1.2.0');
    expect(updateVerdict([], '1.0.0', 'en', now)).toEqual({
      latest: null,
      minSupportedVersion: null,
      updateAvailable: false,
      forced: false,
    });
  });
});

describe('small rules of the area', () => {
  it('quotes CSV cells and defuses spreadsheet formulas', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"\n')).toBe('"say ""hi""\n"');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('-6015')).toBe("'-6015");
    expect(csvCell(-5)).toBe('-5');
  });

  it('takes LIKE wildcards literally', () => {
    expect(likeLiteral('a_b%c\\')).toBe('a\\_b\\%c\\\\');
  });

  it('lets packages switch optional modules only', () => {
    expect(PACKAGE_OPTIONAL_MODULES).toContain('versions');
    expect(PACKAGE_OPTIONAL_MODULES).not.toContain('roles');
    expect(PACKAGE_OPTIONAL_MODULES).not.toContain('brokers');
    expect(PACKAGE_OPTIONAL_MODULES).not.toContain('dashboard');
    expect(packageAllows('versions.edit', ['users'])).toBe(false);
    expect(packageAllows('users.adjust', ['users'])).toBe(true);
    expect(packageAllows('roles.edit', [])).toBe(true);
    expect(packageAllows('operations.export', [])).toBe(true);
  });

  it('reads statistics day ranges in UTC, 30 days by default, at most 366', () => {
    const now = Date.parse('2026-03-10T23:59:00Z');
    expect(statsRange({}, now)).toMatchObject({ from: '2026-02-09', to: '2026-03-10', days: 30 });
    expect(statsRange({ from: '2024-01-01', to: '2024-12-31' }, now).days).toBe(366);
    expect(() => statsRange({ from: '2024-01-01', to: '2025-01-01' }, now)).toThrow();
    expect(() => statsRange({ from: '2026-03-02', to: '2026-03-01' }, now)).toThrow();
  });
});

/** The same checks on in-memory PGlite, and on the PostgreSQL server when DATABASE_URL names one. */
const servers: [string, () => Promise<{ url: string; drop: () => Promise<void> }>][] = [
  ['PGlite', async () => ({ url: 'memory://', drop: async () => undefined })],
];
if (process.env.DATABASE_URL?.startsWith('postgres')) servers.push(['PostgreSQL', freshDatabaseUrl]);

describe.each(servers)('the chain in the database (%s)', (_name, fresh) => {
  let database: TDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const target = await fresh();
    drop = target.drop;
    database = await openDatabase({ url: target.url, dataDir: '/tmp/audit-chain-unit' });
    // Everything before migration 015, with entries already written, then 015 itself.
    const files = readMigrations();
    await migrate(
      database,
      files.filter((f) => f.version < 15),
    );
    await database.exec(`
      insert into tenants (id, slug, name) values ('ta', 'ta', 'A'), ('tb', 'tb', 'B');
      insert into audit_events (tenant_id, actor_kind, actor_id, action, details) values
        ('ta', 'user', 'u1', 'user.signin', '{"b": 2, "a": 1}'),
        ('tb', 'staff', 's1', 'staff.signin', '{}'),
        ('ta', 'user', 'u1', 'user.password.change', '{}');`);
    await migrate(database, files);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('chains the entries written before the migration, per broker in write order', async () => {
    const rows = await sql<{ tenant_id: string; seq: string | number; action: string; prev_hash: string }>`
      select tenant_id, seq, action, prev_hash from audit_events order by tenant_id, seq`.execute(
      database.db,
    );
    expect(rows.rows.map((r) => [r.tenant_id, Number(r.seq), r.action])).toEqual([
      ['ta', 1, 'user.signin'],
      ['ta', 2, 'user.password.change'],
      ['tb', 1, 'staff.signin'],
    ]);
    expect(await verifyChain({ db: database.db, tenantId: 'ta' })).toMatchObject({
      intact: true,
      entries: 2,
    });
    expect(await verifyChain({ db: database.db, tenantId: 'tb' })).toMatchObject({
      intact: true,
      entries: 1,
    });
    expect(await verifyChain({ db: database.db, tenantId: 'nobody' })).toMatchObject({
      intact: true,
      entries: 0,
      headHash: null,
    });
  });

  it('hashes exactly the documented text, so anyone can check an entry', async () => {
    await database.exec(`insert into tenants (id, slug, name) values ('tc', 'tc', 'C');
      insert into audit_events (tenant_id, actor_kind, actor_id, action, target, ip, details, created_at)
      values ('tc', 'staff', 's9', 'versions.update', 'android 2.1.0', '203.0.113.9',
        '{"zh": "中文", "a": [true, null, 1.5], "changes": {"x": {"to": 2, "from": 1}}}',
        '2026-01-31T08:15:00.123456Z');`);
    const row = (
      await sql<{ hash: string; prev_hash: string }>`
        select hash, prev_hash from audit_events where tenant_id = 'tc'`.execute(database.db)
    ).rows[0];
    // jsonb prints object keys shortest first, then in byte order, with ", " and ": " separators.
    const text =
      '[1, "tc", 1, "2026-01-31T08:15:00.123456Z", "staff", "s9", "versions.update", "android 2.1.0", ' +
      '"203.0.113.9", {"a": [true, null, 1.5], "zh": "中文", "changes": {"x": {"to": 2, "from": 1}}}, ' +
      `"${GENESIS_HASH}"]`;
    expect(row?.prev_hash).toBe(GENESIS_HASH);
    expect(row?.hash).toBe(sha(text));
  });

  it('refuses to change, remove or empty entries', async () => {
    for (const statement of [
      "update audit_events set action = 'x'",
      "delete from audit_events where tenant_id = 'ta'",
      'truncate audit_events',
    ])
      await expect(database.exec(statement), statement).rejects.toThrow(/append-only/);
    expect(await verifyChain({ db: database.db, tenantId: 'ta' })).toMatchObject({
      intact: true,
      entries: 2,
    });
  });
});
