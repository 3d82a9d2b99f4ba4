/** Locale entry (spec 3): code used in routes, BCP 47 iso tag for Intl, native name, catalog file. */
export interface TLocaleEntry {
  code: string;
  iso: string;
  name: string;
  file: string;
  dir: 'ltr' | 'rtl';
}

const entry = (code: string, iso: string, name: string): TLocaleEntry => ({
  code,
  iso,
  name,
  file: `${code}.json`,
  dir: 'ltr',
});

/** The sixteen route languages of spec 2.1, in the order the language switch shows them. */
export const LOCALES: readonly TLocaleEntry[] = [
  entry('zh-CN', 'zh-CN', '简体中文'),
  entry('zh', 'zh-TW', '繁體中文'),
  entry('en', 'en', 'English'),
  entry('de', 'de', 'Deutsch'),
  entry('es', 'es', 'Español'),
  entry('fil', 'fil', 'Filipino'),
  entry('fr', 'fr', 'Français'),
  entry('hi', 'hi', 'हिन्दी'),
  entry('id', 'id', 'Bahasa Indonesia'),
  entry('ja', 'ja', '日本語'),
  entry('ko', 'ko', '한국어'),
  entry('pt', 'pt', 'Português'),
  entry('ru', 'ru', 'Русский'),
  entry('th', 'th', 'ไทย'),
  entry('tr', 'tr', 'Türkçe'),
  entry('vi', 'vi', 'Tiếng Việt'),
];

export const LOCALE_CODES: readonly string[] = LOCALES.map((l) => l.code);
export const DEFAULT_LOCALE = 'zh-CN';
/** Language of the 404 fallback (spec 2.1). */
export const FALLBACK_LOCALE = 'en';
/** Pseudo-locale for layout checks: not a route language, reachable with ?pseudo=1. */
export const PSEUDO_LOCALE = 'en-XA';
export const LANGUAGE_COOKIE = 'lang';
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function isLocaleCode(value: string | undefined | null): value is string {
  return !!value && LOCALE_CODES.includes(value);
}

export function localeEntry(code: string): TLocaleEntry {
  return LOCALES.find((l) => l.code === code) ?? (LOCALES[0] as TLocaleEntry);
}

/** The locale used for Intl formatting of a route language. */
export function intlLocale(code: string): string {
  return localeEntry(code).iso;
}
