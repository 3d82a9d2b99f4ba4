import { AppError } from '@broker/domain/result-codes';

/**
 * Decimal strings on the wire, integers inside. Parsing refuses anything it cannot represent
 * exactly (too many decimals, too many digits); formatting never goes through floats.
 */
export function toScaled(text: string, decimals: number, field: string, key = 'priceFormat'): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw AppError.invalid({ [field]: key });
  const [, sign, whole = '', fraction = ''] = match;
  const extra = fraction.slice(decimals);
  if (/[1-9]/.test(extra)) throw AppError.invalid({ [field]: key });
  const digits = `${whole}${fraction.slice(0, decimals).padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) throw AppError.invalid({ [field]: key });
  return sign === '-' ? -value : value;
}

export function fromScaled(value: number, decimals: number): string {
  const negative = value < 0;
  const digits = String(Math.abs(value)).padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative && value !== 0 ? `-${text}` : text;
}

/** Lots as hundredths: "0.01" is 1. */
export const lotsToUnits = (text: string, field = 'volume') => toScaled(text, 2, field, 'lotsFormat');
export const unitsToLots = (units: number) => fromScaled(units, 2);
/** Money in minor units (hundredths of the account currency). */
export const money = (minor: number) => fromScaled(minor, 2);

const SYMBOLS: Record<string, string> = { USD: '$', USC: '¢', EUR: '€', GBP: '£', JPY: '¥', USDT: '₮' };
export const currencySymbol = (currency: string) => SYMBOLS[currency] ?? currency;
