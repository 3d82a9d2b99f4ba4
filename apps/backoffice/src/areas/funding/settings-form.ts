import { compareDecimals, type TFundingSettings, type TMethodSettings } from './format';

/**
 * The funding settings as the form edits them (text fields; fees in percent with up to 2 decimals,
 * stored as basis points), the rules the server's schema applies, and the list of changes the review
 * step shows. Pure, so it is unit tested.
 */
export type TDirection = 'deposit' | 'withdraw';
export interface TSideForm {
  enabled: boolean;
  min: string;
  max: string;
  /** Percent, "1.5" for 150 basis points. */
  feePercent: string;
  feeFixed: string;
}
export interface TMethodForm {
  method: TMethodSettings['method'];
  deposit: TSideForm;
  withdraw: TSideForm;
}
export interface TSettingsForm {
  methods: TMethodForm[];
  fourEyesUsd: string;
  fundPasswordLockHours: string;
  coins: Record<keyof TFundingSettings['coinRules'], string>;
}

export type TSettingsProblem = 'amount' | 'minAboveMax' | 'fee' | 'hours' | 'coins';
/** Problems by field path: `card.deposit.min`, `fourEyesUsd`, `coins.first_deposit`. */
export type TSettingsProblems = Record<string, TSettingsProblem>;

export const FEE_BP_MAX = 2_000;
export const LOCK_HOURS_MAX = 720;
export const COINS_MAX = 10_000;
export const COIN_RULES = ['first_deposit', 'kyc_approved', 'contest_entry'] as const;

/** 150 basis points read "1.5" (percent); 0 reads "0". */
export function bpToPercent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const cents = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return cents ? `${whole}.${cents}` : String(whole);
}

/** "1.5" percent is 150 basis points; null when it is not 0 to 20 with at most 2 decimals. */
export function percentToBp(text: string): number | null {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bp = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bp <= FEE_BP_MAX ? bp : null;
}

const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;
const wholeIn = (text: string, max: number) => /^\d{1,6}$/.test(text.trim()) && Number(text.trim()) <= max;

export function toSettingsForm(settings: TFundingSettings): TSettingsForm {
  return {
    methods: settings.methods.map((m) => ({
      method: m.method,
      deposit: {
        enabled: m.depositEnabled,
        min: m.depositMin,
        max: m.depositMax,
        feePercent: bpToPercent(m.depositFeeBp),
        feeFixed: m.depositFeeFixed,
      },
      withdraw: {
        enabled: m.withdrawEnabled,
        min: m.withdrawMin,
        max: m.withdrawMax,
        feePercent: bpToPercent(m.withdrawFeeBp),
        feeFixed: m.withdrawFeeFixed,
      },
    })),
    fourEyesUsd: settings.fourEyesUsd,
    fundPasswordLockHours: String(settings.fundPasswordLockHours),
    coins: {
      first_deposit: String(settings.coinRules.first_deposit),
      kyc_approved: String(settings.coinRules.kyc_approved),
      contest_entry: String(settings.coinRules.contest_entry),
    },
  };
}

/** Reads the form back into the settings the server takes, or the problems of its fields. */
export function readSettingsForm(
  form: TSettingsForm,
):
  | { settings: TFundingSettings; problems: TSettingsProblems }
  | { settings: null; problems: TSettingsProblems } {
  const problems: TSettingsProblems = {};
  const side = (path: string, s: TSideForm) => {
    for (const field of ['min', 'max', 'feeFixed'] as const)
      if (!AMOUNT.test(s[field].trim())) problems[`${path}.${field}`] = 'amount';
    if (!problems[`${path}.min`] && !problems[`${path}.max`] && compareDecimals(s.min, s.max) > 0)
      problems[`${path}.max`] = 'minAboveMax';
    const bp = percentToBp(s.feePercent);
    if (bp === null) problems[`${path}.feePercent`] = 'fee';
    return bp ?? 0;
  };
  const methods: TMethodSettings[] = form.methods.map((m) => {
    const depositFeeBp = side(`${m.method}.deposit`, m.deposit);
    const withdrawFeeBp = side(`${m.method}.withdraw`, m.withdraw);
    return {
      method: m.method,
      depositEnabled: m.deposit.enabled,
      depositMin: m.deposit.min.trim(),
      depositMax: m.deposit.max.trim(),
      depositFeeBp,
      depositFeeFixed: m.deposit.feeFixed.trim(),
      withdrawEnabled: m.withdraw.enabled,
      withdrawMin: m.withdraw.min.trim(),
      withdrawMax: m.withdraw.max.trim(),
      withdrawFeeBp,
      withdrawFeeFixed: m.withdraw.feeFixed.trim(),
    };
  });
  if (!AMOUNT.test(form.fourEyesUsd.trim())) problems.fourEyesUsd = 'amount';
  if (!wholeIn(form.fundPasswordLockHours, LOCK_HOURS_MAX)) problems.fundPasswordLockHours = 'hours';
  for (const rule of COIN_RULES)
    if (!wholeIn(form.coins[rule], COINS_MAX)) problems[`coins.${rule}`] = 'coins';
  if (Object.keys(problems).length > 0) return { settings: null, problems };
  return {
    problems,
    settings: {
      methods,
      fourEyesUsd: form.fourEyesUsd.trim(),
      fundPasswordLockHours: Number(form.fundPasswordLockHours.trim()),
      coinRules: {
        first_deposit: Number(form.coins.first_deposit.trim()),
        kyc_approved: Number(form.coins.kyc_approved.trim()),
        contest_entry: Number(form.coins.contest_entry.trim()),
      },
    },
  };
}

/** One changed value for the review step. */
export type TSettingsChange =
  | {
      kind: 'method';
      method: string;
      direction: TDirection;
      field: keyof TSideForm;
      before: string;
      after: string;
    }
  | { kind: 'fourEyesUsd' | 'fundPasswordLockHours'; before: string; after: string }
  | { kind: 'coins'; rule: (typeof COIN_RULES)[number]; before: string; after: string };

const sameAmount = (a: string, b: string) => AMOUNT.test(a) && AMOUNT.test(b) && compareDecimals(a, b) === 0;

/** Every value that differs between the saved settings and the new ones (amounts compared as numbers). */
export function settingsChanges(before: TFundingSettings, after: TFundingSettings): TSettingsChange[] {
  const changes: TSettingsChange[] = [];
  const old = toSettingsForm(before);
  const next = toSettingsForm(after);
  for (const m of next.methods) {
    const was = old.methods.find((o) => o.method === m.method);
    for (const direction of ['deposit', 'withdraw'] as const)
      for (const field of ['enabled', 'min', 'max', 'feePercent', 'feeFixed'] as const) {
        const a = was ? String(was[direction][field]) : '';
        const b = String(m[direction][field]);
        if (a === b || (field !== 'enabled' && field !== 'feePercent' && sameAmount(a, b))) continue;
        changes.push({ kind: 'method', method: m.method, direction, field, before: a, after: b });
      }
  }
  if (!sameAmount(old.fourEyesUsd, next.fourEyesUsd))
    changes.push({ kind: 'fourEyesUsd', before: old.fourEyesUsd, after: next.fourEyesUsd });
  if (old.fundPasswordLockHours !== next.fundPasswordLockHours)
    changes.push({
      kind: 'fundPasswordLockHours',
      before: old.fundPasswordLockHours,
      after: next.fundPasswordLockHours,
    });
  for (const rule of COIN_RULES)
    if (old.coins[rule] !== next.coins[rule])
      changes.push({ kind: 'coins', rule, before: old.coins[rule], after: next.coins[rule] });
  return changes;
}
