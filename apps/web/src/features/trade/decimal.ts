/**
 * Exact decimal strings for the terminal's inputs: prices, lots and distances are turned into
 * integer units (BigInt) and back, so no float ever rounds a value the trader sends.
 */
const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/** What a trader typed, as a plain decimal string: spaces dropped, a decimal comma read as a point. */
export function normalizeInput(text: string): string {
  const compact = text.replace(/[\s\u00a0\u202f']/g, '');
  // "1.234,56" or "1,234.56": the last separator is the decimal one, the others group digits.
  const lastComma = compact.lastIndexOf(',');
  const lastDot = compact.lastIndexOf('.');
  if (lastComma > lastDot) return compact.replace(/\./g, '').replace(',', '.');
  return compact.replace(/,/g, '');
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

function decimalPlaces(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** The sign of a decimal string: -1, 0 or 1. */
export function signOf(text: string): -1 | 0 | 1 {
  if (!/[1-9]/.test(text)) return 0;
  return text.trim().startsWith('-') ? -1 : 1;
}
