import type { TCopy, TCopyControls, TCopyMode } from '@broker/contracts/copy-routes';
import type { TRouteInput } from '@broker/contracts/routes';
import { parseAmountInput, toInputText, toMinor } from '../../lib/money';

/**
 * The copy-trading forms as pure functions (issue 18): the follow and edit form, the leader's terms
 * and the discovery filters. The rules mirror the contract's (packages/contracts/src/copy-routes.ts),
 * so a form the server would refuse is marked before it is sent. Every figure the trader types is read
 * in the page's locale ("0,5" in German) into the plain decimal string the server takes ("0.50"), and
 * compared as integer hundredths: no float ever decides.
 */

/** A field's problem: a catalog key under `copy.problem.` and its values. */
export interface TProblem {
  key: string;
  values?: Record<string, string | number>;
}

/** The form as typed: every figure is text in the reader's locale; empty controls mean no limit. */
export interface TFollowDraft {
  mode: TCopyMode;
  /** Lots (fixed_lot), money (fixed_margin) or a multiplier (ratio); unused for equity. */
  value: string;
  amount: string;
  stopLossPercent: string;
  takeProfitPercent: string;
  maxVolume: string;
  maxPositions: string;
  maxSlippagePoints: string;
  copyStops: boolean;
  copyExisting: boolean;
}

// The contract's lists, repeated without its schemas (the browser bundle takes no zod); `satisfies`
// keeps them in step with the contract's types.
export const COPY_MODES = [
  'fixed_lot',
  'fixed_margin',
  'ratio',
  'equity',
] as const satisfies readonly TCopyMode[];
export const LEADER_SORTS = [
  'return30d',
  'return90d',
  'returnAll',
  'drawdown',
  'risk',
  'followers',
  'assets',
] as const satisfies readonly TRouteInput<'followleaders'>['sort'][];

export type TFollowField = Exclude<keyof TFollowDraft, 'mode' | 'copyStops' | 'copyExisting'>;

export const EMPTY_DRAFT: TFollowDraft = {
  mode: 'ratio',
  value: '1',
  amount: '',
  stopLossPercent: '',
  takeProfitPercent: '',
  maxVolume: '',
  maxPositions: '',
  maxSlippagePoints: '',
  copyStops: true,
  copyExisting: false,
};

/** The unit of each mode's value: lots (0.01 to 1,000), money of margin, a multiplier; equity takes none. */
export const MODE_UNIT: Record<TCopyMode, 'lots' | 'money' | 'multiplier' | null> = {
  fixed_lot: 'lots',
  fixed_margin: 'money',
  ratio: 'multiplier',
  equity: null,
};

/** Bounds in hundredths (lots, money, multiplier, percent) or whole numbers (counts, points). */
const LIMITS = {
  lots: { min: 1n, max: 100_000n },
  maxVolume: { min: 1n, max: 99_999_999n },
  money: { min: 1n, max: 999_999_999_999_999n },
  stopLossPercent: { min: 1n, max: 10_000n },
  takeProfitPercent: { min: 1n, max: 1_000_000n },
  maxPositions: { min: 1, max: 500 },
  maxSlippagePoints: { min: 0, max: 100_000 },
  feePercent: { min: 0n, max: 3_000n },
  positionsDelayMinutes: { min: 0, max: 1440 },
} as const;
export const BIO_MAX = 500;

type TDecimalCheck = { ok: true; value: string; hundredths: bigint } | { ok: false; problem: TProblem };

/** Hundredths as the decimal string a problem's text shows ("0.01", "100"). */
const plain = (hundredths: bigint) => {
  const whole = hundredths / 100n;
  const rest = hundredths % 100n;
  return rest === 0n ? whole.toString() : `${whole}.${rest.toString().padStart(2, '0')}`;
};

/** A multiplier: 0.01 to 100 with up to 4 decimals (the engine keeps it in basis points). */
const MULTIPLIER = { min: 100n, max: 1_000_000n, decimals: 4 };

/**
 * A typed multiplier in the reader's locale ("0,25" in German, a point always works) as the plain
 * string the server takes and its basis points; no grouping (a multiplier is at most 100).
 */
