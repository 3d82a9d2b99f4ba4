import type { TCandle } from '@broker/domain/market/candles';
import type { TTimeframe } from '@broker/domain/market/timeframes';

/** One quote from a liquidity source, prices in integer points of the symbol. */
export interface TTick {
  symbol: string;
  time: number;
  bid: number;
  ask: number;
}

/**
 * A source of prices: the built-in simulator, a replay of recorded ticks, or (later) a real
 * liquidity provider. Same shape as Ghostfolio's data-source adapters.
 */
export interface TPriceFeedAdapter {
  readonly name: string;
  canHandle(symbol: string): boolean;
  /** Starts delivering ticks; returns when the adapter runs. */
  start(onTick: (tick: TTick) => void): void;
  stop(): void;
  /** Candles for a range, on bid prices, oldest first; what the source knows from before our own ticks. */
  getHistorical(symbol: string, timeframe: TTimeframe, fromMs: number, toMs: number): TCandle[];
}
