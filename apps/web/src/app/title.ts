import type { TTranslate } from '@broker/i18n/translator';

interface TMatchLike {
  handle?: unknown;
}

/** "Page · Brand" from the deepest route that names a title key. */
export function pageTitle(matches: readonly TMatchLike[], t: TTranslate): string {
  const key = [...matches]
    .reverse()
    .map((m) => (m.handle as { titleKey?: string } | undefined)?.titleKey)
    .find(Boolean);
  const brand = t('brand.name');
  return key && key !== 'home.meta.title' ? `${t(key)} · ${brand}` : t('home.meta.title');
}
