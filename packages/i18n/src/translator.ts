import { IntlMessageFormat } from 'intl-messageformat';
import { intlLocale } from './locales';

export type TCatalog = Record<string, string>;
export type TValues = Record<string, string | number | Date>;
export type TTranslate = (key: string, values?: TValues) => string;

/**
 * A translate function over a flat catalog of ICU messages. A missing key falls back to the
 * fallback catalog, then to the key itself (the completeness test keeps that from shipping).
 */
export function createTranslator(locale: string, catalog: TCatalog, fallback?: TCatalog): TTranslate {
  const cache = new Map<string, IntlMessageFormat>();
  const intl = intlLocale(locale);
  return (key, values) => {
    const message = catalog[key] ?? fallback?.[key];
    if (message === undefined) return key;
    if (!values && !message.includes('{')) return message;
    let format = cache.get(key);
    if (!format) {
      format = new IntlMessageFormat(message, intl);
      cache.set(key, format);
    }
    return String(format.format(values));
  };
}

/** Pseudo-localization: accented, 40% longer, bracketed, so untranslated text and tight layouts show. */
export function pseudoLocalize(catalog: TCatalog): TCatalog {
  const map: Record<string, string> = {
    a: 'á',
    e: 'é',
    i: 'í',
    o: 'ö',
    u: 'ü',
    c: 'ç',
    n: 'ñ',
    y: 'ý',
    A: 'Å',
    E: 'É',
    I: 'Î',
    O: 'Ö',
    U: 'Û',
    C: 'Ç',
    N: 'Ñ',
    Y: 'Ý',
  };
  const out: TCatalog = {};
  for (const [key, message] of Object.entries(catalog)) {
    let depth = 0;
    let text = '';
    for (const ch of message) {
      if (ch === '{') depth++;
      if (ch === '}') depth--;
      text += depth === 0 && map[ch] ? map[ch] : ch;
    }
    const padding = '~'.repeat(Math.ceil(message.length * 0.4));
    out[key] = `[${text}${padding}]`;
  }
  return out;
}
