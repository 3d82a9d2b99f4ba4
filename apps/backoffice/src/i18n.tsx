import { intlLocale } from '@broker/i18n/locales';
import en from '@broker/i18n/locales/admin/en.json';
import zhCN from '@broker/i18n/locales/admin/zh-CN.json';
import { createTranslator, type TCatalog, type TTranslate } from '@broker/i18n/translator';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { configureApi } from './lib/api';
import {
  isAdminLocale,
  LANG_STORAGE_KEY,
  pickInitialLocale,
  readStorage,
  type TAdminLocale,
  writeStorage,
} from './lib/preferences';

export const ADMIN_CATALOGS: Record<TAdminLocale, TCatalog> = { 'zh-CN': zhCN, en };

interface TI18n {
  locale: TAdminLocale;
  /** BCP 47 tag for Intl formatting. */
  intl: string;
  t: TTranslate;
  setLocale(locale: TAdminLocale): void;
  formatNumber(value: number): string;
}

const I18nContext = createContext<TI18n | null>(null);

export function initialLocale(): TAdminLocale {
  return pickInitialLocale(readStorage(LANG_STORAGE_KEY), globalThis.navigator?.language);
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<TAdminLocale>(() => {
    const first = initialLocale();
    configureApi({ locale: first });
    return first;
  });

  const setLocale = useCallback((next: TAdminLocale) => {
    if (!isAdminLocale(next)) return;
    writeStorage(LANG_STORAGE_KEY, next);
    configureApi({ locale: next });
    setLocaleState(next);
  }, []);

  useEffect(() => {
    document.documentElement.lang = intlLocale(locale);
  }, [locale]);

  const value = useMemo<TI18n>(() => {
    const intl = intlLocale(locale);
    const numbers = new Intl.NumberFormat(intl);
    return {
      locale,
      intl,
      t: createTranslator(locale, ADMIN_CATALOGS[locale], ADMIN_CATALOGS.en),
      setLocale,
      formatNumber: (n) => numbers.format(n),
    };
  }, [locale, setLocale]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): TI18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

/** Sets the tab title to "<page> · <brand> back office" in the current language. */
export function useDocumentTitle(page: string): void {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('admin.app.documentTitle', { page });
  }, [t, page]);
}
