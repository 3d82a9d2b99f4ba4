import type { TRouteOutput } from '@broker/contracts/routes';
import type { TValues } from '@broker/i18n/translator';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';

export type TAdminWithdrawal = TRouteOutput<'adminwithdrawreview'>['withdrawal'];
export type TAdminDeposit = TRouteOutput<'admindepositdetail'>;
export type TWithdrawalState = TAdminWithdrawal['status'];
export type TDepositState = TAdminDeposit['status'];
export type TFundingMethod = TAdminDeposit['method'];
export type TWithdrawalFlag = TAdminWithdrawal['flags'][number];
export type TUnmatchedPayment = TRouteOutput<'adminunmatched'>['items'][number];
export type TFundingSettings = TRouteOutput<'adminfundingsettings'>;
export type TMethodSettings = TFundingSettings['methods'][number];

/** Spec 4's six withdrawal states, in the order a withdrawal goes through them. */
export const WITHDRAWAL_STATES = [
  'initiated',
  'awaiting_review',
  'processing',
  'completed',
  'rejected',
  'failed',
] as const satisfies readonly TWithdrawalState[];

export const DEPOSIT_STATES = [
  'pending',
  'confirming',
  'completed',
  'failed',
  'expired',
] as const satisfies readonly TDepositState[];

export const FUNDING_METHODS = [
  'card',
  'ewallet',
  'usdt_trc20',
  'usdt_erc20',
  'bank',
] as const satisfies readonly TFundingMethod[];

/** Translation keys (literal, so the catalog test sees them) of the values the funding pages show. */
export const WITHDRAWAL_STATE_LABELS: Record<TWithdrawalState, string> = {
  initiated: 'admin.funding.withdrawalState.initiated',
  awaiting_review: 'admin.funding.withdrawalState.awaiting_review',
  processing: 'admin.funding.withdrawalState.processing',
  rejected: 'admin.funding.withdrawalState.rejected',
  completed: 'admin.funding.withdrawalState.completed',
  failed: 'admin.funding.withdrawalState.failed',
};

export const WITHDRAWAL_STATE_TONES: Record<TWithdrawalState, string> = {
  initiated: '',
  awaiting_review: 'kit-pill-warn',
  processing: 'fu-pill-brand',
  rejected: 'kit-pill-down',
  completed: 'kit-pill-up',
  failed: 'kit-pill-down',
};

export const DEPOSIT_STATE_LABELS: Record<TDepositState, string> = {
  pending: 'admin.funding.depositState.pending',
  confirming: 'admin.funding.depositState.confirming',
  completed: 'admin.funding.depositState.completed',
  failed: 'admin.funding.depositState.failed',
  expired: 'admin.funding.depositState.expired',
};

export const DEPOSIT_STATE_TONES: Record<TDepositState, string> = {
  pending: 'kit-pill-warn',
  confirming: 'fu-pill-brand',
  completed: 'kit-pill-up',
  failed: 'kit-pill-down',
  expired: '',
};

/** Method names; a chain's coin and network are names, passed as values in every language. */
const METHOD_LABELS: Record<TFundingMethod, { key: string; values?: TValues }> = {
  card: { key: 'admin.funding.method.card' },
  ewallet: { key: 'admin.funding.method.ewallet' },
  usdt_trc20: { key: 'admin.funding.method.chain', values: { coin: 'USDT', chain: 'TRC-20' } },
  usdt_erc20: { key: 'admin.funding.method.chain', values: { coin: 'USDT', chain: 'ERC-20' } },
  bank: { key: 'admin.funding.method.bank' },
};

export function methodLabel(t: (key: string, values?: TValues) => string, method: string): string {
  const label = METHOD_LABELS[method as TFundingMethod];
  return label ? t(label.key, label.values) : method;
}

/** Each risk flag with its one-line explanation for the reviewer. */
export const FLAG_TEXT: Record<TWithdrawalFlag, { title: string; text: string }> = {
  new_device: { title: 'admin.funding.flag.new_device', text: 'admin.funding.flag.new_device.text' },
  new_destination: {
    title: 'admin.funding.flag.new_destination',
    text: 'admin.funding.flag.new_destination.text',
  },
  no_trading: { title: 'admin.funding.flag.no_trading', text: 'admin.funding.flag.no_trading.text' },
  velocity: { title: 'admin.funding.flag.velocity', text: 'admin.funding.flag.velocity.text' },
  password_changed: {
    title: 'admin.funding.flag.password_changed',
    text: 'admin.funding.flag.password_changed.text',
  },
  four_eyes: { title: 'admin.funding.flag.four_eyes', text: 'admin.funding.flag.four_eyes.text' },
};

/** Money movements the review drawer lists (the financial record's kinds). */
export const MOVEMENT_LABELS: Record<string, string> = {
  deposit: 'admin.funding.movement.deposit',
  withdrawal: 'admin.funding.movement.withdrawal',
  transfer_follow_out: 'admin.funding.movement.transfer_follow_out',
  transfer_follow_in: 'admin.funding.movement.transfer_follow_in',
  transfer_strategy_out: 'admin.funding.movement.transfer_strategy_out',
  transfer_strategy_in: 'admin.funding.movement.transfer_strategy_in',
  adjustment: 'admin.funding.movement.adjustment',
  coin_exchange: 'admin.funding.movement.coin_exchange',
};

