import { ATR, BollingerBands, EMA, MACD, RSI, SMA, StochasticOscillator } from 'trading-signals';
import type { TCandle } from '../../lib/market-stream';

/** The indicators the terminal's chart offers: overlays on the candles, or each in its own pane. */
export const INDICATOR_KINDS = [
  'sma',
  'ema',
  'bollinger',
  'rsi',
  'macd',
  'stochastic',
  'atr',
  'volume',
] as const;
export type TIndicatorKind = (typeof INDICATOR_KINDS)[number];

/** One parameter of an indicator: whole numbers, except the Bollinger width. */
export interface TParamSpec {
  name: string;
  min: number;
  max: number;
  step: number;
  default: number;
}

export const INDICATOR_SPECS: Record<TIndicatorKind, { overlay: boolean; params: readonly TParamSpec[] }> = {
  sma: { overlay: true, params: [{ name: 'period', min: 1, max: 500, step: 1, default: 20 }] },
  ema: { overlay: true, params: [{ name: 'period', min: 1, max: 500, step: 1, default: 50 }] },
  bollinger: {
    overlay: true,
    params: [
      { name: 'period', min: 2, max: 500, step: 1, default: 20 },
      { name: 'deviation', min: 0.5, max: 5, step: 0.5, default: 2 },
    ],
  },
  rsi: { overlay: false, params: [{ name: 'period', min: 2, max: 200, step: 1, default: 14 }] },
  macd: {
    overlay: false,
    params: [
      { name: 'fast', min: 2, max: 200, step: 1, default: 12 },
      { name: 'slow', min: 3, max: 300, step: 1, default: 26 },
      { name: 'signal', min: 2, max: 200, step: 1, default: 9 },
    ],
  },
  stochastic: {
    overlay: false,
    params: [
      { name: 'k', min: 1, max: 200, step: 1, default: 9 },
      { name: 'slowing', min: 1, max: 50, step: 1, default: 3 },
      { name: 'd', min: 1, max: 50, step: 1, default: 3 },
    ],
  },
  atr: { overlay: false, params: [{ name: 'period', min: 1, max: 200, step: 1, default: 14 }] },
  volume: { overlay: false, params: [] },
};

/** An indicator the trader added, with its parameters (in the order of its spec). */
export interface TIndicator {
  kind: TIndicatorKind;
  params: number[];
}

export const defaultParams = (kind: TIndicatorKind): number[] =>
  INDICATOR_SPECS[kind].params.map((p) => p.default);

/**
 * Why a parameter set is refused, or null: each value a finite number within its spec's bounds, on
 * its step (whole numbers for periods), and MACD's fast period shorter than its slow one.
 */
export function paramsProblem(kind: TIndicatorKind, params: readonly number[]): string | null {
  const specs = INDICATOR_SPECS[kind].params;
  if (params.length !== specs.length) return 'count';
  for (const [i, spec] of specs.entries()) {
    const value = params[i] as number;
    if (!Number.isFinite(value)) return spec.name;
    if (value < spec.min || value > spec.max) return spec.name;
    if (Math.abs(value / spec.step - Math.round(value / spec.step)) > 1e-9) return spec.name;
  }
  if (kind === 'macd' && (params[0] as number) >= (params[1] as number)) return 'fast';
  return null;
}

/** The lines an indicator draws, by name; a value is null where the indicator has too few bars yet. */
export type TIndicatorValues = Record<string, number | null>;

/** The line names an indicator draws, in drawing order. */
export const INDICATOR_LINES: Record<TIndicatorKind, readonly string[]> = {
  sma: ['value'],
  ema: ['value'],
  bollinger: ['upper', 'middle', 'lower'],
  rsi: ['value'],
  macd: ['histogram', 'macd', 'signal'],
  stochastic: ['k', 'd', 'j'],
  atr: ['value'],
  volume: ['value'],
};

type TStep = (candle: TCandle, replace: boolean) => TIndicatorValues;

