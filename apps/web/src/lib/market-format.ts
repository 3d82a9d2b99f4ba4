import { defaultKlineColor, KlineColor, type TKlineColor } from '@broker/domain/kline-color';
import { parseAcceptLanguage } from '@broker/i18n/negotiate';
import { useSyncExternalStore } from 'react';
import { chosenKlineColor, subscribeAppearance } from './appearance';
import { readCookie } from './cookies';
import { numberFormat } from './intl-cache';
import { useShell } from './store';

type TDecimal = `${number}`;
const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/** Decimals written in a decimal string: "1.08085" -> 5. */
export function decimalsOf(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/**
 * A decimal string from the server in the reader's locale, exactly: Intl formats the string as a
 * decimal, so no float rounding happens on the way. `digits` fixes the decimals shown.
 */
export function formatDecimal(
  intl: string,
  value: string,
  digits: number = decimalsOf(value),
  options: { sign?: boolean; grouping?: boolean } = {},
): string {
  if (!DECIMAL.test(value)) return value;
  return decimalFormat(intl, digits, options.sign === true, options.grouping ?? true).format(
    value as TDecimal,
  );
}

const decimalFormats = new Map<string, Intl.NumberFormat>();
/**
 * The formatter of formatDecimal by a short key: prices are formatted thousands of times a second
 * (every label of a chart's price axis on every frame), too often to build an options key each time.
 */
function decimalFormat(intl: string, digits: number, sign: boolean, grouping: boolean): Intl.NumberFormat {
  const key = `${intl}|${digits}|${sign ? 1 : 0}|${grouping ? 1 : 0}`;
  let format = decimalFormats.get(key);
  if (!format) {
    format = numberFormat(intl, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: grouping,
      ...(sign ? { signDisplay: 'exceptZero' as const } : {}),
    });
    decimalFormats.set(key, format);
  }
  return format;
}

/** A percentage given as a decimal string of percent points ("-0.27" -> "-0.27%"), with its sign. */
export function formatPercent(intl: string, value: string): string {
  if (!DECIMAL.test(value)) return value;
  const digits = decimalsOf(value);
  return numberFormat(intl, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: 'exceptZero',
  }).format(`${value}E-2` as TDecimal);
}

/** -1, 0 or 1: the direction from one price to the next (only the direction, never shown maths). */
export function direction(from: string | undefined, to: string | undefined): -1 | 0 | 1 {
  if (from === undefined || to === undefined) return 0;
  const a = Number(from);
  const b = Number(to);
  return b > a ? 1 : b < a ? -1 : 0;
}

/** The sign of a decimal string: the class name of a change ("rise", "fall" or ""). */
export function changeClass(value: string): 'rise' | 'fall' | '' {
  if (/^-/.test(value) && /[1-9]/.test(value)) return 'fall';
  if (/[1-9]/.test(value)) return 'rise';
  return '';
}

/** Regions whose traders read red as rising, with their ISO 3166 numeric codes. */
const REGION_CODES: Record<string, string> = { CN: '156', TW: '158', HK: '344', MO: '446', JP: '392' };

/** ISO 3166 numeric code of a browser language's region ("zh-CN" -> "156", "ja" -> "392"). */
export function countryFromLanguage(language: string | undefined): string | null {
  if (!language) return null;
  let region: string | undefined;
  try {
    const locale = new Intl.Locale(language);
    region = locale.region ?? locale.maximize().region;
  } catch {
    region = /[-_]([a-z]{2})(?:[-_]|$)/i.exec(language)?.[1]?.toUpperCase();
  }
  return region ? (REGION_CODES[region] ?? null) : null;
}

/**
 * The user's kline colour: the `klineColor` cookie ('0' red up, '1' green up) when set, else the
 * default of the country of the browser language.
 */
export function klineColorFor(cookieSource: string, language: string | undefined): TKlineColor {
  const cookie = readCookie('klineColor', cookieSource);
  if (cookie === '0') return KlineColor.RED_UP;
  if (cookie === '1') return KlineColor.GREEN_UP;
  return defaultKlineColor(countryFromLanguage(language));
}

/**
 * The kline colour a page is rendered with, on the server from the request: the `klineColor` cookie
 * when set, else the default of the country of the visitor's first browser language (Accept-Language,
 * what `navigator.language` says in the browser), else of the page's language. The server puts it on
 * `<html data-kline>` and in the boot data, so the first byte already has the right colours.
 */
export function requestKlineColor(request: {
  cookie: string | null;
  acceptLanguage: string | null;
  pageLocale: string;
}): TKlineColor {
  const [browserLanguage] = parseAcceptLanguage(request.acceptLanguage);
  return klineColorFor(request.cookie ?? '', browserLanguage ?? request.pageLocale);
}

/**
 * The kline colour in the browser: the one the server rendered the page with (the boot data), until
 * the trader changes it here or in another tab, which shows at once. Server and browser agree, so the
 * colours never flip after hydration.
 */
export function useKlineColor(): TKlineColor {
  const { klineColor: rendered } = useShell();
  return useSyncExternalStore(
    subscribeAppearance,
    () => chosenKlineColor() ?? rendered,
    () => rendered,
  );
}
