import type { TTick } from './types';

export interface TFilteredTick {
  tick: TTick;
  reference: number;
  deviation: number;
}

/**
 * Off-market tick filter: a tick whose mid moves further from the last accepted mid than both
 * `maxSpreads` spreads and `maxSigmas` standard deviations of the symbol's volatility over the
 * elapsed time is dropped (and reported), so a spike cannot trigger stops.
 */
export class OffMarketFilter {
  private readonly last = new Map<string, { mid: number; time: number }>();
  constructor(
    private readonly volatility: (symbol: string) => number,
    private readonly options: { maxSpreads?: number; maxSigmas?: number } = {},
  ) {}

  check(tick: TTick): { accepted: true } | { accepted: false; rejected: TFilteredTick } {
    const mid = (tick.bid + tick.ask) / 2;
    const previous = this.last.get(tick.symbol);
    if (previous) {
      const spread = Math.max(1, tick.ask - tick.bid);
      const years = Math.max(1_000, tick.time - previous.time) / (365.25 * 86_400_000);
      const sigma = previous.mid * this.volatility(tick.symbol) * Math.sqrt(years);
      const deviation = Math.abs(mid - previous.mid);
      const limit = Math.max(
        (this.options.maxSpreads ?? 25) * spread,
        (this.options.maxSigmas ?? 12) * sigma,
      );
      if (deviation > limit)
        return { accepted: false, rejected: { tick, reference: previous.mid, deviation } };
    }
    this.last.set(tick.symbol, { mid, time: tick.time });
    return { accepted: true };
  }
}
