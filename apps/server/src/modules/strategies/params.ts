import type { TStrategySpecRequest } from '@broker/contracts/strategy-routes';
import { AppError } from '@broker/domain/result-codes';
import type {
  TGridParams,
  TMartingaleParams,
  TStrategySpecInput,
} from '@broker/domain/trading/engine/strategy/types';
import { fromScaled, toScaled } from '../trading';
import type { TStrategyPorts } from './ports';

/**
 * The request's parameters (decimal strings: prices in the symbol's digits, lots, percentages) as the
 * engine takes them (integers: points, hundredths of a lot, basis points), and back.
 */

function digitsOf(ports: TStrategyPorts, symbol: string): number {
  const digits = ports.host.digits(symbol);
  if (digits === undefined) throw AppError.invalid({ symbol: 'symbolUnknown' });
  return digits;
}

const price = (text: string | null | undefined, digits: number, field: string) =>
  text === null || text === undefined ? null : toScaled(text, digits, field, 'priceFormat');
const percentBp = (text: string | null | undefined, field: string) =>
  text === null || text === undefined ? null : toScaled(text, 2, field, 'percentFormat');

export function engineSpec(ports: TStrategyPorts, spec: TStrategySpecRequest): TStrategySpecInput {
  const digits = digitsOf(ports, spec.params.symbol);
  if (spec.kind === 'grid') {
    const p = spec.params;
    return {
      kind: 'grid',
      params: {
        symbol: p.symbol,
        direction: p.direction,
        lowerPrice: toScaled(p.lowerPrice, digits, 'lowerPrice', 'priceFormat'),
        upperPrice: toScaled(p.upperPrice, digits, 'upperPrice', 'priceFormat'),
        grids: p.grids,
        spacing: p.spacing,
        volumePerGrid: toScaled(p.volumePerGrid, 2, 'volumePerGrid', 'volumeFormat'),
        triggerPrice: price(p.triggerPrice, digits, 'triggerPrice'),
        takeProfitPrice: price(p.takeProfitPrice, digits, 'takeProfitPrice'),
        stopLossPrice: price(p.stopLossPrice, digits, 'stopLossPrice'),
        takeProfitBp: percentBp(p.takeProfitPercent, 'takeProfitPercent'),
        stopLossBp: percentBp(p.stopLossPercent, 'stopLossPercent'),
        trailingUp: p.trailingUp ?? false,
        outOfRange: p.outOfRange ?? 'keep',
      },
    };
  }
  const p = spec.params;
  return {
    kind: 'martingale',
    params: {
      symbol: p.symbol,
      direction: p.direction,
      firstVolume: toScaled(p.firstVolume, 2, 'firstVolume', 'volumeFormat'),
      stepBp: toScaled(p.stepPercent, 2, 'stepPercent', 'percentFormat'),
      multiplierBp: toScaled(p.multiplier, 4, 'multiplier', 'multiplierFormat'),
      maxAdds: p.maxAdds,
      takeProfitBp: toScaled(p.takeProfitPercent, 2, 'takeProfitPercent', 'percentFormat'),
      stopLossBp: percentBp(p.stopLossPercent, 'stopLossPercent'),
      cycle: p.cycle ?? 'repeat',
      triggerPrice: price(p.triggerPrice, digits, 'triggerPrice'),
    },
  };
}

/** A stored bot's parameters as the request had them. */
export function requestSpec(
  ports: TStrategyPorts,
  kind: 'grid' | 'martingale',
  params: TGridParams | TMartingaleParams,
): TStrategySpecRequest {
  const digits = ports.host.digits(params.symbol) ?? 5;
  const px = (v: number | null) => (v === null ? null : fromScaled(v, digits));
  const pct = (v: number | null) => (v === null ? null : fromScaled(v, 2));
  if (kind === 'grid') {
    const p = params as TGridParams;
    return {
      kind: 'grid',
      params: {
        symbol: p.symbol,
        direction: p.direction,
        lowerPrice: fromScaled(p.lowerPrice, digits),
        upperPrice: fromScaled(p.upperPrice, digits),
        grids: p.grids,
        spacing: p.spacing,
        volumePerGrid: fromScaled(p.volumePerGrid, 2),
        triggerPrice: px(p.triggerPrice),
        takeProfitPrice: px(p.takeProfitPrice),
        stopLossPrice: px(p.stopLossPrice),
        takeProfitPercent: pct(p.takeProfitBp),
        stopLossPercent: pct(p.stopLossBp),
        trailingUp: p.trailingUp,
        outOfRange: p.outOfRange,
      },
    };
  }
  const p = params as TMartingaleParams;
  return {
    kind: 'martingale',
    params: {
      symbol: p.symbol,
      direction: p.direction,
      firstVolume: fromScaled(p.firstVolume, 2),
      stepPercent: fromScaled(p.stepBp, 2),
      multiplier: fromScaled(p.multiplierBp, 4).replace(/\.?0+$/, ''),
      maxAdds: p.maxAdds,
      takeProfitPercent: fromScaled(p.takeProfitBp, 2),
      stopLossPercent: pct(p.stopLossBp),
      cycle: p.cycle,
      triggerPrice: px(p.triggerPrice),
    },
  };
}
