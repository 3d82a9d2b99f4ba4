import type { TRouteOutput } from '@broker/contracts/routes';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';

export type TKycSubmission = TRouteOutput<'adminkycdetail'>['submission'];
export type TKycState = TKycSubmission['status'];
export type TKycLevel = TKycSubmission['level'];
export type TKycFile = TKycSubmission['files'][number];

/** The states a submission can be in (a submission is never `none`: that is a customer without one). */
export const KYC_FILTERS = ['pending', 'approved', 'rejected', 'all'] as const;
export const KYC_LEVELS = ['basic', 'senior'] as const satisfies readonly TKycLevel[];

/** Translation keys (literal, so the catalog test sees them) of what the KYC pages show. */
export const KYC_STATE_LABELS: Record<TKycState, string> = {
  none: 'admin.kyc.state.none',
  pending: 'admin.kyc.state.pending',
  approved: 'admin.kyc.state.approved',
  rejected: 'admin.kyc.state.rejected',
};

export const KYC_STATE_TONES: Record<TKycState, string> = {
  none: '',
  pending: 'kit-pill-warn',
  approved: 'kit-pill-up',
  rejected: 'kit-pill-down',
};

export const LEVEL_LABELS: Record<TKycLevel, string> = {
  basic: 'admin.kyc.level.basic',
  senior: 'admin.kyc.level.senior',
};

export const DOCUMENT_LABELS: Record<string, string> = {
  passport: 'admin.kyc.document.passport',
  id_card: 'admin.kyc.document.id_card',
  driving_licence: 'admin.kyc.document.driving_licence',
};

export const FILE_ROLE_LABELS: Record<TKycFile['role'], string> = {
  front: 'admin.kyc.file.front',
  back: 'admin.kyc.file.back',
  selfie: 'admin.kyc.file.selfie',
  proof: 'admin.kyc.file.proof',
  video: 'admin.kyc.file.video',
};

/** Spec 5: a rejection needs a reason of at most 20 characters (checked as the server does: trimmed). */
export const REVIEW_REASON_MAX = 20;
export function reviewReasonProblem(reason: string): 'required' | 'tooLong' | null {
  const text = reason.trim();
  if (text === '') return 'required';
  return text.length > REVIEW_REASON_MAX ? 'tooLong' : null;
}

/** Whole years between a YYYY-MM-DD birth date and now (null for a date that does not parse). */
export function ageOn(birthDate: string, now = new Date()): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let age = now.getUTCFullYear() - year;
  if (now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day)) age -= 1;
  return age >= 0 && age < 150 ? age : null;
}

/** Date, relative-time, size and country formatters of the current language. */
export function useKycFormat() {
  const { intl } = useI18n();
  return useMemo(() => {
    const dateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' });
    const shortDateTime = new Intl.DateTimeFormat(intl, { dateStyle: 'short', timeStyle: 'short' });
    // A birth date is a calendar day: formatted in UTC so no time zone moves it.
    const day = new Intl.DateTimeFormat(intl, { dateStyle: 'long', timeZone: 'UTC' });
    const regions = new Intl.DisplayNames([intl], { type: 'region' });
    const durations = new Map<string, Intl.NumberFormat>();
    const duration = (unit: 'minute' | 'hour' | 'day', amount: number) => {
      let format = durations.get(unit);
      if (!format) {
        format = new Intl.NumberFormat(intl, { style: 'unit', unit, unitDisplay: 'long' });
        durations.set(unit, format);
      }
      return format.format(amount);
    };
    const kb = new Intl.NumberFormat(intl, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 });
    const mb = new Intl.NumberFormat(intl, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
    return {
      dateTime: (value: string) => dateTime.format(new Date(value)),
      shortDateTime: (value: string) => shortDateTime.format(new Date(value)),
      day: (value: string) => {
        const time = Date.parse(`${value}T00:00:00Z`);
        return Number.isNaN(time) ? value : day.format(time);
      },
      country: (code: string | null) => {
        if (!code) return null;
        try {
          return regions.of(code) ?? code;
        } catch {
          return code;
        }
      },
      /** How long since then, in the largest whole unit: "3 hr", "2 days". */
      waited: (value: string, now = Date.now()) => {
        const minutes = Math.max(0, Math.floor((now - new Date(value).getTime()) / 60_000));
        if (minutes < 60) return duration('minute', minutes);
        if (minutes < 24 * 60) return duration('hour', Math.floor(minutes / 60));
        return duration('day', Math.floor(minutes / (24 * 60)));
      },
      bytes: (bytes: number) => (bytes < 1_000_000 ? kb.format(bytes / 1000) : mb.format(bytes / 1_000_000)),
    };
  }, [intl]);
}