/** One bar's update of the indicator from the library (trading-signals), `replace` for the live bar. */
function stepper(kind: TIndicatorKind, params: readonly number[]): TStep {
  const [a = 0, b = 0, c = 0] = params;
  const hlc = (x: TCandle) => ({ high: Number(x.high), low: Number(x.low), close: Number(x.close) });
  switch (kind) {
    case 'sma': {
      const ind = new SMA(a);
      return (x, r) => ({ value: ind.update(Number(x.close), r) });
    }
    case 'ema': {
      const ind = new EMA(a);
      // The library's EMA answers from the first bar; like the others, it counts from `period` bars.
      let seen = 0;
      return (x, r) => {
        if (!r) seen += 1;
        const value = ind.update(Number(x.close), r);
        return { value: seen >= a ? value : null };
      };
    }
    case 'bollinger': {
      const ind = new BollingerBands(a, b);
      return (x, r) => {
        const v = ind.update(Number(x.close), r);
        return { upper: v?.upper ?? null, middle: v?.middle ?? null, lower: v?.lower ?? null };
      };
    }
    case 'rsi': {
      const ind = new RSI(a);
      return (x, r) => ({ value: ind.update(Number(x.close), r) });
    }
    case 'macd': {
      const ind = new MACD(new EMA(a), new EMA(b), new EMA(c));
      return (x, r) => {
        const v = ind.update(Number(x.close), r);
        return { histogram: v?.histogram ?? null, macd: v?.macd ?? null, signal: v?.signal ?? null };
      };
    }
    case 'stochastic': {
      const ind = new StochasticOscillator({ kPeriod: a, kSlowingPeriod: b, dPeriod: c });
      return (x, r) => {
        const v = ind.update(hlc(x), r);
        return { k: v?.stochK ?? null, d: v?.stochD ?? null, j: v?.stochJ ?? null };
      };
    }
    case 'atr': {
      const ind = new ATR(a);
      return (x, r) => ({ value: ind.update(hlc(x), r) });
    }
    case 'volume':
      return (x) => ({ value: x.volume });
  }
}

const sameBar = (a: TCandle | null, b: TCandle | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.time === b.time &&
    a.open === b.open &&
    a.high === b.high &&
    a.low === b.low &&
    a.close === b.close &&
    a.volume === b.volume);

/** How `sync` took the candles in: the last bar redone, one bar added, or everything recomputed. */
export type TSyncChange = 'last' | 'appended' | 'full';

/**
 * An indicator over a chart's bars, kept up to date incrementally: a tick that changes the live bar
 * replaces the last input, a new bar adds one, anything else (older bars in front, another symbol
 * or timeframe) computes it again from the first bar. `values[i]` belongs to `candles[i]`.
 */
export class IndicatorRun {
  readonly values: TIndicatorValues[] = [];
  private step: TStep;
  private times: number[] = [];
  /** The last closed bar taken in: another symbol with the same times differs here. */
  private closed: TCandle | null = null;

  constructor(
    readonly kind: TIndicatorKind,
    readonly params: readonly number[],
  ) {
    const problem = paramsProblem(kind, params);
    if (problem) throw new RangeError(`${kind}: invalid ${problem}`);
    this.step = stepper(kind, params);
  }

  sync(candles: readonly TCandle[]): TSyncChange {
    const n = this.times.length;
    const same = (count: number) => {
      if (count < 1 || this.times[0] !== candles[0]?.time) return false;
      if (this.times[count - 1] !== candles[count - 1]?.time) return false;
      const closed = count > 1 ? candles[count - 2] : null;
      return sameBar(closed ?? null, this.closed);
    };
    if (n > 0 && candles.length === n && same(n)) {
      this.values[n - 1] = this.step(candles[n - 1] as TCandle, true);
      return 'last';
    }
    if (n > 0 && candles.length === n + 1 && same(n)) {
      // The previous live bar closed with its last tick, then the new bar opens.
      this.values[n - 1] = this.step(candles[n - 1] as TCandle, true);
      const added = candles[n] as TCandle;
      this.values.push(this.step(added, false));
      this.times.push(added.time);
      this.closed = candles[n - 1] as TCandle;
      return 'appended';
    }
    this.step = stepper(this.kind, this.params);
    this.values.length = 0;
    this.times = [];
    for (const candle of candles) {
      this.values.push(this.step(candle, false));
      this.times.push(candle.time);
    }
    this.closed = candles.length > 1 ? (candles[candles.length - 2] as TCandle) : null;
    return 'full';
  }
}

/** Where the chosen indicators are kept, per symbol (this browser only). */
export const indicatorsKey = (symbol: string) => `trade.indicators.${symbol}`;

/** The saved indicators of a symbol; anything unreadable or invalid is left out. */
export function readIndicators(symbol: string): TIndicator[] {
  try {
    const raw = window.localStorage.getItem(indicatorsKey(symbol));
    const list: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(list)) return [];
    return list.flatMap((item: unknown) => {
      const { kind, params } = (item ?? {}) as { kind?: unknown; params?: unknown };
      if (!INDICATOR_KINDS.includes(kind as TIndicatorKind) || !Array.isArray(params)) return [];
      const typed = params.map(Number);
      return paramsProblem(kind as TIndicatorKind, typed)
        ? []
        : [{ kind: kind as TIndicatorKind, params: typed }];
    });
  } catch {
    return [];
  }
}

export function saveIndicators(symbol: string, list: readonly TIndicator[]): void {
  try {
    window.localStorage.setItem(indicatorsKey(symbol), JSON.stringify(list));
  } catch {
    // Storage full or refused: the indicators stay for this visit.
  }
}
