import { numberFormat } from './intl-cache';
import { formatDecimal } from './market-format';

/**
 * Exact money for the funding screens (deposits, withdrawals, transfers, coins): amounts are decimal
 * strings on the wire and BigInt minor units in between, so a fee, a conversion or a cap check never
 * rounds through a float. Two decimals everywhere (cents, or hundredths of a US cent for USC accounts).
 */
export const MONEY_DECIMALS = 2;
const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/** A decimal string as an exact fraction `units / 10^decimals` (null when it is not a number). */
function fraction(text: string): { units: bigint; decimals: number } | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, minus, whole = '0', frac = ''] = match;
  const units = BigInt(whole + frac);
  return { units: minus ? -units : units, decimals: frac.length };
}

/** How a division rounds: half away from zero, toward zero (down, for amounts >= 0) or away from it (up). */
export type TRounding = 'half_up' | 'down' | 'up';

/** n / d (d > 0) rounded as asked. */
function divide(n: bigint, d: bigint, rounding: TRounding = 'half_up'): bigint {
  const q = n / d;
  const r = n - q * d;
  if (r === 0n) return q;
  const away = n < 0n ? q - 1n : q + 1n;
  if (rounding === 'down') return q;
  if (rounding === 'up') return away;
  return (r < 0n ? -r : r) * 2n >= d ? away : q;
}

/** A decimal string as integer minor units, rounded half away from zero past 2 decimals; null if not a number. */
export function toMinor(text: string): bigint | null {
  const value = fraction(text);
  if (!value) return null;
  if (value.decimals <= MONEY_DECIMALS) return value.units * 10n ** BigInt(MONEY_DECIMALS - value.decimals);
  return divide(value.units, 10n ** BigInt(value.decimals - MONEY_DECIMALS));
}

/** Minor units as a decimal string with exactly 2 decimals: 12345n -> "123.45". */
export function fromMinor(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(MONEY_DECIMALS + 1, '0');
  const text = `${digits.slice(0, -MONEY_DECIMALS)}.${digits.slice(-MONEY_DECIMALS)}`;
  return negative ? `-${text}` : text;
}

/** Minor units of a decimal string, 0 when it is not a number (server figures are always numbers). */
export const minorOf = (text: string | null | undefined): bigint => (text ? (toMinor(text) ?? 0n) : 0n);

/** `amount x rate`, in minor units (a conversion at a quoted rate), rounded as asked. */
export function multiplyByRate(amount: bigint, rate: string, rounding: TRounding = 'half_up'): bigint | null {
  const r = fraction(rate);
  if (!r) return null;
  return divide(amount * r.units, 10n ** BigInt(r.decimals), rounding);
}

/** `amount / rate`, in minor units, rounded as asked (null for a zero or bad rate). */
export function divideByRate(amount: bigint, rate: string, rounding: TRounding = 'half_up'): bigint | null {
  const r = fraction(rate);
  if (!r || r.units <= 0n) return null;
  return divide(amount * 10n ** BigInt(r.decimals), r.units, rounding);
}

/** `amount x bp / 10,000`: a share in basis points, rounded as asked. */
export function basisPoints(amount: bigint, bp: number, rounding: TRounding = 'half_up'): bigint {
  return divide(amount * BigInt(bp), 10_000n, rounding);
}

export const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
export const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

export type TAmountInput =
  | { ok: true; value: string; minor: bigint }
  | { ok: false; problem: 'empty' | 'format' | 'decimals' };

/** The decimal mark Intl writes in a locale ("." or ","). */
function decimalMark(intl: string): string {
  return (
    numberFormat(intl)
      .formatToParts(1.5)
      .find((p) => p.type === 'decimal')?.value ?? '.'
  );
}

/**
 * An amount the trader typed, read in the page's locale: digits with the locale's decimal mark (or a
 * point, which everybody types), optional grouping by the other mark ("1,000.50", "1.000,50"), spaces
 * ignored, at most 2 decimals, no sign. The value is the canonical string the server takes ("1000.50").
 */
export function parseAmountInput(text: string, intl: string): TAmountInput {
  const compact = text.replace(/[\s'\u2019\u00a0\u202f]/g, '');
  if (compact === '') return { ok: false, problem: 'empty' };
  const mark = decimalMark(intl);
  const group = mark === ',' ? '.' : ',';
  let body = compact;
  // Grouped whole part ("1,000" or "1.000,5" in a comma locale): drop the groups.
  const grouped = new RegExp(`^\\d{1,3}(?:\\${group}\\d{2,3})*\\${group}\\d{3}(?:\\${mark}\\d*)?$`);
  if (grouped.test(body)) body = body.split(group).join('');
  body = body.replace(',', '.');
  const match = /^(\d*)(?:\.(\d*))?$/.exec(body);
  if (!match || (!match[1] && !match[2])) return { ok: false, problem: 'format' };
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const decimals = match[2] ?? '';
  if (decimals.length > MONEY_DECIMALS) return { ok: false, problem: 'decimals' };
  if (whole.length > 13) return { ok: false, problem: 'format' };
  const value = `${whole}.${decimals.padEnd(MONEY_DECIMALS, '0')}`;
  return { ok: true, value, minor: toMinor(value) ?? 0n };
}

/** A plain decimal string as an input shows it in the locale: "12.50" -> "12,50" in German. */
export function toInputText(value: string, intl: string): string {
  return value.replace('.', decimalMark(intl));
}

/**
 * Money in the reader's locale with 2 decimals and its currency code ("1,234.50 USD", "10,000.00 USC"),
 * as the account cards write it. `sign` adds + to a positive amount and keeps − on a negative one.
 */
export function formatAmount(
  intl: string,
  value: string | bigint,
  currency?: string,
  options: { sign?: boolean } = {},
): string {
  const text = typeof value === 'bigint' ? fromMinor(value) : value;
  const amount = formatDecimal(intl, text, MONEY_DECIMALS, { sign: options.sign ?? false });
  return currency ? `${amount} ${currency}` : amount;
}

/** Money with its currency ("1,234.50 USD"); `sign` shows + on a gain. */
export const moneyText = (intl: string, value: string, currency: string, sign = false) =>
  formatAmount(intl, value, currency, { sign });

/** An idempotency key per user intent (a UUID; 32 random hex digits where randomUUID is missing). */
export function newIntentKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}
