import { describe, expect, it } from 'vitest';
import {
  axisLabel,
  formatDecimal,
  niceTicks,
  presetRange,
  rangeDays,
  shortHash,
} from '../../src/areas/audit/format';
import { checkPackageDraft } from '../../src/areas/audit/PackagesPage';
import { checkVersionDraft } from '../../src/areas/audit/VersionsPage';

describe('audit pages: pure helpers', () => {
  it('builds UTC day ranges for the presets and counts days both ends included', () => {
    const now = Date.parse('2026-03-01T02:00:00Z');
    expect(presetRange('7d', now)).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(presetRange('90d', now)).toEqual({ from: '2025-12-02', to: '2026-03-01' });
    expect(rangeDays('2024-02-28', '2024-03-01')).toBe(3);
    expect(rangeDays('2026-01-02', '2026-01-01')).toBe(0);
    expect(rangeDays('nope', '2026-01-01')).toBe(0);
  });

  it('makes round axis ticks that cover the data, whole steps for counts', () => {
    expect(niceTicks(0, 0)).toEqual([0, 1]);
    expect(niceTicks(0, 87)).toEqual([0, 50, 100]);
    expect(niceTicks(-30, 70)).toEqual([-50, 0, 50, 100]);
    expect(niceTicks(0, 1)).toEqual([0, 0.5, 1]);
    expect(niceTicks(0, 1, 4, true)).toEqual([0, 1]);
    expect(niceTicks(0, 3, 4, true)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0, 0.03)).toEqual([0, 0.01, 0.02, 0.03]);
  });

  it('labels axis ticks with the decimals their step needs, compact when large', () => {
    expect([0, 0.01, 0.02].map((v) => axisLabel(v, 0.01, 'en'))).toEqual(['0.00', '0.01', '0.02']);
    expect(axisLabel(0.5, 0.5, 'en')).toBe('0.5');
    expect(axisLabel(2500, 500, 'en')).toBe('2,500');
    expect(axisLabel(25_000, 5000, 'en')).toBe('25K');
    expect(axisLabel(-40, 20, 'en')).toBe('-40');
  });

  it('formats decimal strings without float rounding and shortens hashes', () => {
    expect(formatDecimal('1234567.125', 'en', 2)).toBe('1,234,567.13');
    expect(formatDecimal('0.1', 'en', 2)).toBe('0.10');
    expect(shortHash(`${'a'.repeat(58)}bcdef1`)).toBe(`${'a'.repeat(10)}…bcdef1`);
    expect(shortHash(null)).toBe('');
  });

  it('checks a release before asking the server', () => {
    const draft = {
      platform: 'android' as const,
      version: '2.0.0',
      buildNumber: '200',
      forceUpdate: false,
      minSupportedVersion: '',
      notes: { 'zh-CN': '说明', en: 'Notes' },
      downloadUrl: 'https://example.com/app.apk',
      releasedAt: '2026-01-01T10:00',
    };
    expect(checkVersionDraft(draft, [])).toEqual({});
    const existing = { id: 'x', platform: 'android', version: '2.0.0' } as never;
    expect(checkVersionDraft(draft, [existing])).toEqual({
      version: 'admin.audit.versions.errors.duplicate',
    });
    expect(checkVersionDraft({ ...draft, id: 'x' } as never, [existing])).toEqual({});
    expect(
      checkVersionDraft(
        {
          ...draft,
          version: 'v2',
          buildNumber: '-1',
          minSupportedVersion: '1.x',
          downloadUrl: 'http://example.com',
          notes: { en: ' ' },
          releasedAt: '',
        },
        [],
      ),
    ).toEqual({
      version: 'admin.audit.versions.errors.semver',
      buildNumber: 'admin.audit.versions.errors.build',
      minSupportedVersion: 'admin.audit.versions.errors.semver',
      downloadUrl: 'admin.audit.versions.errors.https',
      'notes.zh-CN': 'admin.audit.versions.errors.notes',
      'notes.en': 'admin.audit.versions.errors.notes',
      releasedAt: 'admin.audit.versions.errors.date',
    });
    expect(checkVersionDraft({ ...draft, minSupportedVersion: '2.1.0' }, [])).toEqual({
      minSupportedVersion: 'admin.audit.versions.errors.minAbove',
    });
  });

  it('checks a package before asking the server: a name, whole-number limits, at least one staff', () => {
    const limits = { staff: '', customers: '', tradingAccounts: '', symbols: '' };
    expect(checkPackageDraft({ name: 'Basic', description: '', modules: [], limits })).toEqual({});
    expect(
      checkPackageDraft({
        name: ' ',
        description: '',
        modules: [],
        limits: { staff: '0', customers: '1.5', tradingAccounts: '0', symbols: 'x' },
      }),
    ).toEqual({
      name: 'admin.audit.packages.errors.name',
      'limits.staff': 'admin.audit.packages.errors.staff',
      'limits.customers': 'admin.audit.packages.errors.limit',
      'limits.symbols': 'admin.audit.packages.errors.limit',
    });
  });
});
