import { MINUTES_PER_WEEK, type TSessionWindow } from './sessions';

/**
 * The broker's market configuration of one instrument, and the rules it must follow. The back office
 * validates with these functions before sending, the server validates again before saving, and the
 * trading engine reads the saved values (docs/backoffice/market.md).
 *
 * Volumes are lots with at most 2 decimals (the engine counts hundredths of a lot); swaps are points
 * per lot per night and the commission is account currency per lot per side, both with at most 2
 * decimals. Decimal values travel as strings, never as floats.
 */
export interface TLeverageTier {
  /** The tier applies to a position of up to this many lots (above the last tier, the last applies). */
  upToLots: string;
  maxLeverage: number;
}

export interface TInstrumentConfig {
  enabled: boolean;
  /** Positions can be closed or reduced but no new ones opened. */
  closeOnly: boolean;
  shortAllowed: boolean;
  /** Points added to the feed's spread for clients. Groups cannot override it. */
  markupPoints: number;
  /** Minimum distance in points between the market and pending prices, take-profit and stop-loss. */
  stopsLevelPoints: number;
  minVolume: string;
  volumeStep: string;
  maxVolume: string;
  /** The symbol's leverage cap; null means the catalogue's default leverage. */
  maxLeverage: number | null;
  leverageTiers: TLeverageTier[];
  sessions: TSessionWindow[];
  swapLong: string;
  swapShort: string;
  commissionPerLot: string;
}

/** The instrument terms an account group may override (everything but the spread markup and stops level). */
export const GROUP_OVERRIDE_KEYS = [
  'enabled',
  'closeOnly',
  'shortAllowed',
  'minVolume',
  'volumeStep',
  'maxVolume',
  'maxLeverage',
  'leverageTiers',
  'swapLong',
  'swapShort',
  'commissionPerLot',
  'sessions',
] as const;
export type TGroupOverrideKey = (typeof GROUP_OVERRIDE_KEYS)[number];

/**
 * One group's overrides of one instrument, stored as this camelCase JSON in
 * `instrument_group_terms.overrides`; an absent key means the instrument's own value.
 */
export type TGroupOverrides = {
  enabled?: boolean;
  closeOnly?: boolean;
  shortAllowed?: boolean;
  minVolume?: string;
  volumeStep?: string;
  maxVolume?: string;
  maxLeverage?: number;
  leverageTiers?: TLeverageTier[];
  swapLong?: string;
  swapShort?: string;
  commissionPerLot?: string;
  sessions?: TSessionWindow[];
};

/** Why a value was refused; the back office shows a sentence for each. */
export type TConfigProblem =
  | 'lotsFormat'
  | 'volumePositive'
  | 'volumeTooLarge'
  | 'maxBelowMin'
  | 'minNotMultipleOfStep'
  | 'leverageRange'
  | 'markupRange'
  | 'stopsRange'
  | 'swapFormat'
  | 'commissionFormat'
  | 'sessionsEmpty'
  | 'sessionWindow'
  | 'sessionsOverlap'
  | 'sessionsTooMany'
  | 'tiersTooMany'
  | 'tierLots'
  | 'tiersAscending'
  | 'tierLeverage'
  | 'tiersLeverageDescending'
  | 'tierAboveMax';

/** Field path (e.g. `maxVolume`, `leverageTiers.1.upToLots`, `sessions`) to problem. */
export type TConfigProblems = Record<string, TConfigProblem>;

export const MAX_LEVERAGE = 3000;
export const MAX_MARKUP_POINTS = 100_000;
export const MAX_STOPS_LEVEL_POINTS = 1_000_000;
export const MAX_VOLUME_LOTS = 1_000_000;
export const MAX_LEVERAGE_TIERS = 10;
export const MAX_SESSION_WINDOWS = 70;
const MINUTES_PER_DAY = 24 * 60;

const LOTS = /^\d{1,7}(\.\d{1,2})?$/;
const SIGNED_2 = /^-?\d{1,7}(\.\d{1,2})?$/;

