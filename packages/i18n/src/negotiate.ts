import { DEFAULT_LOCALE, isLocaleCode, LOCALE_CODES } from './locales';

/** Parses an Accept-Language header into tags ordered by quality. */
export function parseAcceptLanguage(header: string | undefined | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((x) => x.tag);
}

const TRADITIONAL_CHINESE_REGIONS = ['TW', 'HK', 'MO'];

/** Maps one browser language tag to a route language, or null. zh-TW -> zh, pt-BR -> pt, fil-PH -> fil. */
export function matchLanguageTag(tag: string): string | null {
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag);
  } catch {
    return null;
  }
  const language = locale.language.toLowerCase();
  if (language === 'zh') {
    const script = locale.script ?? locale.maximize().script;
    const region = locale.region?.toUpperCase();
    if (script === 'Hant' || (region && TRADITIONAL_CHINESE_REGIONS.includes(region))) return 'zh';
    return 'zh-CN';
  }
  if (language === 'tl') return 'fil';
  if (language === 'in') return 'id';
  if (isLocaleCode(language)) return language;
  return null;
}

/** Best route language for a list of browser languages, or the default zh-CN. */
export function negotiateLocale(tags: readonly string[]): string {
  for (const tag of tags) {
    const match = matchLanguageTag(tag);
    if (match && LOCALE_CODES.includes(match)) return match;
  }
  return DEFAULT_LOCALE;
}
