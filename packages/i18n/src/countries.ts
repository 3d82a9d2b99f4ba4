import countries from 'i18n-iso-countries';
import type { CountryCode } from 'libphonenumber-js';
import { getCountries, getCountryCallingCode, Metadata } from 'libphonenumber-js';

/** Country entry (spec 3), generated from libphonenumber-js metadata, ISO 3166 and Intl. */
export interface TCountryEntry {
  /** ISO 3166-1 numeric code, zero-padded to three digits. */
  countryCode: string;
  twoCharCode: string;
  /** International dialling prefixes in the 00 style; first is the primary one. */
  code: string;
  codes: string[];
  name: string;
  nameZh: string;
  nameEn: string;
  flag: string;
  'flag-c': string;
}

export interface TCountryGroup {
  name: string;
  data: TCountryEntry[];
}

/**
 * Territories that ISO 3166 has no numeric code for; they are parts of Saint Helena,
 * Ascension and Tristan da Cunha (654), and flag-icons names their flags sh-ac and sh-ta.
 */
const NUMERIC_FALLBACK: Record<string, { numeric: string; flag: string }> = {
  AC: { numeric: '654', flag: 'sh-ac' },
  TA: { numeric: '654', flag: 'sh-ta' },
};

/** Expands a leading-digits pattern such as "8[024]9|787" into its three-digit area codes. */
export function expandAreaCodes(pattern: string): string[] {
  const out: string[] = [];
  for (const alternative of pattern.split('|')) {
    let prefixes = [''];
    const tokens = alternative.match(/\[[^\]]+\]|\d/g) ?? [];
    if (tokens.join('') !== alternative) continue;
    for (const token of tokens) {
      const digits = token.startsWith('[') ? expandClass(token.slice(1, -1)) : [token];
      prefixes = prefixes.flatMap((p) => digits.map((d) => p + d));
    }
    out.push(...prefixes.filter((p) => p.length === 3));
  }
  return [...new Set(out)].sort();
}

function expandClass(body: string): string[] {
  const digits: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const from = body[i] as string;
    if (body[i + 1] === '-' && body[i + 2]) {
      for (let d = Number(from); d <= Number(body[i + 2]); d++) digits.push(String(d));
      i += 2;
    } else digits.push(from);
  }
  return digits;
}

/**
 * Dialling codes of a region in the 00 style. The North American Numbering Plan shares +1, so
 * its members other than the US and Canada are told apart by area code (Puerto Rico: 001787, 001939).
 */
export function diallingCodes(region: CountryCode, metadata: Metadata = new Metadata()): string[] {
  const calling = getCountryCallingCode(region);
  if (calling === '1' && region !== 'US' && region !== 'CA') {
    metadata.selectNumberingPlan(region);
    const leading = metadata.numberingPlan?.leadingDigits();
    const areas = typeof leading === 'string' ? expandAreaCodes(leading) : [];
    if (areas.length > 0) return areas.map((area) => `001${area}`);
  }
  return [`00${calling}`];
}

let cached: TCountryEntry[] | null = null;

/** Every region with a calling code, with names in Chinese and English. */
export function countryEntries(flagBase = '/flags'): TCountryEntry[] {
  if (cached) return cached;
  const zh = new Intl.DisplayNames(['zh-CN'], { type: 'region' });
  const en = new Intl.DisplayNames(['en'], { type: 'region' });
  const metadata = new Metadata();
  cached = getCountries()
    .map((region) => {
      const fallback = NUMERIC_FALLBACK[region];
      const numeric = countries.alpha2ToNumeric(region) ?? fallback?.numeric ?? '';
      const flagName = fallback?.flag ?? region.toLowerCase();
      const codes = diallingCodes(region, metadata);
      const nameEn = en.of(region) ?? region;
      return {
        countryCode: numeric.padStart(3, '0'),
        twoCharCode: region,
        code: codes[0] as string,
        codes,
        name: nameEn,
        nameZh: zh.of(region) ?? nameEn,
        nameEn,
        flag: `${flagBase}/4x3/${flagName}.svg`,
        'flag-c': `${flagBase}/1x1/${flagName}.svg`,
      };
    })
    .sort((a, b) => a.nameEn.localeCompare(b.nameEn, 'en'));
  return cached;
}

/** Localized country names through Intl.DisplayNames, for any route language. */
export function localizedCountryName(twoCharCode: string, intlLocale: string): string {
  try {
    return new Intl.DisplayNames([intlLocale], { type: 'region' }).of(twoCharCode) ?? twoCharCode;
  } catch {
    return twoCharCode;
  }
}

/**
 * The calling-code list grouped A to Z by the English name's first letter (spec 3), with `name`
 * in the requested list language: 'zh' for the Chinese list, anything else for English.
 */
export function groupedCountries(list: 'zh' | 'en', flagBase = '/flags'): TCountryGroup[] {
  const groups = new Map<string, TCountryEntry[]>();
  for (const entry of countryEntries(flagBase)) {
    const letter = entry.nameEn
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .charAt(0)
      .toUpperCase();
    const named = { ...entry, name: list === 'zh' ? entry.nameZh : entry.nameEn };
    groups.set(letter, [...(groups.get(letter) ?? []), named]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, data]) => ({ name, data }));
}
