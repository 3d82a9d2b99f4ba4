import { formatDecimal } from '../../lib/market-format';

/** Account types of spec 3 that have a label: 1 demo, 2 real, 3 experience, 4 MT4, 5 MT5. */
const ACCOUNT_TYPES = new Set([1, 2, 3, 4, 5]);
export const DEMO_TYPE = 1;

/** The catalog key of an account type's name ("Demo account"); unknown types read as real. */
export const accountTypeKey = (accountType: number) =>
  `accounts.type.${ACCOUNT_TYPES.has(accountType) ? accountType : 2}`;

/** The catalog key of a trade type's name: 1 novice, 2 standard (docs/trading.md). */
export const tradeTypeKey = (tradeType: number) => `accounts.mode.${tradeType === 1 ? 1 : 2}`;

/** Money from the server (a decimal string) in the reader's locale, with 2 decimals and its currency. */
export function formatMoney(intl: string, value: string, currency?: string): string {
  const amount = formatDecimal(intl, value, 2);
  return currency ? `${amount} ${currency}` : amount;
}

/** "1:100" with the number in the reader's digits. */
export const formatLeverage = (intl: string, leverage: number) =>
  `1:${new Intl.NumberFormat(intl).format(leverage)}`;

/** True for a decimal string that is zero ("0.00", "-0.00"). */
export const isZero = (value: string) => !/[1-9]/.test(value);

/**
 * The size of a money flow: the server keeps deposits negative (wallet point of view, so the
 * spec 5 account-profit formula adds them), while the trader reads "deposited 500".
 */
export const magnitude = (value: string) => value.replace(/^-/, '');
