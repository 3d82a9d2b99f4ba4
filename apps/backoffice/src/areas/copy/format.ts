import type { TRouteOutput } from '@broker/contracts/routes';
import type { TValues } from '@broker/i18n/translator';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';

export type TAdminLeader = TRouteOutput<'admincopyleaders'>['items'][number];
export type TLeaderState = TAdminLeader['status'];
export type TAdminRelation = TRouteOutput<'admincopyrelations'>['items'][number];
export type TCopyState = TAdminRelation['status'];
export type TStopReason = NonNullable<TAdminRelation['stopReason']>;
export type TCopyMode = TAdminRelation['mode'];
export type TSettlement = TRouteOutput<'admincopysettlements'>['items'][number];
export type TCopySettings = TRouteOutput<'admincopysettings'>;

/** The leader states in the order an application goes through them (the contract's LEADER_STATES). */
export const LEADER_STATES = [
  'pending',
  'approved',
  'rejected',
  'suspended',
] as const satisfies readonly TLeaderState[];
export const COPY_STATES = ['active', 'paused', 'stopped'] as const satisfies readonly TCopyState[];
export const COPY_MODES = [
  'fixed_lot',
  'fixed_margin',
  'ratio',
  'equity',
] as const satisfies readonly TCopyMode[];

/** Translation keys (literal, so the catalog test sees them) of the values the copy pages show. */
export const LEADER_STATE_LABELS: Record<TLeaderState, string> = {
  pending: 'admin.copy.leaderState.pending',
  approved: 'admin.copy.leaderState.approved',
  rejected: 'admin.copy.leaderState.rejected',
  suspended: 'admin.copy.leaderState.suspended',
};

export const LEADER_STATE_TONES: Record<TLeaderState, string> = {
  pending: 'kit-pill-warn',
  approved: 'kit-pill-up',
  rejected: 'kit-pill-down',
  suspended: 'kit-pill-down',
};

export const COPY_STATE_LABELS: Record<TCopyState, string> = {
  active: 'admin.copy.copyState.active',
  paused: 'admin.copy.copyState.paused',
  stopped: 'admin.copy.copyState.stopped',
};

export const COPY_STATE_TONES: Record<TCopyState, string> = {
  active: 'kit-pill-up',
  paused: 'kit-pill-warn',
  stopped: '',
};

export const STOP_REASON_LABELS: Record<TStopReason, string> = {
  client_close: 'admin.copy.stopReason.client_close',
  client_keep: 'admin.copy.stopReason.client_keep',
  stop_loss: 'admin.copy.stopReason.stop_loss',
  take_profit: 'admin.copy.stopReason.take_profit',
  leader_closed: 'admin.copy.stopReason.leader_closed',
  follower_closed: 'admin.copy.stopReason.follower_closed',
};

export const MODE_LABELS: Record<TCopyMode, string> = {
  fixed_lot: 'admin.copy.mode.fixed_lot',
  fixed_margin: 'admin.copy.mode.fixed_margin',
  ratio: 'admin.copy.mode.ratio',
  equity: 'admin.copy.mode.equity',
};

export const SETTLEMENT_KIND_LABELS: Record<TSettlement['kind'], string> = {
  weekly: 'admin.copy.settlementKind.weekly',
  stop: 'admin.copy.settlementKind.stop',
};

/** Spec 3 account types (the customers pages' words) and the trade types (modes). */
export const ACCOUNT_TYPE_LABELS: Record<number, string> = {
  1: 'admin.customers.accountType.demo',
  2: 'admin.customers.accountType.real',
  3: 'admin.customers.accountType.experience',
};
export const TRADE_TYPE_LABELS: Record<number, string> = {
  1: 'admin.copy.tradeType.novice',
  2: 'admin.copy.tradeType.standard',
};

/**
 * The counts of each leader state and of all of them, from the server's counts (a state no leader is
 * in may be left out of the answer: it counts 0).
 */
export function leaderCounts(counts: Record<string, number> | undefined): Record<string, number> | null {
  if (!counts) return null;
  const all: Record<string, number> = { all: 0 };
  for (const state of LEADER_STATES) {
    all[state] = counts[state] ?? 0;
    all.all = (all.all ?? 0) + (counts[state] ?? 0);
  }
  return all;
}

