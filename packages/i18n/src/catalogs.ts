import { LOCALE_CODES } from './locales';
import type { TCatalog } from './translator';

/**
 * Lazy loaders, one chunk per locale (Vite and Node both understand the glob-free dynamic import).
 */
const loaders: Record<string, () => Promise<{ default: TCatalog }>> = {
  'zh-CN': () => import('../locales/zh-CN.json'),
  zh: () => import('../locales/zh.json'),
  en: () => import('../locales/en.json'),
  de: () => import('../locales/de.json'),
  es: () => import('../locales/es.json'),
  fil: () => import('../locales/fil.json'),
  fr: () => import('../locales/fr.json'),
  hi: () => import('../locales/hi.json'),
  id: () => import('../locales/id.json'),
  ja: () => import('../locales/ja.json'),
  ko: () => import('../locales/ko.json'),
  pt: () => import('../locales/pt.json'),
  ru: () => import('../locales/ru.json'),
  th: () => import('../locales/th.json'),
  tr: () => import('../locales/tr.json'),
  vi: () => import('../locales/vi.json'),
};

export async function loadCatalog(locale: string): Promise<TCatalog> {
  const loader = loaders[locale];
  if (!loader) throw new Error(`Unknown locale ${locale}`);
  return (await loader()).default;
}

export async function loadAllCatalogs(): Promise<Record<string, TCatalog>> {
  const entries = await Promise.all(
    LOCALE_CODES.map(async (code) => [code, await loadCatalog(code)] as const),
  );
  return Object.fromEntries(entries);
}
