import { loadAllCatalogs } from '@broker/i18n/catalogs';
import { DEFAULT_LOCALE, FALLBACK_LOCALE, isLocaleCode, LANGUAGE_COOKIE } from '@broker/i18n/locales';
import { negotiateLocale, parseAcceptLanguage } from '@broker/i18n/negotiate';
import { createTranslator, type TCatalog, type TTranslate } from '@broker/i18n/translator';

let catalogs: Record<string, TCatalog> | null = null;
const translators = new Map<string, TTranslate>();

export async function loadServerCatalogs(): Promise<Record<string, TCatalog>> {
  catalogs ??= await loadAllCatalogs();
  return catalogs;
}

/** Translator for server-made messages (errors); catalogs must be loaded at start. */
export function serverTranslator(locale: string): TTranslate {
  const code = isLocaleCode(locale) ? locale : DEFAULT_LOCALE;
  let t = translators.get(code);
  if (!t) {
    if (!catalogs) throw new Error('catalogs not loaded');
    t = createTranslator(code, catalogs[code] ?? {}, catalogs[FALLBACK_LOCALE]);
    translators.set(code, t);
  }
  return t;
}

/**
 * The language of an API answer: the LanguageCode header, else the language cookie, else the
 * browser's Accept-Language.
 */
export function requestLocale(
  headers: Record<string, string | string[] | undefined>,
  cookies: Record<string, string | undefined>,
): string {
  const header = headers.languagecode;
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (isLocaleCode(fromHeader)) return fromHeader;
  const fromCookie = cookies[LANGUAGE_COOKIE];
  if (isLocaleCode(fromCookie)) return fromCookie;
  const accept = headers['accept-language'];
  return negotiateLocale(parseAcceptLanguage(Array.isArray(accept) ? accept[0] : accept));
}