/** Spec 5: a rejection or suspension needs a reason of at most 20 characters (trimmed, as the server checks it). */
export const REVIEW_REASON_MAX = 20;
export function reviewReasonProblem(reason: string): 'required' | 'tooLong' | null {
  const text = reason.trim();
  if (text === '') return 'required';
  return text.length > REVIEW_REASON_MAX ? 'tooLong' : null;
}

/** What a staff member may do with a leader in its state, given their permissions. */
export type TLeaderAction = 'approve' | 'reject' | 'suspend' | 'reinstate';
export function leaderActions(status: TLeaderState, can: (permission: string) => boolean): TLeaderAction[] {
  if (status === 'pending') return can('copy.review') ? ['reject', 'approve'] : [];
  if (status === 'approved') return can('copy.suspend') ? ['suspend'] : [];
  if (status === 'suspended') return can('copy.suspend') ? ['reinstate'] : [];
  return [];
}

/**
 * A copy's mode and value as one translated phrase: `fixed_lot` "0.10" is lots per trade,
 * `fixed_margin` money of margin per trade, `ratio` a multiplier of the leader's volume, `equity` no
 * value (the leader's volume scaled by the equities).
 */
export function modeText(
  mode: TCopyMode,
  value: string,
  currency: string,
): { key: string; values?: TValues } {
  switch (mode) {
    case 'fixed_lot':
      return { key: 'admin.copy.modeValue.fixed_lot', values: { value } };
    case 'fixed_margin':
      return { key: 'admin.copy.modeValue.fixed_margin', values: { value, currency } };
    case 'ratio':
      return { key: 'admin.copy.modeValue.ratio', values: { value } };
    case 'equity':
      return { key: 'admin.copy.modeValue.equity' };
  }
}

/**
 * Who decided, for the staff member reading it: `you` when the server names the reader (by id, user
 * name or display name), null when it names nobody, otherwise the name it sent.
 */
export function reviewerName(
  reviewedBy: string | null,
  me: { staffId: string; username: string; displayName: string },
): string | null {
  if (!reviewedBy) return null;
  return [me.staffId, me.username, me.displayName].includes(reviewedBy) ? 'you' : reviewedBy;
}

/** Risk score 1 (calm) to 10 (wild) in three bands. */
export function riskBand(score: number): 'low' | 'medium' | 'high' {
  if (score <= 3) return 'low';
  return score <= 6 ? 'medium' : 'high';
}
export const RISK_BAND_TONES = {
  low: 'kit-pill-up',
  medium: 'kit-pill-warn',
  high: 'kit-pill-down',
} as const;

/** Average holding time in minutes as days, hours and minutes (the two largest parts that are not 0). */
export function holdParts(minutes: number): { days: number; hours: number; minutes: number } {
  const total = Math.max(0, Math.round(minutes));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const rest = total % 60;
  return days > 0 ? { days, hours, minutes: 0 } : { days: 0, hours, minutes: rest };
}

