import type { TInstrumentSpec } from '@broker/domain/market/instruments';
import { intlLocale } from '@broker/i18n/locales';
import type { TTranslate } from '@broker/i18n/translator';

const FIAT_NAME_OVERRIDES: Record<string, string> = { CNH: 'CNY' };

/** Name of a currency or asset in a language: Intl for fiat money, the catalog for the rest. */
export function assetName(code: string, lang: string, t: TTranslate): string {
  const key = `asset.${code}`;
  const fromCatalog = t(key);
  if (fromCatalog !== key) return fromCatalog;
  try {
    const names = new Intl.DisplayNames([intlLocale(lang)], { type: 'currency' });
    const name = names.of(FIAT_NAME_OVERRIDES[code] ?? code);
    if (name && name !== code) return code === 'CNH' ? `${name} (CNH)` : name;
  } catch {
    // falls back to the code
  }
  return code;
}

/** Full name of a symbol: "Euro / US Dollar", "Gold / US Dollar", "US 500 index", "Bitcoin / Tether". */
export function symbolName(spec: TInstrumentSpec, lang: string, t: TTranslate): string {
  if (spec.category === 'indices' || spec.category === 'energy') return assetName(spec.base, lang, t);
  return `${assetName(spec.base, lang, t)} / ${assetName(spec.quote, lang, t)}`;
}
