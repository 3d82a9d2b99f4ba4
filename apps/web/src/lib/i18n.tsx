import { intlLocale } from '@broker/i18n/locales';
import { createTranslator, type TCatalog, type TTranslate } from '@broker/i18n/translator';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

interface TI18n {
  lang: string;
  intl: string;
  t: TTranslate;
  formatNumber(value: number | bigint, options?: Intl.NumberFormatOptions): string;
  formatDate(value: Date | number, options?: Intl.DateTimeFormatOptions): string;
}

/**
 * The time of a trade (open, close, placed, filled) wherever it is shown, terminal or history: the
 * date with a four-digit year and a 24-hour time to the second, in the reader's language and zone.
 */
export const TRADE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

const I18nContext = createContext<TI18n | null>(null);

export function I18nProvider({
  lang,
  catalog,
  children,
}: {
  lang: string;
  catalog: TCatalog;
  children: ReactNode;
}) {
  const value = useMemo<TI18n>(() => {
    const intl = intlLocale(lang);
    return {
      lang,
      intl,
      t: createTranslator(lang, catalog),
      formatNumber: (v, o) => new Intl.NumberFormat(intl, o).format(v),
      formatDate: (v, o) => new Intl.DateTimeFormat(intl, o).format(v),
    };
  }, [lang, catalog]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): TI18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
