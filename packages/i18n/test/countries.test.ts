import { describe, expect, it } from 'vitest';
import { countryEntries, expandAreaCodes, groupedCountries } from '../src/countries';

describe('calling-code reference list (spec 3)', () => {
  const all = countryEntries();
  const by = (code: string) => all.find((c) => c.twoCharCode === code)!;

  it('covers every region with a calling code, each with numeric code, flags and names', () => {
    expect(all.length).toBeGreaterThanOrEqual(240);
    for (const entry of all) {
      expect(entry.countryCode).toMatch(/^\d{3}$/);
      expect(entry.code).toMatch(/^00\d{1,6}$/);
      expect(entry.codes[0]).toBe(entry.code);
      expect(entry.flag).toMatch(/^\/flags\/4x3\/[a-z-]+\.svg$/);
      expect(entry['flag-c']).toMatch(/^\/flags\/1x1\/[a-z-]+\.svg$/);
      expect(entry.nameZh).not.toBe('');
    }
    expect(new Set(all.map((c) => c.twoCharCode)).size).toBe(all.length);
  });

  it('uses the 00 style with the spec examples', () => {
    expect(by('US')).toMatchObject({
      code: '001',
      countryCode: '840',
      nameZh: '美国',
      nameEn: 'United States',
    });
    expect(by('CA').code).toBe('001');
    expect(by('RU').code).toBe('007');
    expect(by('KZ').code).toBe('007');
    expect(by('PR').codes).toEqual(['001787', '001939']);
    expect(by('CN')).toMatchObject({ code: '0086', countryCode: '156' });
    expect(by('GB').code).toBe('0044');
    expect(by('AD').countryCode).toBe('020');
  });

  it('groups A to Z by English name, with the list language chosen', () => {
    const zh = groupedCountries('zh');
    const en = groupedCountries('en');
    expect(en.map((g) => g.name).join('')).toMatch(/^A.*Z$/);
    expect(
      en.every((g) => g.data.every((c) => c.nameEn.normalize('NFD').toUpperCase().startsWith(g.name))),
    ).toBe(true);
    expect(zh.flatMap((g) => g.data).find((c) => c.twoCharCode === 'JP')!.name).toBe('日本');
  });

  it('expands area-code patterns', () => {
    expect(expandAreaCodes('8[024]9|8001')).toEqual(['809', '829', '849']);
    expect(expandAreaCodes('787|939')).toEqual(['787', '939']);
    expect(expandAreaCodes('2[0-2]4')).toEqual(['204', '214', '224']);
  });
});