/** Sign of a decimal string: the tone of a figure (up for gains, down for losses). */
export function tone(text: string | null): string | undefined {
  if (text === null) return undefined;
  if (/^-/.test(text) && /[1-9]/.test(text)) return 'kit-down';
  if (/[1-9]/.test(text)) return 'kit-up';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Exact decimal arithmetic on the server's decimal strings (no floats for money).

const scaleOf = (...values: string[]) =>
  Math.max(0, ...values.map((v) => /\.(\d+)$/.exec(v.trim())?.[1]?.length ?? 0));

function scaled(value: string, scale: number): bigint {
  const text = value.trim();
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const units = BigInt(whole || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return negative ? -units : units;
}

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

// ---------------------------------------------------------------------------------------------
// The settings form

/** The copy-trading rules as the form edits them (text fields). */
export interface TCopySettingsForm {
  autoApprove: boolean;
  minTradingDays: string;
  minEquity: string;
  maxFeePercent: string;
}
export type TCopySettingsProblem = 'days' | 'amount' | 'percent';
export type TCopySettingsProblems = Partial<
  Record<Exclude<keyof TCopySettingsForm, 'autoApprove'>, TCopySettingsProblem>
>;

/** The contract's rules (ZCopySettings): days 0 to 3,650; money with at most 2 decimals; a fee up to 30 %. */
export const TRADING_DAYS_MAX = 3650;
export const FEE_PERCENT_MAX = 30;
const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;
const PERCENT = /^\d{1,2}(\.\d{1,2})?$/;

export const toCopySettingsForm = (settings: TCopySettings): TCopySettingsForm => ({
  autoApprove: settings.autoApprove,
  minTradingDays: String(settings.minTradingDays),
  minEquity: settings.minEquity,
  maxFeePercent: settings.maxFeePercent,
});

/** Reads the form back into the settings the server takes, or the problems of its fields. */
export function readCopySettingsForm(
  form: TCopySettingsForm,
):
  | { settings: TCopySettings; problems: TCopySettingsProblems }
  | { settings: null; problems: TCopySettingsProblems } {
  const problems: TCopySettingsProblems = {};
  const days = form.minTradingDays.trim();
  if (!/^\d{1,4}$/.test(days) || Number(days) > TRADING_DAYS_MAX) problems.minTradingDays = 'days';
  const equity = form.minEquity.trim();
  if (!AMOUNT.test(equity)) problems.minEquity = 'amount';
  const fee = form.maxFeePercent.trim();
  if (!PERCENT.test(fee) || compareDecimals(fee, String(FEE_PERCENT_MAX)) > 0)
    problems.maxFeePercent = 'percent';
  if (Object.keys(problems).length > 0) return { settings: null, problems };
  return {
    settings: {
      autoApprove: form.autoApprove,
      minTradingDays: Number(days),
      minEquity: equity,
      maxFeePercent: fee,
    },
    problems,
  };
}

export interface TCopySettingsChange {
  field: keyof TCopySettings;
  before: string;
  after: string;
}

/** The values that change, as before → after; amounts compare as numbers ("10" equals "10.00"). */
export function copySettingsChanges(before: TCopySettings, after: TCopySettings): TCopySettingsChange[] {
  const changes: TCopySettingsChange[] = [];
  if (before.autoApprove !== after.autoApprove)
    changes.push({
      field: 'autoApprove',
      before: String(before.autoApprove),
      after: String(after.autoApprove),
    });
  if (before.minTradingDays !== after.minTradingDays)
    changes.push({
      field: 'minTradingDays',
      before: String(before.minTradingDays),
      after: String(after.minTradingDays),
    });
  for (const field of ['minEquity', 'maxFeePercent'] as const)
    if (compareDecimals(before[field], after[field]) !== 0)
      changes.push({ field, before: before[field], after: after[field] });
  return changes;
}

// ---------------------------------------------------------------------------------------------
// Formatting

/** Decimal strings from the server, formatted exactly (Intl formats numeric strings without floats). */
type TNumeric = `${number}`;

/** Money, percentages, lots, counts and dates in the current language. */
export function useCopyFormat() {
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
    const whole = new Intl.NumberFormat(intl);
    const dateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' });
    const shortDateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(intl, { dateStyle: 'medium' });
    const shortDate = new Intl.DateTimeFormat(intl, { dateStyle: 'short' });
    return {
      /** Every digit the server sent, and at least 2 decimals: "1500" reads 1,500.00. */
      amount: (value: string) => number(value, 2, false),
      money: (value: string, currency: string) => `${number(value, 2, false)} ${currency}`,
      signedMoney: (value: string, currency: string) => `${number(value, 2, true)} ${currency}`,
      /** "12.5" reads 12.50 %; null (no history) reads —. */
      percent: (value: string | null) => (value === null ? '—' : `${number(value, 2, false)} %`),
      signedPercent: (value: string | null) => (value === null ? '—' : `${number(value, 2, true)} %`),
      /** A multiplier or lots as sent ("0.5" stays 0.5). */
      plain: (value: string) => number(value, 0, false),
      lots: (value: string) => number(value, 2, false),
      signedLots: (value: string) => number(value, 2, true),
      count: (value: number) => whole.format(value),
      dateTime: (value: string) => dateTime.format(new Date(value)),
      shortDateTime: (value: string) => shortDateTime.format(new Date(value)),
      date: (value: string) => date.format(new Date(value)),
      shortDate: (value: string) => shortDate.format(new Date(value)),
    };
  }, [intl]);
}

export type TCopyFormat = ReturnType<typeof useCopyFormat>;