export function readMultiplier(
  text: string,
  intl: string,
): { ok: true; value: string; bp: bigint } | { ok: false; problem: TProblem } {
  const mark = new Intl.NumberFormat(intl).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  const compact = text
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(mark, '.')
    .replace(',', '.');
  if (compact === '') return { ok: false, problem: { key: 'required' } };
  const match = /^(\d{0,4})(?:\.(\d*))?$/.exec(compact);
  if (!match || (!match[1] && !match[2])) return { ok: false, problem: { key: 'format' } };
  const decimals = match[2] ?? '';
  if (decimals.length > MULTIPLIER.decimals)
    return { ok: false, problem: { key: 'decimalsN', values: { count: MULTIPLIER.decimals } } };
  const bp = BigInt((match[1] || '0') + decimals.padEnd(MULTIPLIER.decimals, '0'));
  if (bp < MULTIPLIER.min || bp > MULTIPLIER.max)
    return { ok: false, problem: { key: 'range', values: { min: '0.01', max: '100' } } };
  const whole = (bp / 10_000n).toString();
  const fraction = (bp % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return { ok: true, value: fraction ? `${whole}.${fraction}` : whole, bp };
}

/** A typed decimal (2 decimals at most) within [min, max] hundredths. */
function decimalIn(text: string, intl: string, limit: { min: bigint; max: bigint }): TDecimalCheck {
  const parsed = parseAmountInput(text, intl);
  if (!parsed.ok)
    return { ok: false, problem: { key: parsed.problem === 'empty' ? 'required' : parsed.problem } };
  if (parsed.minor < limit.min || parsed.minor > limit.max)
    return { ok: false, problem: { key: 'range', values: { min: plain(limit.min), max: plain(limit.max) } } };
  return { ok: true, value: parsed.value, hundredths: parsed.minor };
}

/** A typed whole number within [min, max]. */
function integerIn(
  text: string,
  limit: { min: number; max: number },
): { ok: true; value: number } | { ok: false; problem: TProblem } {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (compact === '') return { ok: false, problem: { key: 'required' } };
  if (!/^\d{1,7}$/.test(compact)) return { ok: false, problem: { key: 'integer' } };
  const value = Number(compact);
  if (value < limit.min || value > limit.max)
    return { ok: false, problem: { key: 'range', values: { min: limit.min, max: limit.max } } };
  return { ok: true, value };
}

/** The mode's value as the server takes it ("0.50"; "0" for equity), or its problem. */
export function modeValue(
  mode: TCopyMode,
  text: string,
  intl: string,
): { ok: true; value: string } | { ok: false; problem: TProblem } {
  const unit = MODE_UNIT[mode];
  if (unit === null) return { ok: true, value: '0' };
  const checked = unit === 'multiplier' ? readMultiplier(text, intl) : decimalIn(text, intl, LIMITS[unit]);
  return checked.ok ? { ok: true, value: checked.value } : checked;
}

/**
 * What a mode makes of one leader trade of `leaderLots` (a decimal string of lots), when it does not
 * depend on the accounts' equity or margin: fixed lots are the value, a ratio scales the leader's
 * volume and rounds down to a hundredth of a lot (the engine then rounds onto the symbol's steps).
 * Null for equity and fixed margin, which depend on the accounts at the time.
 */
export function exampleLots(mode: TCopyMode, value: string, leaderLots = '1.00'): string | null {
  const leader = toMinor(leaderLots);
  if (leader === null) return null;
  if (mode === 'fixed_lot') {
    const v = toMinor(value);
    return v === null ? null : plain2(v);
  }
  if (mode === 'ratio') {
    const ratio = readMultiplier(value, 'en-US');
    return ratio.ok ? plain2((leader * ratio.bp) / 10_000n) : null;
  }
  return null;
}
const plain2 = (hundredths: bigint) =>
  `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;

export interface TFollowRequest {
  mode: TCopyMode;
  value: string;
  amount: string;
  controls: TCopyControls;
  copyExisting: boolean;
}

export type TFollowCheck =
  | { ok: true; request: TFollowRequest }
  | { ok: false; problems: Partial<Record<TFollowField, TProblem>> };

/**
 * The follow form (or, with `withAmount: false`, the edit form) checked as the server would: the
 * amount as money of 2 decimals at least the leader's minimum, the mode's value in its range, and each
 * risk control either empty (no limit) or in its range. Answers the request's parts, or the problems.
 */
export function checkFollowDraft(
  draft: TFollowDraft,
  { intl, minCopyAmount, withAmount = true }: { intl: string; minCopyAmount?: string; withAmount?: boolean },
): TFollowCheck {
  const problems: Partial<Record<TFollowField, TProblem>> = {};
  const value = modeValue(draft.mode, draft.value, intl);
  if (!value.ok) problems.value = value.problem;

  let amount = '0.00';
  if (withAmount) {
    const checked = decimalIn(draft.amount, intl, LIMITS.money);
    if (!checked.ok) problems.amount = checked.problem;
    else if (minCopyAmount && checked.hundredths < (toMinor(minCopyAmount) ?? 0n))
      problems.amount = { key: 'belowMin', values: { min: minCopyAmount } };
    else amount = checked.value;
  }

  const optionalDecimal = (field: TFollowField, limit: { min: bigint; max: bigint }): string | null => {
    if (draft[field].trim() === '') return null;
    const checked = decimalIn(draft[field], intl, limit);
    if (checked.ok) return checked.value;
    problems[field] = checked.problem;
    return null;
  };
  const optionalInteger = (field: TFollowField, limit: { min: number; max: number }): number | null => {
    if (draft[field].trim() === '') return null;
    const checked = integerIn(draft[field], limit);
    if (checked.ok) return checked.value;
    problems[field] = checked.problem;
    return null;
  };
  const controls: TCopyControls = {
    stopLossPercent: optionalDecimal('stopLossPercent', LIMITS.stopLossPercent),
    takeProfitPercent: optionalDecimal('takeProfitPercent', LIMITS.takeProfitPercent),
    maxVolume: optionalDecimal('maxVolume', LIMITS.maxVolume),
    maxPositions: optionalInteger('maxPositions', LIMITS.maxPositions),
    maxSlippagePoints: optionalInteger('maxSlippagePoints', LIMITS.maxSlippagePoints),
    copyStops: draft.copyStops,
  };
  if (Object.keys(problems).length > 0 || !value.ok) return { ok: false, problems };
  return {
    ok: true,
    request: { mode: draft.mode, value: value.value, amount, controls, copyExisting: draft.copyExisting },
  };
}

/** A copy's settings as the edit form shows them, in the reader's locale. */
export function draftFromCopy(copy: TCopy, intl: string): TFollowDraft {
  const text = (value: string | null) => (value === null ? '' : toInputText(trimZeros(value), intl));
  return {
    mode: copy.mode,
    value: MODE_UNIT[copy.mode] === null ? '' : text(copy.value),
    amount: '',
    stopLossPercent: text(copy.controls.stopLossPercent),
    takeProfitPercent: text(copy.controls.takeProfitPercent),
    maxVolume: text(copy.controls.maxVolume),
    maxPositions: copy.controls.maxPositions === null ? '' : String(copy.controls.maxPositions),
    maxSlippagePoints:
      copy.controls.maxSlippagePoints === null ? '' : String(copy.controls.maxSlippagePoints),
    copyStops: copy.controls.copyStops,
    copyExisting: false,
  };
}

/** "0.50" -> "0.5", "10.00" -> "10": a value as a person would type it. */
export function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

// ---------------------------------------------------------------------------------------------
// The leader's terms (apply to lead, and the settings of a leader account)

export interface TLeaderDraft {
  feePercent: string;
  minCopyAmount: string;
  positionsDelayMinutes: string;
  bio: string;
}
export type TLeaderField = keyof TLeaderDraft;

export type TLeaderCheck =
  | {
      ok: true;
      request: { feePercent: string; minCopyAmount: string; positionsDelayMinutes: number; bio: string };
    }
  | { ok: false; problems: Partial<Record<TLeaderField, TProblem>> };

/** The leader's terms checked as the server would: a fee of 0 to 30 %, money, 0 to 1,440 minutes, 500 characters. */
export function checkLeaderDraft(draft: TLeaderDraft, intl: string): TLeaderCheck {
  const problems: Partial<Record<TLeaderField, TProblem>> = {};
  const fee = decimalIn(draft.feePercent, intl, LIMITS.feePercent);
  if (!fee.ok) problems.feePercent = fee.problem;
  const min = decimalIn(draft.minCopyAmount, intl, { min: 0n, max: LIMITS.money.max });
  if (!min.ok) problems.minCopyAmount = min.problem;
  const delay = integerIn(draft.positionsDelayMinutes, LIMITS.positionsDelayMinutes);
  if (!delay.ok) problems.positionsDelayMinutes = delay.problem;
  const bio = draft.bio.trim();
  if ([...bio].length > BIO_MAX) problems.bio = { key: 'tooLong', values: { max: BIO_MAX } };
  if (!fee.ok || !min.ok || !delay.ok || problems.bio) return { ok: false, problems };
  return {
    ok: true,
    request: { feePercent: fee.value, minCopyAmount: min.value, positionsDelayMinutes: delay.value, bio },
  };
}

// ---------------------------------------------------------------------------------------------
// Discovery filters, kept in the address so a filtered list can be shared and survives a reload

export type TLeaderSort = (typeof LEADER_SORTS)[number];
/** The followleaders input with its defaults filled in. */
export type TLeaderQuery = TRouteInput<'followleaders'> & { sort: TLeaderSort; page: number; size: number };
export const LEADER_PAGE_SIZE = 12;

const intParam = (params: URLSearchParams, name: string, min: number, max: number) => {
  const raw = params.get(name);
  if (raw === null || !/^\d{1,4}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
};

/** The discovery query from the address; unknown or out-of-range parameters are dropped. */
export function readLeaderFilters(params: URLSearchParams): TLeaderQuery {
  const sort = params.get('sort');
  const query: TLeaderQuery = {
    sort: LEADER_SORTS.find((s) => s === sort) ?? 'return30d',
    page: intParam(params, 'page', 1, 9999) ?? 1,
    size: LEADER_PAGE_SIZE,
  };
  const accountType = intParam(params, 'accountType', 1, 3);
  if (accountType !== undefined) query.accountType = accountType;
  const tradeType = intParam(params, 'tradeType', 1, 2);
  if (tradeType !== undefined) query.tradeType = tradeType;
  const maxRisk = intParam(params, 'maxRisk', 1, 10);
  if (maxRisk !== undefined) query.maxRisk = maxRisk;
  const maxDrawdown = intParam(params, 'maxDrawdown', 0, 100);
  if (maxDrawdown !== undefined) query.maxDrawdown = maxDrawdown;
  const search = params.get('search')?.trim().slice(0, 40);
  if (search) query.search = search;
  return query;
}

/** The address parameters of a discovery query (defaults left out). */
export function writeLeaderFilters(query: Partial<TLeaderQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.sort && query.sort !== 'return30d') params.set('sort', query.sort);
  for (const name of ['accountType', 'tradeType', 'maxRisk', 'maxDrawdown'] as const) {
    const value = query[name];
    if (value !== undefined) params.set(name, String(value));
  }
  if (query.search) params.set('search', query.search);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return params;
}

/** Whether any filter narrows the list (the empty state then offers to clear them). */
export const hasFilters = (query: TLeaderQuery) =>
  query.accountType !== undefined ||
  query.tradeType !== undefined ||
  query.maxRisk !== undefined ||
  query.maxDrawdown !== undefined ||
  Boolean(query.search);

/** Risk score bands: 1-3 low, 4-6 medium, 7-10 high. */
export const riskBand = (score: number): 'low' | 'medium' | 'high' =>
  score <= 3 ? 'low' : score <= 6 ? 'medium' : 'high';
