import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { fromScaled, toScaled } from '../trading';

/** Rates carry 6 decimals: account-currency units per method-currency unit, as integers (micros). */
const RATE_DECIMALS = 6;
const MICRO = 1_000_000n;

/**
 * Account currency per 1 unit of the method currency. USDT is taken at par with the US dollar (the
 * peg the engine also uses); USC is the US cent. A live rate source plugs in here (docs/funding.md).
 */
const RATES: Record<string, Record<string, bigint>> = {
  USD: { USD: MICRO, USC: 100n * MICRO },
  USDT: { USD: MICRO, USC: 100n * MICRO },
};

export function rateMicros(methodCurrency: string, accountCurrency: string): bigint {
  const rate = RATES[methodCurrency]?.[accountCurrency];
  if (rate === undefined) throw new AppError(AppErrorCode.METHOD_UNAVAILABLE);
  return rate;
}

export const rateText = (micros: bigint) => fromScaled(Number(micros), RATE_DECIMALS);
export const parseRate = (text: string) => BigInt(toScaled(text, RATE_DECIMALS, 'rate'));

/** Method-currency minor units into account-currency minor units, rounded down (never more than paid). */
export function toAccountMinor(methodMinor: number, rate: bigint): number {
  return Number((BigInt(methodMinor) * rate) / MICRO);
}

/** Account-currency minor units into method-currency minor units, rounded down. */
export function toMethodMinor(accountMinor: number, rate: bigint): number {
  return Number((BigInt(accountMinor) * MICRO) / rate);
}

/** A fee of `bp` basis points (rounded up to the cent) plus a fixed part, in the amount's units. */
export function feeOf(amount: number, bp: number, fixed: number): number {
  return Number((BigInt(amount) * BigInt(bp) + 9_999n) / 10_000n) + fixed;
}

/** A decimal money string (2 decimals) as minor units. */
export const minor = (text: string, field = 'amount') => toScaled(text, 2, field, 'amountFormat');

/** US-dollar cents of an amount in an account currency (USD or USC), for thresholds and reports. */
export function usdMinor(amount: number, currency: string): number {
  if (currency === 'USC') return Math.floor(amount / 100);
  return amount;
}
