/** The languages and themes of the back office, and how the first ones are picked. */
export const ADMIN_LOCALES = ['zh-CN', 'en'] as const;
export type TAdminLocale = (typeof ADMIN_LOCALES)[number];
export const LANG_STORAGE_KEY = 'admin_lang';

export const ADMIN_THEMES = ['navy', 'dark', 'white'] as const;
export type TAdminTheme = (typeof ADMIN_THEMES)[number];
export const THEME_STORAGE_KEY = 'admin_theme';
export const DEFAULT_THEME: TAdminTheme = 'navy';

export const SIDEBAR_STORAGE_KEY = 'admin_sidebar';

export function isAdminLocale(value: unknown): value is TAdminLocale {
  return typeof value === 'string' && (ADMIN_LOCALES as readonly string[]).includes(value);
}

export function isAdminTheme(value: unknown): value is TAdminTheme {
  return typeof value === 'string' && (ADMIN_THEMES as readonly string[]).includes(value);
}

/** The remembered language; otherwise zh-CN, unless the browser language is set and is not Chinese. */
export function pickInitialLocale(
  stored: string | null | undefined,
  browserLanguage: string | null | undefined,
): TAdminLocale {
  if (isAdminLocale(stored)) return stored;
  if (browserLanguage && !browserLanguage.trim().toLowerCase().startsWith('zh')) return 'en';
  return 'zh-CN';
}

export function pickInitialTheme(stored: string | null | undefined): TAdminTheme {
  return isAdminTheme(stored) ? stored : DEFAULT_THEME;
}

/** localStorage that never throws (private mode, disabled storage). */
export function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}