/** The providers' failure reasons of deposits and withdrawals. */
export const FAILURE_LABELS: Record<string, string> = {
  declined: 'admin.funding.failure.declined',
  expired: 'admin.funding.failure.expired',
  cancelled: 'admin.funding.failure.cancelled',
  timeout: 'admin.funding.failure.timeout',
  risk: 'admin.funding.failure.risk',
  underpaid: 'admin.funding.failure.underpaid',
  overpaid: 'admin.funding.failure.overpaid',
  payout_failed: 'admin.funding.failure.payout_failed',
};

export const failureLabel = (t: (key: string) => string, failure: string) =>
  FAILURE_LABELS[failure] ? t(FAILURE_LABELS[failure]) : failure;

export const UNMATCHED_STATUS_LABELS: Record<TUnmatchedPayment['status'], string> = {
  unmatched: 'admin.funding.unmatched.status.unmatched',
  matched: 'admin.funding.unmatched.status.matched',
  returned: 'admin.funding.unmatched.status.returned',
};

export const MISMATCH_LABELS: Record<string, string> = {
  missing_in_ledger: 'admin.funding.report.problem.missing_in_ledger',
  missing_at_provider: 'admin.funding.report.problem.missing_at_provider',
  amount_differs: 'admin.funding.report.problem.amount_differs',
};

/** Spec 5: a rejection needs a reason of at most 20 characters (checked as the server does: trimmed). */
export const REVIEW_REASON_MAX = 20;
export function reviewReasonProblem(reason: string): 'required' | 'tooLong' | null {
  const text = reason.trim();
  if (text === '') return 'required';
  return text.length > REVIEW_REASON_MAX ? 'tooLong' : null;
}

/** Decimal strings from the server, formatted exactly (Intl formats numeric strings without floats). */
type TNumeric = `${number}`;

/** Money, date and relative-time formatters of the current language. */
export function useFundingFormat() {
  const { intl } = useI18n();
  return useMemo(() => {
    const byDigits = new Map<string, Intl.NumberFormat>();
    const number = (value: string, minDigits: number, signed: boolean) => {
      const digits = Math.max(minDigits, Math.min(20, /\.(\d+)$/.exec(value.trim())?.[1]?.length ?? 0));
      const key = `${digits}${signed}`;
      let format = byDigits.get(key);
      if (!format) {
        format = new Intl.NumberFormat(intl, {
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
          ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
        });
        byDigits.set(key, format);
      }
      return format.format(value.trim() as TNumeric);
    };
    const dateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' });
    const shortDateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(intl, { dateStyle: 'medium' });
    const regions = new Intl.DisplayNames([intl], { type: 'region' });
    return {
      /** Every digit the server sent, and at least 2 decimals: "1500" reads 1,500.00. */
      amount: (value: string) => number(value, 2, false),
      money: (value: string, currency: string) => `${number(value, 2, false)} ${currency}`,
      signedMoney: (value: string, currency: string) => `${number(value, 2, true)} ${currency}`,
      /** A rate keeps its own digits. */
      rate: (value: string) => number(value, 0, false),
      dateTime: (value: string) => dateTime.format(new Date(value)),
      shortDateTime: (value: string) => shortDateTime.format(new Date(value)),
      date: (value: string) => date.format(new Date(value)),
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

export type TFundingFormat = ReturnType<typeof useFundingFormat>;

// ---------------------------------------------------------------------------------------------
// Exact decimal arithmetic on the server's decimal strings (no floats for money).

function scaled(value: string, scale: number): bigint {
  const text = value.trim();
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const units = BigInt(whole || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return negative ? -units : units;
}

const scaleOf = (...values: string[]) =>
  Math.max(0, ...values.map((v) => /\.(\d+)$/.exec(v.trim())?.[1]?.length ?? 0));

/** a − b as a decimal string with the larger number of decimals of the two. */
export function subtractDecimals(a: string, b: string): string {
  const scale = scaleOf(a, b);
  const difference = scaled(a, scale) - scaled(b, scale);
  const negative = difference < 0n;
  const digits = (negative ? -difference : difference).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Compares two decimal strings exactly: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const scale = scaleOf(a, b);
  const difference = scaled(a, scale) - scaled(b, scale);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}

/** Today's date in UTC as YYYY-MM-DD (the reconciliation report's days are UTC days). */
export const utcDay = (time = Date.now()) => new Date(time).toISOString().slice(0, 10);
/** The UTC day before or after a YYYY-MM-DD day. */
export const shiftDay = (day: string, days: number) =>
  utcDay(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);

/** True when a decimal string is zero ("0", "0.00", "-0.00"). */
export const isZero = (value: string) => !/[1-9]/.test(value);

/**
 * Where a withdrawal stands with the four-eyes rule, for the staff member looking at it:
 * `none` (one approval sends it), `first` (this approval is the first of two), `second` (someone else
 * approved first: this one sends it), `mine` (the viewer gave the first approval and cannot give the second).
 */
export type TFourEyes = 'none' | 'first' | 'second' | 'mine';
export function fourEyesStep(
  withdrawal: Pick<TAdminWithdrawal, 'flags' | 'firstApprovedBy'>,
  me: { staffId: string; username: string; displayName: string },
): TFourEyes {
  // The server names the first approver by display name (its id when the name is unknown).
  const first = withdrawal.firstApprovedBy;
  if (first) return [me.staffId, me.username, me.displayName].includes(first) ? 'mine' : 'second';
  return withdrawal.flags.includes('four_eyes') ? 'first' : 'none';
}
