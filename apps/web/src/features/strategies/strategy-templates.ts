import { toInputText } from '../../lib/money';
import { EMPTY_STRATEGY_DRAFT, fromPoints, type TStrategyDraft, toPoints } from './strategy-form';

/**
 * The strategy home's templates (docs/strategies.md, "Templates"): a neutral EURUSD grid and a long
 * XAUUSD martingale, each in three risk profiles. A grid's range is derived from today's bid: the bid
 * less and plus the profile's share of it, the lower price rounded down and the upper one up onto the
 * symbol's digits; every other figure is fixed. Risk grows with the exposure at the range's edge or the
 * last add, not with the range itself: the conservative grid is the narrowest, with the fewest and
 * smallest cells.
 */

export type TRisk = 'conservative' | 'neutral' | 'aggressive';
export const RISKS: readonly TRisk[] = ['conservative', 'neutral', 'aggressive'];

interface TGridTemplate {
  kind: 'grid';
  symbol: string;
  investment: string;
  /** Each side of today's bid, in basis points (100 = 1 %). */
  rangeBp: number;
  grids: number;
  volumePerGrid: string;
}
interface TMartingaleTemplate {
  kind: 'martingale';
  symbol: string;
  investment: string;
  firstVolume: string;
  stepPercent: string;
  multiplier: string;
  maxAdds: number;
  takeProfitPercent: string;
}
export type TTemplate = (TGridTemplate | TMartingaleTemplate) & { id: string; risk: TRisk };

const GRID_SYMBOL = 'EURUSD';
const MARTINGALE_SYMBOL = 'XAUUSD';

export const TEMPLATES: readonly TTemplate[] = [
  {
    id: 'grid-conservative',
    risk: 'conservative',
    kind: 'grid',
    symbol: GRID_SYMBOL,
    investment: '1000',
    rangeBp: 100,
    grids: 10,
    volumePerGrid: '0.01',
  },
  {
    id: 'grid-neutral',
    risk: 'neutral',
    kind: 'grid',
    symbol: GRID_SYMBOL,
    investment: '1000',
    rangeBp: 200,
    grids: 20,
    volumePerGrid: '0.02',
  },
  {
    id: 'grid-aggressive',
    risk: 'aggressive',
    kind: 'grid',
    symbol: GRID_SYMBOL,
    investment: '1000',
    rangeBp: 200,
    grids: 30,
    volumePerGrid: '0.03',
  },
  {
    id: 'martingale-conservative',
    risk: 'conservative',
    kind: 'martingale',
    symbol: MARTINGALE_SYMBOL,
    investment: '3000',
    firstVolume: '0.01',
    stepPercent: '2',
    multiplier: '1.5',
    maxAdds: 3,
    takeProfitPercent: '1.2',
  },
  {
    id: 'martingale-neutral',
    risk: 'neutral',
    kind: 'martingale',
    symbol: MARTINGALE_SYMBOL,
    investment: '3000',
    firstVolume: '0.01',
    stepPercent: '1.5',
    multiplier: '2',
    maxAdds: 4,
    takeProfitPercent: '1',
  },
  {
    id: 'martingale-aggressive',
    risk: 'aggressive',
    kind: 'martingale',
    symbol: MARTINGALE_SYMBOL,
    investment: '3000',
    firstVolume: '0.01',
    stepPercent: '1',
    multiplier: '2',
    maxAdds: 4,
    takeProfitPercent: '0.8',
  },
];

export const TEMPLATE_SYMBOLS: readonly string[] = [GRID_SYMBOL, MARTINGALE_SYMBOL];

export function templateById(id: string | null): TTemplate | undefined {
  return TEMPLATES.find((template) => template.id === id);
}

/**
 * A grid's range around today's bid: bid x (1 - range) rounded down, bid x (1 + range) rounded up,
 * onto the symbol's digits (exact integer arithmetic).
 */
export function templateRange(
  bid: string,
  digits: number,
  rangeBp: number,
): { lower: string; upper: string } {
  const points = toPoints(bid, digits);
  const lower = (points * BigInt(10_000 - rangeBp)) / 10_000n;
  const upperExact = points * BigInt(10_000 + rangeBp);
  const upper = upperExact / 10_000n + (upperExact % 10_000n === 0n ? 0n : 1n);
  return { lower: fromPoints(lower, digits), upper: fromPoints(upper, digits) };
}

/**
 * The bid a template's grid is centred on: today's bid rounded to the largest power of ten of points
 * not above 0.25 % of it (0.09 % to 0.25 %), so that the strategy home asks for a template's backtest
 * again (its input, hence its cached answer) only when the price has moved that much, not on every
 * visit; the range's edges are round figures too.
 */
export function templateAnchor(bid: string, digits: number): string {
  const points = toPoints(bid, digits);
  let step = 1n;
  while (step * 10n <= points / 400n) step *= 10n;
  return fromPoints(((points + step / 2n) / step) * step, digits);
}

/**
 * The create form filled in with a template, figures written in the reader's locale. A grid needs
 * today's bid and the symbol's digits; without them its range stays empty.
 */
export function templateDraft(
  template: TTemplate,
  quote: { bid: string; digits: number } | null,
  intl: string,
): TStrategyDraft {
  const local = (value: string) => toInputText(value, intl);
  const base: TStrategyDraft = {
    ...EMPTY_STRATEGY_DRAFT,
    kind: template.kind,
    symbol: template.symbol,
    investment: local(template.investment),
  };
  if (template.kind === 'grid') {
    const range = quote
      ? templateRange(templateAnchor(quote.bid, quote.digits), quote.digits, template.rangeBp)
      : null;
    return {
      ...base,
      gridDirection: 'neutral',
      lowerPrice: range ? local(range.lower) : '',
      upperPrice: range ? local(range.upper) : '',
      grids: String(template.grids),
      spacing: 'arithmetic',
      volumePerGrid: local(template.volumePerGrid),
      outOfRange: 'keep',
    };
  }
  return {
    ...base,
    martingaleDirection: 'long',
    firstVolume: local(template.firstVolume),
    stepPercent: local(template.stepPercent),
    multiplier: local(template.multiplier),
    maxAdds: String(template.maxAdds),
    martingaleTakeProfit: local(template.takeProfitPercent),
    martingaleStopLoss: '',
    cycle: 'repeat',
  };
}