/** Hundredths of a lot of a volume string, or null when it is not one. */
export function lotsToHundredths(text: string): number | null {
  if (!LOTS.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A decimal string without leading zeros or a trailing fraction of zeros: "0.10" -> "0.1", "5.00" -> "5". */
export function canonicalDecimal(text: string): string {
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  let [whole = '0', fraction = ''] = body.split('.');
  whole = whole.replace(/^0+(?=\d)/, '') || '0';
  fraction = fraction.replace(/0+$/, '');
  const out = fraction ? `${whole}.${fraction}` : whole;
  return negative && out !== '0' ? `-${out}` : out;
}

const isInt = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function checkVolumes(
  config: Pick<TInstrumentConfig, 'minVolume' | 'volumeStep' | 'maxVolume'>,
  problems: TConfigProblems,
) {
  const parsed: Record<string, number | null> = {};
  for (const key of ['minVolume', 'volumeStep', 'maxVolume'] as const) {
    const hundredths = lotsToHundredths(config[key]);
    parsed[key] = hundredths;
    if (hundredths === null) problems[key] = 'lotsFormat';
    else if (hundredths <= 0) problems[key] = 'volumePositive';
    else if (hundredths > MAX_VOLUME_LOTS * 100) problems[key] = 'volumeTooLarge';
  }
  const min = parsed.minVolume;
  const step = parsed.volumeStep;
  const max = parsed.maxVolume;
  if (problems.minVolume || problems.volumeStep || problems.maxVolume) return;
  if (min && max && max < min) problems.maxVolume = 'maxBelowMin';
  if (min && step && min % step !== 0) problems.minVolume = 'minNotMultipleOfStep';
}

/** A problem with a list of weekly windows, or null when they are fine. */
export function sessionsProblem(windows: readonly TSessionWindow[]): TConfigProblem | null {
  if (windows.length === 0) return 'sessionsEmpty';
  if (windows.length > MAX_SESSION_WINDOWS) return 'sessionsTooMany';
  for (const w of windows) {
    if (!isInt(w.from, 0, MINUTES_PER_WEEK - 1)) return 'sessionWindow';
    if (!isInt(w.to, w.from + 1, w.from + MINUTES_PER_WEEK)) return 'sessionWindow';
  }
  const sorted = [...windows].sort((a, b) => a.from - b.from);
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i] as TSessionWindow).from < (sorted[i - 1] as TSessionWindow).to) return 'sessionsOverlap';
  }
  const first = sorted[0] as TSessionWindow;
  const last = sorted.at(-1) as TSessionWindow;
  if (sorted.length > 1 && last.to > first.from + MINUTES_PER_WEEK) return 'sessionsOverlap';
  return null;
}

/**
 * The same weekly hours as the fewest windows: sorted, touching windows joined (also across the end
 * of the week), and a whole week as the single window 0..10080. Assumes `sessionsProblem` is null.
 */
export function normalizeSessions(windows: readonly TSessionWindow[]): TSessionWindow[] {
  const sorted = [...windows].map((w) => ({ from: w.from, to: w.to })).sort((a, b) => a.from - b.from);
  const merged: TSessionWindow[] = [];
  for (const w of sorted) {
    const previous = merged.at(-1);
    if (previous && w.from <= previous.to) previous.to = Math.max(previous.to, w.to);
    else merged.push(w);
  }
  if (merged.length > 1) {
    const first = merged[0] as TSessionWindow;
    const last = merged.at(-1) as TSessionWindow;
    if (last.to >= first.from + MINUTES_PER_WEEK) {
      merged.pop();
      merged.shift();
      merged.push({ from: last.from, to: first.to + MINUTES_PER_WEEK });
      merged.sort((a, b) => a.from - b.from);
    }
  }
  const total = merged.reduce((sum, w) => sum + (w.to - w.from), 0);
  if (total >= MINUTES_PER_WEEK) return [{ from: 0, to: MINUTES_PER_WEEK }];
  return merged;
}

/** Opening hours of one weekday in minutes of the day (`to` may be 1440, the end of the day). */
export interface TDayRange {
  from: number;
  to: number;
}

