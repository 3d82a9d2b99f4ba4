import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import { exactDecimalFormat } from '../../lib/exact-decimal';

/** Translation keys of the values the customers pages show (literal keys, checked by the catalog test). */
export const KYC_LABELS = {
  none: 'admin.customers.kyc.none',
  pending: 'admin.customers.kyc.pending',
  approved: 'admin.customers.kyc.approved',
  rejected: 'admin.customers.kyc.rejected',
} as const;

export const KYC_TONES = {
  none: '',
  pending: 'kit-pill-warn',
  approved: 'kit-pill-up',
  rejected: 'kit-pill-down',
};

export const STATUS_LABELS = {
  active: 'admin.customers.status.active',
  disabled: 'admin.customers.status.disabled',
} as const;

export const ACCOUNT_TYPE_LABELS: Record<number, string> = {
  1: 'admin.customers.accountType.demo',
  2: 'admin.customers.accountType.real',
  3: 'admin.customers.accountType.experience',
  4: 'admin.customers.accountType.mt4',
  5: 'admin.customers.accountType.mt5',
};

export const RESTRICTION_LABELS = {
  noOpen: 'admin.customers.restrictions.noOpen',
  noClose: 'admin.customers.restrictions.noClose',
  noTakeProfit: 'admin.customers.restrictions.noTakeProfit',
  noStopLoss: 'admin.customers.restrictions.noStopLoss',
  noWithdraw: 'admin.customers.restrictions.noWithdraw',
} as const;

export type TRestrictionKey = keyof typeof RESTRICTION_LABELS;
export const RESTRICTION_KEYS = Object.keys(RESTRICTION_LABELS) as TRestrictionKey[];

export const ADJUSTMENT_STATUS_LABELS = {
  pending: 'admin.customers.adjustment.status.pending',
  approving: 'admin.customers.adjustment.status.approving',
  approved: 'admin.customers.adjustment.status.approved',
  rejected: 'admin.customers.adjustment.status.rejected',
  applied: 'admin.customers.adjustment.status.applied',
} as const;

export const ADJUSTMENT_STATUS_TONES = {
  pending: 'kit-pill-warn',
  approving: 'kit-pill-warn',
  approved: 'kit-pill-up',
  rejected: 'kit-pill-down',
  applied: 'kit-pill-up',
} as const;

export const LEDGER_KIND_LABELS: Record<string, string> = {
  initial_balance: 'admin.customers.ledger.initial_balance',
  deposit: 'admin.customers.ledger.deposit',
  withdrawal: 'admin.customers.ledger.withdrawal',
  adjustment: 'admin.customers.ledger.adjustment',
  realized_pnl: 'admin.customers.ledger.realized_pnl',
  commission: 'admin.customers.ledger.commission',
  swap: 'admin.customers.ledger.swap',
  negative_balance_protection: 'admin.customers.ledger.negative_balance_protection',
};

export const ORDER_TYPE_LABELS: Record<string, string> = {
  buy_limit: 'admin.customers.orderType.buy_limit',
  sell_limit: 'admin.customers.orderType.sell_limit',
  buy_stop: 'admin.customers.orderType.buy_stop',
  sell_stop: 'admin.customers.orderType.sell_stop',
  buy_stop_limit: 'admin.customers.orderType.buy_stop_limit',
  sell_stop_limit: 'admin.customers.orderType.sell_stop_limit',
  market: 'admin.customers.orderType.market',
};

export const SIDE_LABELS = { buy: 'admin.customers.side.buy', sell: 'admin.customers.side.sell' } as const;

export const SESSION_STATE_LABELS = {
  active: 'admin.customers.session.active',
  revoked: 'admin.customers.session.revoked',
  expired: 'admin.customers.session.expired',
} as const;

/** Decimal strings from the server, formatted exactly (Intl formats numeric strings without floats). */
type TNumeric = `${number}`;

/** Number, money and date formatters of the current language. */
export function useFormat() {
  const { intl } = useI18n();
  return useMemo(() => {
    const money = new Intl.NumberFormat(intl, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const signed = new Intl.NumberFormat(intl, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: 'exceptZero',
    });
    const decimal = exactDecimalFormat(intl);
    const dateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' });
    // Wide tables (positions, orders): the short date leaves room for the row's actions.
    const shortDateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(intl, { dateStyle: 'medium' });
    const regions = new Intl.DisplayNames([intl], { type: 'region' });
    return {
      money: (value: string) => money.format(value as TNumeric),
      signed: (value: string) => signed.format(value as TNumeric),
      decimal,
      dateTime: (value: string | number) => dateTime.format(new Date(value)),
      shortDateTime: (value: string | number) => shortDateTime.format(new Date(value)),
      date: (value: string | number) => date.format(new Date(value)),
      country: (code: string | null) => {
        if (!code) return null;
        try {
          return regions.of(code) ?? code;
        } catch {
          return code;
        }
      },
    };
  }, [intl]);
}

/** Tone class of a signed decimal string. */
export const toneOf = (value: string) =>
  value.startsWith('-') ? 'kit-down' : /[1-9]/.test(value) ? 'kit-up' : undefined;

/** A positive decimal amount with at most 2 decimals (the adjustment and threshold forms). */
export const isAmount = (text: string) => /^\d{1,13}(\.\d{1,2})?$/.test(text.trim());

/** Compares two positive decimal strings with at most 2 decimals, without floats. */
export function compareAmounts(a: string, b: string): number {
  const cents = (text: string) => {
    const [whole = '0', fraction = ''] = text.trim().replace(/^-/, '').split('.');
    return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2) || '0');
  };
  const difference = cents(a) - cents(b);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}
