/**
 * Exact decimal strings for the terminal's inputs: prices, lots and distances are turned into
 * integer units (BigInt) and back, so no float ever rounds a value the trader sends.
 */
const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/** The decimal mark and digit grouping of a locale, as Intl writes numbers there. */
export interface TNumberSymbols {
  decimal: string;
  /** Groups of two digits before the last three ("12,34,567"), as in India. */
  indian: boolean;
}

const symbolsByLocale = new Map<string, TNumberSymbols>();

export function numberSymbols(intl: string): TNumberSymbols {
  let symbols = symbolsByLocale.get(intl);
  if (!symbols) {
    const parts = new Intl.NumberFormat(intl).formatToParts(1234567.5);
    const integers = parts.filter((p) => p.type === 'integer');
    symbols = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      indian: integers.length === 3 && integers[1]?.value.length === 2,
    };
    symbolsByLocale.set(intl, symbols);
  }
  return symbols;
}

/** What a trader typed, read in the page's locale: a plain decimal string ("74000.5") or why not. */
export type TParsedNumber =
  | { ok: true; value: string }
  | { ok: false; problem: 'empty' | 'format' | 'ambiguous' };

const THOUSANDS = (sep: string) => new RegExp(`^[1-9]\\d{0,2}(?:\\${sep}\\d{3})+$`);
const LAKHS = (sep: string) => new RegExp(`^[1-9]\\d?(?:\\${sep}\\d{2})*\\${sep}\\d{3}$`);

/** Whether `digits` is a grouped whole number ("74.000", "1,234,567", in India also "1,00,000"). */
function grouped(digits: string, sep: string, indian: boolean): boolean {
  return THOUSANDS(sep).test(digits) || (indian && LAKHS(sep).test(digits));
}

const count = (text: string, char: string) => text.split(char).length - 1;

/**
 * Reads a number typed in the locale `intl` (a BCP 47 tag). Spaces and apostrophes group digits
 * everywhere. Where the decimal mark is a comma, a point before exactly three digits groups them
 * ("74.000" is 74000) and any other point is a decimal point, since people type 0.01 everywhere.
 * Where it is a point, a comma only groups digits ("1,000"); "1,5" could mean 1.5 or 15 and is
 * refused as ambiguous.
 */
export function parseNumber(text: string, intl: string): TParsedNumber {
  const { decimal, indian } = numberSymbols(intl);
  const compact = text.replace(/[\s'\u2019]/g, '');
  if (compact === '') return { ok: false, problem: 'empty' };
  const match = /^([-+\u2212]?)([\d.,]+)$/.exec(compact);
  const body = match?.[2];
  if (!match || !body || !/\d/.test(body)) return { ok: false, problem: 'format' };
  const negative = match[1] === '-' || match[1] === '\u2212';
  let whole: string;
  let fraction = '';
  if (decimal === ',') {
    if (count(body, ',') > 1) return { ok: false, problem: 'format' };
    const [head = '', tail] = body.split(',');
    if (tail?.includes('.')) return { ok: false, problem: 'format' };
    if (!head.includes('.')) whole = head;
    else if (grouped(head, '.', false)) whole = head.replace(/\./g, '');
    else if (tail === undefined && count(head, '.') === 1) [whole = '', fraction = ''] = head.split('.');
    else return { ok: false, problem: 'format' };
    if (tail !== undefined) fraction = tail;
  } else {
    if (count(body, '.') > 1) return { ok: false, problem: 'format' };
    const [head = '', tail = ''] = body.split('.');
    if (tail.includes(',')) return { ok: false, problem: 'format' };
    if (!head.includes(',')) whole = head;
    else if (grouped(head, ',', indian)) whole = head.replace(/,/g, '');
    else
      return {
        ok: false,
        problem: !body.includes('.') && count(head, ',') === 1 ? 'ambiguous' : 'format',
      };
    fraction = tail;
  }
  const digits = `${whole.replace(/^0+(?=\d)/, '') || '0'}${fraction ? `.${fraction}` : ''}`;
  return { ok: true, value: negative ? `-${digits}` : digits };
}

/** A plain decimal string as an input shows it in the locale: "0.01" -> "0,01" in German. */
export function toInputText(value: string, intl: string): string {
  return value.replace('.', numberSymbols(intl).decimal);
}

/** A decimal string as integer units of 10^-decimals; null when it is not a number or too precise. */
export function toUnits(text: string, decimals: number): bigint | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, minus, whole = '0', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) return null;
  const units =
    BigInt(whole) * 10n ** BigInt(decimals) +
    BigInt(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
  return minus ? -units : units;
}

/** Integer units of 10^-decimals as a decimal string with exactly `decimals` decimals. */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/** A decimal string rounded half away from zero to `decimals` (for server figures with more digits). */
export function roundTo(text: string, decimals: number): string | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, minus, whole = '0', fraction = ''] = match;
  const kept = BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals));
  const next = fraction.charAt(decimals);
  const rounded = next !== '' && next >= '5' ? kept + 1n : kept;
  return fromUnits(minus ? -rounded : rounded, decimals);
}

/** -1, 0 or 1 comparing two decimal strings exactly (null when either is not a number). */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 | null {
  const scale = Math.max(decimalPlaces(a), decimalPlaces(b));
  const x = toUnits(a, scale);
  const y = toUnits(b, scale);
  if (x === null || y === null) return null;
  return x > y ? 1 : x < y ? -1 : 0;
}

/** Decimals written in a plain decimal string: "1.250" -> 3. */
export function decimalPlaces(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** The sign of a decimal string: -1, 0 or 1. */
export function signOf(text: string): -1 | 0 | 1 {
  if (!/[1-9]/.test(text)) return 0;
  return text.trim().startsWith('-') ? -1 : 1;
}