/** Weekly windows as seven lists of day ranges, Sunday first (as `TSessionWindow` counts). */
export function sessionsToDays(windows: readonly TSessionWindow[]): TDayRange[][] {
  const days: TDayRange[][] = [[], [], [], [], [], [], []];
  for (const w of windows) {
    let minute = w.from;
    while (minute < w.to) {
      const dayStart = Math.floor(minute / MINUTES_PER_DAY) * MINUTES_PER_DAY;
      const end = Math.min(w.to, dayStart + MINUTES_PER_DAY);
      const day = days[(dayStart / MINUTES_PER_DAY) % 7] as TDayRange[];
      day.push({ from: minute - dayStart, to: end - dayStart });
      minute = end;
    }
  }
  return days.map((ranges) => {
    const sorted = ranges.sort((a, b) => a.from - b.from);
    const merged: TDayRange[] = [];
    for (const r of sorted) {
      const previous = merged.at(-1);
      if (previous && r.from <= previous.to) previous.to = Math.max(previous.to, r.to);
      else merged.push({ ...r });
    }
    return merged;
  });
}

/** A problem with one day's ranges (each inside the day, `from` before `to`, none overlapping). */
export function dayRangesProblem(ranges: readonly TDayRange[]): TConfigProblem | null {
  for (const r of ranges) {
    if (!isInt(r.from, 0, MINUTES_PER_DAY - 1) || !isInt(r.to, r.from + 1, MINUTES_PER_DAY))
      return 'sessionWindow';
  }
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i] as TDayRange).from < (sorted[i - 1] as TDayRange).to) return 'sessionsOverlap';
  }
  return null;
}

/** Seven lists of day ranges (Sunday first) as normalized weekly windows. */
export function daysToSessions(days: readonly (readonly TDayRange[])[]): TSessionWindow[] {
  const windows = days.flatMap((ranges, day) =>
    ranges.map((r) => ({ from: day * MINUTES_PER_DAY + r.from, to: day * MINUTES_PER_DAY + r.to })),
  );
  return windows.length === 0 ? [] : normalizeSessions(windows);
}

function checkTiers(tiers: readonly TLeverageTier[], cap: number, problems: TConfigProblems, prefix = '') {
  if (tiers.length > MAX_LEVERAGE_TIERS) {
    problems[`${prefix}leverageTiers`] = 'tiersTooMany';
    return;
  }
  let previousLots = 0;
  let previousLeverage = Number.POSITIVE_INFINITY;
  tiers.forEach((tier, index) => {
    const lots = lotsToHundredths(tier.upToLots);
    const path = `${prefix}leverageTiers.${index}`;
    if (lots === null || lots <= 0) problems[`${path}.upToLots`] = 'tierLots';
    else if (lots <= previousLots) problems[`${path}.upToLots`] = 'tiersAscending';
    if (!isInt(tier.maxLeverage, 1, MAX_LEVERAGE)) problems[`${path}.maxLeverage`] = 'tierLeverage';
    else if (index === 0 && tier.maxLeverage > cap) problems[`${path}.maxLeverage`] = 'tierAboveMax';
    else if (tier.maxLeverage > previousLeverage) problems[`${path}.maxLeverage`] = 'tiersLeverageDescending';
    if (lots !== null) previousLots = Math.max(previousLots, lots);
    if (isInt(tier.maxLeverage, 1, MAX_LEVERAGE)) previousLeverage = tier.maxLeverage;
  });
}

/**
 * Every problem of a complete configuration (an instrument's, or an instrument's merged with a
 * group's overrides). `defaultLeverage` is the catalogue's, used when `maxLeverage` is null.
 */
export function validateInstrumentConfig(
  config: TInstrumentConfig,
  { defaultLeverage }: { defaultLeverage: number },
): TConfigProblems {
  const problems: TConfigProblems = {};
  checkVolumes(config, problems);
  if (!isInt(config.markupPoints, 0, MAX_MARKUP_POINTS)) problems.markupPoints = 'markupRange';
  if (!isInt(config.stopsLevelPoints, 0, MAX_STOPS_LEVEL_POINTS)) problems.stopsLevelPoints = 'stopsRange';
  if (config.maxLeverage !== null && !isInt(config.maxLeverage, 1, MAX_LEVERAGE))
    problems.maxLeverage = 'leverageRange';
  if (!SIGNED_2.test(config.swapLong)) problems.swapLong = 'swapFormat';
  if (!SIGNED_2.test(config.swapShort)) problems.swapShort = 'swapFormat';
  if (!LOTS.test(config.commissionPerLot)) problems.commissionPerLot = 'commissionFormat';
  const sessions = sessionsProblem(config.sessions);
  if (sessions) problems.sessions = sessions;
  if (!problems.maxLeverage)
    checkTiers(config.leverageTiers, config.maxLeverage ?? defaultLeverage, problems);
  return problems;
}

