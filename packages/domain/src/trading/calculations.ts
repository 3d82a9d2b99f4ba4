/**
 * Spec 5 "Derived calculations" of an account, on integer minor units (hundredths of the account
 * currency, so every money result is already "rounded to 2 decimals"). Ratios are returned in basis
 * points (1/10,000): a non-MT margin level of 1.5 and an MT margin level of 150.00 % are both 15000.
 */
import { formatScaled, mulDiv } from './money';

/** Spec 3 account types. 1 is the demo (first) type; 2 real; 3 experience (cent); 4 MT4; 5 MT5. */
export const AccountType = {
  DEMO: 1,
  REAL: 2,
  EXPERIENCE: 3,
  MT4: 4,
  MT5: 5,
} as const;
export type TAccountType = (typeof AccountType)[keyof typeof AccountType];

/**
 * Spec 3 trade types. 1 is novice mode: new positions are funded from the balance only (floating
 * profit cannot be reused as margin) and strategies are not available (spec 6); 2 is standard mode:
 * usable margin is equity minus margin.
 */
export const TradeType = {
  NOVICE: 1,
  STANDARD: 2,
} as const;
export type TTradeType = (typeof TradeType)[keyof typeof TradeType];

export function isMetaTrader(accountType: number): boolean {
  return accountType === AccountType.MT4 || accountType === AccountType.MT5;
}

/** The fields spec 3 "Account info" lists, as integers in minor units of the account currency. */
export interface TAccountFigures {
  accountType: number;
  tradeType: number;
  balance: number;
  /** Sum of the floating profit of open positions ("total profit"). */
  totalProfit: number;
  /** Sum of the margin held by open positions ("total margin"). */
  totalMargin: number;
  followEquity: number;
  strategyEquity: number;
  initMoney: number;
  /** Money paid in after the initial funding, signed as a flow out of the trader's wallet: <= 0. */
  totalInAmount: number;
  /** Money paid out, signed as a flow into the trader's wallet: >= 0. */
  totalOutAmount: number;
  /** MetaTrader's own figures, used as they come for MT4 and MT5 accounts. */
  mtEquity?: number;
  mtMargin?: number;
  mtFreeMargin?: number;
  mtProfit?: number;
}

/** Total equity: balance + total profit + follow_equity + strategy equity. */
export function totalEquity(f: TAccountFigures): number {
  return f.balance + f.totalProfit + f.followEquity + f.strategyEquity;
}

/**
 * Usable margin. Non-MT: trade type 1, balance - total margin; otherwise balance + total profit -
 * total margin. MT4/MT5: the free margin.
 */
export function usableMargin(f: TAccountFigures): number {
  if (isMetaTrader(f.accountType)) return f.mtFreeMargin ?? 0;
  if (f.tradeType === TradeType.NOVICE) return f.balance - f.totalMargin;
  return f.balance + f.totalProfit - f.totalMargin;
}

/**
 * Margin level in basis points, rounded half-up. Non-MT: total equity / total margin; MT: equity /
 * margin. 0 when the margin is not above 0.
 */
export function marginLevelBp(f: TAccountFigures): number {
  if (isMetaTrader(f.accountType)) {
    const margin = f.mtMargin ?? 0;
    return margin > 0 ? mulDiv(f.mtEquity ?? 0, 10_000, margin) : 0;
  }
  return f.totalMargin > 0 ? mulDiv(totalEquity(f), 10_000, f.totalMargin) : 0;
}

/**
 * Margin level as the spec shows it: non-MT accounts as a plain ratio (total equity / total margin,
 * 4 decimals here since the spec gives no rounding), MT accounts as a percentage to 2 decimals.
 */
export function marginLevelText(f: TAccountFigures): string {
  return levelText(marginLevelBp(f), f.accountType);
}

/**
 * A level in basis points (a margin level, or the margin-call and stop-out levels it is compared
 * with) in the spec's form for the account: a plain ratio to 4 decimals for non-MT accounts
 * (9,868 bp: "0.9868"), a percentage to 2 decimals for MT accounts ("98.68").
 */
export function levelText(bp: number, accountType: number): string {
  return isMetaTrader(accountType) ? formatScaled(bp, 2) : formatScaled(bp, 4);
}

/**
 * Account profit. Non-MT: total_equity - init_money + total_in_amount + total_out_amount (the flows
 * are signed from the trader's wallet, so this is equity minus everything paid in plus everything
 * paid out). MT: the profit field.
 */
export function accountProfit(f: TAccountFigures): number {
  if (isMetaTrader(f.accountType)) return f.mtProfit ?? 0;
  return totalEquity(f) - f.initMoney + f.totalInAmount + f.totalOutAmount;
}
