import {
  canonicalConfig,
  canonicalOverrides,
  dayRangesProblem,
  daysToSessions,
  sessionsToDays,
  type TConfigProblem,
  type TGroupOverrideKey,
  type TGroupOverrides,
  type TInstrumentConfig,
  validateGroupOverrides,
  validateInstrumentConfig,
} from '@broker/domain/market/market-config';
import { hhmm, parseHhmm } from './format';

/** What the edit form holds: text as typed, turned into a configuration only when checked. */
export interface TInstrumentForm {
  enabled: boolean;
  closeOnly: boolean;
  shortAllowed: boolean;
  markupPoints: string;
  stopsLevelPoints: string;
  minVolume: string;
  volumeStep: string;
  maxVolume: string;
  /** Empty: the catalogue's default leverage. */
  maxLeverage: string;
  tiers: { upToLots: string; maxLeverage: string }[];
  /** Seven days, Sunday first, each with its opening hours as "HH:MM" texts. */
  days: { from: string; to: string }[][];
  swapLong: string;
  swapShort: string;
  commissionPerLot: string;
}

export type TProblems = Record<string, TConfigProblem>;

export function toForm(config: TInstrumentConfig): TInstrumentForm {
  return {
    enabled: config.enabled,
    closeOnly: config.closeOnly,
    shortAllowed: config.shortAllowed,
    markupPoints: String(config.markupPoints),
    stopsLevelPoints: String(config.stopsLevelPoints),
    minVolume: config.minVolume,
    volumeStep: config.volumeStep,
    maxVolume: config.maxVolume,
    maxLeverage: config.maxLeverage === null ? '' : String(config.maxLeverage),
    tiers: config.leverageTiers.map((t) => ({ upToLots: t.upToLots, maxLeverage: String(t.maxLeverage) })),
    days: sessionsToDays(config.sessions).map((ranges) =>
      ranges.map((r) => ({ from: hhmm(r.from), to: hhmm(r.to) })),
    ),
    swapLong: config.swapLong,
    swapShort: config.swapShort,
    commissionPerLot: config.commissionPerLot,
  };
}

/** A whole number as typed, or NaN (which the rules refuse). */
const integer = (text: string) => (/^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** The form as a configuration, with the problems of the day editor (the rules check the rest). */
function formConfig(form: TInstrumentForm): { config: TInstrumentConfig; problems: TProblems } {
  const problems: TProblems = {};
  const days = form.days.map((ranges, day) => {
    const parsed = ranges.map((r) => ({ from: parseHhmm(r.from), to: parseHhmm(r.to) }));
    if (parsed.some((r) => r.from === null || r.to === null)) {
      problems[`days.${day}`] = 'sessionWindow';
      return [];
    }
    const valid = parsed as { from: number; to: number }[];
    const problem = dayRangesProblem(valid);
    if (problem) problems[`days.${day}`] = problem;
    return problem ? [] : valid;
  });
  const config: TInstrumentConfig = {
    enabled: form.enabled,
    closeOnly: form.closeOnly,
    shortAllowed: form.shortAllowed,
    markupPoints: integer(form.markupPoints),
    stopsLevelPoints: integer(form.stopsLevelPoints),
    minVolume: form.minVolume.trim(),
    volumeStep: form.volumeStep.trim(),
    maxVolume: form.maxVolume.trim(),
    maxLeverage: form.maxLeverage.trim() === '' ? null : integer(form.maxLeverage),
    leverageTiers: form.tiers.map((t) => ({
      upToLots: t.upToLots.trim(),
      maxLeverage: integer(t.maxLeverage),
    })),
    sessions: daysToSessions(days),
    swapLong: form.swapLong.trim(),
    swapShort: form.swapShort.trim(),
    commissionPerLot: form.commissionPerLot.trim(),
  };
  return { config, problems };
}

/** The instrument form checked by the shared rules; `config` is canonical when there are no problems. */
export function readInstrumentForm(
  form: TInstrumentForm,
  defaultLeverage: number,
): { config: TInstrumentConfig; problems: TProblems } {
  const { config, problems } = formConfig(form);
  const ruled = validateInstrumentConfig(config, { defaultLeverage });
  // A day's own problem says more than the week's.
  if (Object.keys(problems).some((k) => k.startsWith('days.'))) delete ruled.sessions;
  const all = { ...ruled, ...problems };
  return { config: Object.keys(all).length === 0 ? canonicalConfig(config) : config, problems: all };
}

/** A group's overrides from the form (only the ticked keys), checked against the instrument. */
export function readOverridesForm(
  form: TInstrumentForm,
  keys: ReadonlySet<TGroupOverrideKey>,
  base: TInstrumentConfig,
  defaultLeverage: number,
): { overrides: TGroupOverrides; problems: TProblems } {
  const { config, problems: dayProblems } = formConfig(form);
  const problems: TProblems = {};
  for (const [path, problem] of Object.entries(dayProblems))
    if (keys.has('sessions')) problems[path] = problem;
  const overrides: TGroupOverrides = {};
  for (const key of keys) {
    const value = config[key];
    // A group cannot leave the cap to the catalogue default: an override names a leverage.
    if (key === 'maxLeverage' && value === null) {
      problems.maxLeverage = 'leverageRange';
      continue;
    }
    (overrides as Record<string, unknown>)[key] = value;
  }
  const ruled = validateGroupOverrides(base, overrides, { defaultLeverage });
  if (Object.keys(problems).some((k) => k.startsWith('days.'))) delete ruled.sessions;
  const all = { ...ruled, ...problems };
  return {
    overrides: Object.keys(all).length === 0 ? canonicalOverrides(overrides) : overrides,
    problems: all,
  };
}

/** The first problem of a field path, or of any path under it. */
export function problemAt(problems: TProblems, path: string): TConfigProblem | undefined {
  return (
    problems[path] ?? Object.entries(problems).find(([key]) => key.startsWith(`${path}.`))?.[1] ?? undefined
  );
}
