import type { TGridInput, TMartingaleInput, TStrategySpecRequest } from '@broker/contracts/strategy-routes';
import { parseAmountInput } from '../../lib/money';

/**
 * The create-a-bot form as pure functions (issue 19). The rules mirror the contract's
 * (packages/contracts/src/strategy-routes.ts): prices of up to 9 digits and 8 decimals, lots and
 * percentages of 2 decimals, 2 to 200 grids, a multiplier of 1 to 5, 0 to 30 adds. Every figure is
 * typed in the reader's locale ("0,5") and turned into the plain decimal string the server takes;
 * comparisons (lower below upper, above zero) are done on scaled integers, never on floats.
 */

/** A field's problem: a catalog key under `strategy.problem.` and its values. */
export interface TProblem {
  key: string;
  values?: Record<string, string | number>;
}

export type TKind = 'grid' | 'martingale';

/** The form as typed: figures are text in the reader's locale; an empty optional field means none. */
export interface TStrategyDraft {
  kind: TKind;
  investment: string;
  symbol: string;
  gridDirection: 'long' | 'short' | 'neutral';
  lowerPrice: string;
  upperPrice: string;
  grids: string;
  spacing: 'arithmetic' | 'geometric';
  volumePerGrid: string;
  triggerPrice: string;
  /** Grid take-profit and stop-loss: as a price, or as a share of the investment. */
  exitMode: 'price' | 'percent';
  takeProfit: string;
  stopLoss: string;
  trailingUp: boolean;
  outOfRange: 'keep' | 'stop';
  martingaleDirection: 'long' | 'short';
  firstVolume: string;
  stepPercent: string;
  multiplier: string;
  maxAdds: string;
  martingaleTakeProfit: string;
  martingaleStopLoss: string;
  cycle: 'repeat' | 'stop';
}

export type TDraftField = {
  [K in keyof TStrategyDraft]: TStrategyDraft[K] extends string ? K : never;
}[keyof TStrategyDraft];

export const EMPTY_STRATEGY_DRAFT: TStrategyDraft = {
  kind: 'grid',
  investment: '',
  symbol: 'BTCUSDT',
  gridDirection: 'long',
  lowerPrice: '',
  upperPrice: '',
  grids: '10',
  spacing: 'arithmetic',
  volumePerGrid: '0.01',
  triggerPrice: '',
  exitMode: 'price',
  takeProfit: '',
  stopLoss: '',
  trailingUp: false,
  outOfRange: 'keep',
  martingaleDirection: 'long',
  firstVolume: '0.01',
  stepPercent: '1',
  multiplier: '2',
  maxAdds: '3',
  martingaleTakeProfit: '1',
  martingaleStopLoss: '',
  cycle: 'repeat',
};

type TRead<T = string> = { ok: true; value: T } | { ok: false; problem: TProblem };