/** The values a group's account trades with: the instrument's, with the group's overrides on top. */
export function mergeOverrides(config: TInstrumentConfig, overrides: TGroupOverrides): TInstrumentConfig {
  const merged: TInstrumentConfig = { ...config };
  for (const key of GROUP_OVERRIDE_KEYS) {
    const value = overrides[key];
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/**
 * Problems of a group's overrides of an instrument: those of the merged terms that come from an
 * overridden value (a problem the instrument itself has is the instrument's, not the group's).
 */
export function validateGroupOverrides(
  config: TInstrumentConfig,
  overrides: TGroupOverrides,
  { defaultLeverage }: { defaultLeverage: number },
): TConfigProblems {
  const merged = validateInstrumentConfig(mergeOverrides(config, overrides), { defaultLeverage });
  const own = validateInstrumentConfig(config, { defaultLeverage });
  const problems: TConfigProblems = {};
  // A clash between an overridden value and an inherited one is reported on the overridden field.
  const movedTo: Partial<Record<TConfigProblem, string>> = {
    minNotMultipleOfStep: 'volumeStep',
    maxBelowMin: 'minVolume',
    tierAboveMax: 'maxLeverage',
  };
  for (const [path, problem] of Object.entries(merged)) {
    const key = path.split('.')[0] as string;
    if (key in overrides) problems[path] = problem;
    else if (own[path] !== problem) problems[movedTo[problem] ?? path] = problem;
  }
  return problems;
}

/** The canonical form of a configuration: decimals without padding, sessions normalized, tiers as given. */
export function canonicalConfig(config: TInstrumentConfig): TInstrumentConfig {
  return {
    enabled: config.enabled,
    closeOnly: config.closeOnly,
    shortAllowed: config.shortAllowed,
    markupPoints: config.markupPoints,
    stopsLevelPoints: config.stopsLevelPoints,
    minVolume: canonicalDecimal(config.minVolume),
    volumeStep: canonicalDecimal(config.volumeStep),
    maxVolume: canonicalDecimal(config.maxVolume),
    maxLeverage: config.maxLeverage,
    leverageTiers: config.leverageTiers.map((t) => ({
      upToLots: canonicalDecimal(t.upToLots),
      maxLeverage: t.maxLeverage,
    })),
    sessions: normalizeSessions(config.sessions),
    swapLong: canonicalDecimal(config.swapLong),
    swapShort: canonicalDecimal(config.swapShort),
    commissionPerLot: canonicalDecimal(config.commissionPerLot),
  };
}

/** The canonical form of a group's overrides (only the keys it has). */
export function canonicalOverrides(overrides: TGroupOverrides): TGroupOverrides {
  const out: TGroupOverrides = {};
  for (const key of GROUP_OVERRIDE_KEYS) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (key === 'sessions') out.sessions = normalizeSessions(value as TSessionWindow[]);
    else if (key === 'leverageTiers')
      out.leverageTiers = (value as TLeverageTier[]).map((t) => ({
        upToLots: canonicalDecimal(t.upToLots),
        maxLeverage: t.maxLeverage,
      }));
    else if (typeof value === 'string') (out as Record<string, unknown>)[key] = canonicalDecimal(value);
    else (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** JSON with object keys sorted, so equal values compare equal whatever order a store gave the keys. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Keys whose values differ between two records, in the order of `after` then `before`. */
export function changedKeys<T extends object>(
  before: T | null | undefined,
  after: T | null | undefined,
): string[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((key) => stableJson(b[key]) !== stableJson(a[key]));
}
