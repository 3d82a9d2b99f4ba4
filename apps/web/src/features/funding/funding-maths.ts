import { basisPoints, divideByRate, fromMinor, maxBig, minorOf, multiplyByRate } from '../../lib/money';
import type { TMethodInfo, TMethods } from './funding-api';

/** USC, the US cent of experience accounts: 1 USD = 100 USC (spec 9). */
export const CENTS_PER_DOLLAR = 100n;

/** A decimal string times a whole number, exactly: ("0.9998", 100n) -> "99.98". */
export function scaleDecimal(value: string, factor: bigint): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const [, whole = '0', frac = ''] = match;
  const digits = (BigInt(whole + frac) * factor).toString().padStart(frac.length + 1, '0');
  if (!frac) return digits;
  const text = `${digits.slice(0, -frac.length)}.${digits.slice(-frac.length)}`;
  return text.replace(/\.?0+$/, '') || '0';
}

/**
 * Account currency per 1 unit of the method currency, from the quoted rates (USD per unit of each
 * method currency): USD and USDT accounts take the rate as it is, USC accounts 100 times it. Null
 * when the server quoted no rate for that currency.
 */
export function accountRate(rates: TMethods['rates'], methodCurrency: string, accountCurrency: string) {
  const usd = rates[methodCurrency] ?? (methodCurrency === 'USD' ? '1' : null);
  if (usd === null) return null;
  return plainRate(accountCurrency === 'USC' ? scaleDecimal(usd, CENTS_PER_DOLLAR) : usd);
}

/** A rate without the zeros its 6 stored decimals leave: "100.000000" -> "100", "0.998500" -> "0.9985". */
export const plainRate = (rate: string) => (rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate);

/**
 * A fee as the server charges it (funding/amounts.ts): `bp` basis points of the amount rounded up to
 * the cent, plus the fixed part. Zero for no amount.
 */
export function feeOf(amount: bigint, feeBp: number, fixed: bigint): bigint {
  if (amount <= 0n) return 0n;
  return basisPoints(amount, feeBp, 'up') + fixed;
}

/** Method currency into the account currency at `rate`, rounded down (never more than was paid). */
export const toAccountMinor = (amount: bigint, rate: string) => multiplyByRate(amount, rate, 'down');
/** Account currency into the method currency at `rate`, rounded down. */
export const toMethodMinor = (amount: bigint, rate: string) => divideByRate(amount, rate, 'down');

export interface TDepositPreview {
  /** Method currency, minor units. */
  fee: bigint;
  /** What the trader pays: the amount plus the fee (method currency). */
  total: bigint;
  /** What reaches the account (account currency), at the quoted rate. */
  credited: bigint | null;
}

/** A deposit's fee (method currency, charged on top) and what it credits, as the server works them out. */
export function depositPreview(method: TMethodInfo, amount: bigint, rate: string | null): TDepositPreview {
  const fee = feeOf(amount, method.deposit.feeBp, minorOf(method.deposit.feeFixed));
  return { fee, total: amount + fee, credited: rate === null ? null : toAccountMinor(amount, rate) };
}

export interface TWithdrawalPreview {
  /** Account currency: the percentage of the amount plus the fixed part converted at the rate. */
  fee: bigint;
  /** What arrives (method currency): the amount less the fee, converted down at the rate. */
  payout: bigint | null;
}

/**
 * A withdrawal as the server works it out: the fee is taken in the account currency (the fixed part
 * converted at the rate), and the rest is paid out in the method currency, rounded down.
 */
export function withdrawalPreview(
  method: TMethodInfo,
  amount: bigint,
  rate: string | null,
): TWithdrawalPreview {
  if (rate === null) return { fee: 0n, payout: null };
  const fixed = toAccountMinor(minorOf(method.withdraw.feeFixed), rate) ?? 0n;
  const fee = feeOf(amount, method.withdraw.feeBp, fixed);
  const payout = amount > 0n ? toMethodMinor(maxBig(0n, amount - fee), rate) : 0n;
  return { fee, payout };
}

/**
 * What an experience account may still take in one deposit (spec 5, 9): the cap less its current net
 * value, in the account currency (USC), never below zero.
 */
export function experienceRoom(cap: string, netValue: string): bigint {
  return maxBig(0n, minorOf(cap) - minorOf(netValue));
}

/**
 * The most of the method currency a deposit may be so that it credits at most `room` of the account
 * currency (credits round down, so room / rate rounded down always fits).
 */
export function methodAmountFor(room: bigint, rate: string | null): bigint | null {
  if (rate === null) return null;
  const amount = divideByRate(room, rate, 'down');
  if (amount === null) return null;
  // A credit rounds down, so the most that fits may be a little more than room / rate.
  let fitted = amount;
  while ((toAccountMinor(fitted + 1n, rate) ?? room + 1n) <= room) fitted += 1n;
  return fitted;
}

export type TAmountProblem =
  | { key: 'belowMin'; limit: string }
  | { key: 'aboveMax'; limit: string }
  | { key: 'aboveRoom'; limit: string }
  | { key: 'aboveAvailable'; limit: string };

/** The first limit an amount breaks (min, then max), as a problem with the limit as a string. */
export function limitProblem(amount: bigint, min: string, max: string): TAmountProblem | null {
  if (amount < minorOf(min)) return { key: 'belowMin', limit: fromMinor(minorOf(min)) };
  if (minorOf(max) > 0n && amount > minorOf(max)) return { key: 'aboveMax', limit: fromMinor(minorOf(max)) };
  return null;
}

/** The chain of each USDT method, by its own name (a proper noun, the same in every language). */
export const CHAIN_NAME = { usdt_trc20: 'TRON (TRC-20)', usdt_erc20: 'Ethereum (ERC-20)' } as const;

/** Network of a chain method, as the sandbox chain and the deposit address name it. */
export const CHAIN_NETWORK = { usdt_trc20: 'trc20', usdt_erc20: 'erc20' } as const;

/** The address format of each chain (the server's check, ZDestination). */
export const ADDRESS_FORMAT = {
  usdt_trc20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  usdt_erc20: /^0x[0-9a-fA-F]{40}$/,
} as const;

/** IBAN as the server checks it: country, check digits, 10 to 32 letters, digits or spaces. */
export const IBAN_FORMAT = /^[A-Z]{2}\d{2}[A-Z0-9 ]{10,32}$/;