/** The decimal mark Intl writes in a locale ("." or ","). */
function decimalMark(intl: string): string {
  return new Intl.NumberFormat(intl).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/**
 * A typed decimal in the reader's locale (its decimal mark, or a point; spaces ignored, no grouping)
 * as a plain string with at most `decimals` decimals and `whole` whole digits, and strictly above
 * zero unless `zero` is allowed.
 */
export function readDecimal(
  text: string,
  intl: string,
  { decimals, whole, zero = false }: { decimals: number; whole: number; zero?: boolean },
): TRead {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (compact === '') return { ok: false, problem: { key: 'required' } };
  const mark = decimalMark(intl);
  const body = compact.replace(mark, '.').replace(',', '.');
  const match = /^(\d*)(?:\.(\d*))?$/.exec(body);
  if (!match || (!match[1] && !match[2])) return { ok: false, problem: { key: 'format' } };
  const integer = (match[1] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals)
    return { ok: false, problem: { key: 'decimals', values: { count: decimals } } };
  if (integer.length > whole) return { ok: false, problem: { key: 'format' } };
  if (!zero && /^0*$/.test(integer + fraction)) return { ok: false, problem: { key: 'positive' } };
  return { ok: true, value: fraction ? `${integer}.${fraction}` : integer };
}

/** A plain decimal string as an integer scaled by 10^8, for exact comparisons. */
export function scaled(value: string): bigint {
  const [integer = '0', fraction = ''] = value.split('.');
  return BigInt(integer + fraction.padEnd(8, '0').slice(0, 8));
}

/** A decimal price string as an integer of `digits` decimals ("1.0842", 5 -> 108420n). */
export function toPoints(price: string, digits: number): bigint {
  const [whole = '0', fraction = ''] = price.split('.');
  return BigInt(whole + fraction.padEnd(digits, '0').slice(0, digits));
}

/** An integer of `digits` decimals as a decimal price string (108420n, 5 -> "1.08420"). */
export function fromPoints(points: bigint, digits: number): string {
  if (digits === 0) return points.toString();
  const text = points.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** A typed whole number within [min, max]. */
export function readInteger(text: string, min: number, max: number): TRead<number> {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (compact === '') return { ok: false, problem: { key: 'required' } };
  if (!/^\d{1,4}$/.test(compact)) return { ok: false, problem: { key: 'integer' } };
  const value = Number(compact);
  if (value < min || value > max) return { ok: false, problem: { key: 'range', values: { min, max } } };
  return { ok: true, value };
}

const PRICE = { decimals: 8, whole: 9 };
const LOTS = { decimals: 2, whole: 6 };
const PERCENT = { decimals: 2, whole: 5 };
export const GRIDS = { min: 2, max: 200 } as const;
export const MAX_ADDS = { min: 0, max: 30 } as const;
export const MULTIPLIER = { min: '1', max: '5' } as const;
/** A martingale's step between adds: 0.01 % to 50 % of the round's first price. */
export const STEP_PERCENT = { min: '0.01', max: '50' } as const;

/** What the form knows beyond the draft: today's bid of the symbol, the funding account's balance. */
export interface TDraftContext {
  price?: string | null;
  balance?: string | null;
}

/** A symbol as the contract takes it: 2 to 20 of A-Z, 0-9, point and underscore. */
export function readSymbol(text: string): TRead {
  const symbol = text.trim().toUpperCase();
  if (symbol === '') return { ok: false, problem: { key: 'required' } };
  if (!/^[A-Z0-9._]{2,20}$/.test(symbol)) return { ok: false, problem: { key: 'symbol' } };
  return { ok: true, value: symbol };
}

/** A multiplier of 1 to 5 with up to 2 decimals ("1.5"). */
export function readMultiplier(text: string, intl: string): TRead {
  const read = readDecimal(text, intl, { decimals: 2, whole: 1 });
  if (!read.ok)
    return read.problem.key === 'format'
      ? { ok: false, problem: { key: 'range', values: MULTIPLIER } }
      : read;
  const value = scaled(read.value);
  if (value < scaled(MULTIPLIER.min) || value > scaled(MULTIPLIER.max))
    return { ok: false, problem: { key: 'range', values: MULTIPLIER } };
  return read;
}

export interface TStrategyRequest {
  investment: string;
  spec: TStrategySpecRequest;
}

export type TStrategyCheck =
  | { ok: true; request: TStrategyRequest }
  | { ok: false; problems: Partial<Record<TDraftField, TProblem>> };

/**
 * The draft checked as the server would, field by field, and turned into the request's investment
 * and spec (only the chosen kind's parameters; empty optional fields left out).
 */
export function checkStrategyDraft(
  draft: TStrategyDraft,
  intl: string,
  context: TDraftContext = {},
): TStrategyCheck {
  const problems: Partial<Record<TDraftField, TProblem>> = {};
  const take = <T>(field: TDraftField, read: TRead<T>): T | null => {
    if (read.ok) return read.value;
    problems[field] = read.problem;
    return null;
  };
  const optional = (field: TDraftField, format: { decimals: number; whole: number }) =>
    draft[field].trim() === '' ? null : take(field, readDecimal(draft[field], intl, format));

  let investment: string | null = null;
  const money = parseAmountInput(draft.investment, intl);
  if (!money.ok) problems.investment = { key: money.problem === 'empty' ? 'required' : money.problem };
  else if (money.minor <= 0n) problems.investment = { key: 'positive' };
  else if (context.balance && scaled(money.value) > scaled(context.balance))
    problems.investment = { key: 'aboveBalance' };
  else investment = money.value;
  const symbol = take('symbol', readSymbol(draft.symbol));

  let spec: TStrategySpecRequest | null = null;
  if (draft.kind === 'grid') {
    const lowerPrice = take('lowerPrice', readDecimal(draft.lowerPrice, intl, PRICE));
    const upperPrice = take('upperPrice', readDecimal(draft.upperPrice, intl, PRICE));
    if (lowerPrice && upperPrice && scaled(lowerPrice) >= scaled(upperPrice))
      problems.upperPrice = { key: 'aboveLower' };
    const grids = take('grids', readInteger(draft.grids, GRIDS.min, GRIDS.max));
    const volumePerGrid = take('volumePerGrid', readDecimal(draft.volumePerGrid, intl, LOTS));
    const triggerPrice = optional('triggerPrice', PRICE);
    const exit = draft.exitMode === 'price' ? PRICE : PERCENT;
    const takeProfit = optional('takeProfit', exit);
    const stopLoss = optional('stopLoss', exit);
    const short = draft.gridDirection === 'short';
    if (
      draft.exitMode === 'price' &&
      takeProfit &&
      stopLoss &&
      (short ? scaled(takeProfit) >= scaled(stopLoss) : scaled(takeProfit) <= scaled(stopLoss))
    )
      problems.takeProfit = { key: short ? 'tpBelowSl' : 'tpAboveSl' };
    else if (draft.exitMode === 'price' && context.price) {
      // the engine takes them only on their side of today's bid (a short grid's the other way round)
      const bid = scaled(context.price);
      const values = { price: context.price.replace('.', decimalMark(intl)) };
      if (takeProfit && (short ? scaled(takeProfit) >= bid : scaled(takeProfit) <= bid))
        problems.takeProfit = { key: short ? 'tpBelowPrice' : 'tpAbovePrice', values };
      if (stopLoss && (short ? scaled(stopLoss) <= bid : scaled(stopLoss) >= bid))
        problems.stopLoss = { key: short ? 'slAbovePrice' : 'slBelowPrice', values };
    }
    if (draft.exitMode === 'percent') {
      // of the investment: a take-profit up to 10,000 %, a stop-loss up to 100 %
      if (takeProfit && scaled(takeProfit) > scaled('10000'))
        problems.takeProfit = { key: 'range', values: { min: '0.01', max: '10000' } };
      if (stopLoss && scaled(stopLoss) > scaled('100'))
        problems.stopLoss = { key: 'range', values: { min: '0.01', max: '100' } };
    }
    if (symbol && lowerPrice && upperPrice && grids !== null && volumePerGrid) {
      const params: TGridInput = {
        symbol,
        direction: draft.gridDirection,
        lowerPrice,
        upperPrice,
        grids,
        spacing: draft.spacing,
        volumePerGrid,
        outOfRange: draft.outOfRange,
        trailingUp: draft.gridDirection === 'long' && draft.trailingUp,
      };
      if (triggerPrice) params.triggerPrice = triggerPrice;
      if (takeProfit)
        params[draft.exitMode === 'price' ? 'takeProfitPrice' : 'takeProfitPercent'] = takeProfit;
      if (stopLoss) params[draft.exitMode === 'price' ? 'stopLossPrice' : 'stopLossPercent'] = stopLoss;
      spec = { kind: 'grid', params };
    }
  } else {
    const firstVolume = take('firstVolume', readDecimal(draft.firstVolume, intl, LOTS));
    const stepPercent = take('stepPercent', readDecimal(draft.stepPercent, intl, PERCENT));
    const multiplier = take('multiplier', readMultiplier(draft.multiplier, intl));
    const maxAdds = take('maxAdds', readInteger(draft.maxAdds, MAX_ADDS.min, MAX_ADDS.max));
    const takeProfitPercent = take(
      'martingaleTakeProfit',
      readDecimal(draft.martingaleTakeProfit, intl, PERCENT),
    );
    const stopLossPercent = optional('martingaleStopLoss', PERCENT);
    if (stepPercent && scaled(stepPercent) > scaled(STEP_PERCENT.max))
      problems.stepPercent = { key: 'range', values: STEP_PERCENT };
    if (takeProfitPercent && scaled(takeProfitPercent) > scaled('100'))
      problems.martingaleTakeProfit = { key: 'range', values: { min: '0.01', max: '100' } };
    // every add above zero, and the stop-loss beyond the last add (else it would never make them all)
    const deepest = stepPercent && maxAdds !== null ? scaled(stepPercent) * BigInt(maxAdds) : null;
    if (deepest !== null && draft.martingaleDirection === 'long' && deepest >= scaled('100'))
      problems.maxAdds = { key: 'addsTooDeep' };
    if (stopLossPercent && deepest !== null && scaled(stopLossPercent) <= deepest)
      problems.martingaleStopLoss = {
        key: 'slBeyondAdds',
        values: {
          percent: fromPoints(deepest / 1_000_000n, 2)
            .replace(/\.?0+$/, '')
            .replace('.', decimalMark(intl)),
        },
      };
    else if (stopLossPercent && scaled(stopLossPercent) > scaled('100'))
      problems.martingaleStopLoss = { key: 'range', values: { min: '0.01', max: '100' } };
    const triggerPrice = optional('triggerPrice', PRICE);
    if (symbol && firstVolume && stepPercent && multiplier && maxAdds !== null && takeProfitPercent) {
      const params: TMartingaleInput = {
        symbol,
        direction: draft.martingaleDirection,
        firstVolume,
        stepPercent,
        multiplier,
        maxAdds,
        takeProfitPercent,
        cycle: draft.cycle,
      };
      if (stopLossPercent) params.stopLossPercent = stopLossPercent;
      if (triggerPrice) params.triggerPrice = triggerPrice;
      spec = { kind: 'martingale', params };
    }
  }
  if (Object.keys(problems).length > 0 || !spec || !investment) return { ok: false, problems };
  return { ok: true, request: { investment, spec } };
}

/** Novice-mode main accounts (trade type 1) cannot fund a bot (spec 6). */
export const NOVICE_TRADE_TYPE = 1;
/** Main accounts (demo, real) that may fund a bot: not experience or linked platform accounts. */
export const STRATEGY_ACCOUNT_TYPES: readonly number[] = [1, 2];

/**
 * Where today's price sits among rising levels: the index of the first level above it (0: below
 * all, levels.length: above all). Compared exactly on scaled integers.
 */
export function priceSlot(levels: readonly string[], price: string): number {
  const at = scaled(price);
  const index = levels.findIndex((level) => scaled(level) > at);
  return index < 0 ? levels.length : index;
}
