import { bucketStart, TIMEFRAMES, type TTimeframe } from './timeframes';

/** A candle on bid prices, in integer points (price × 10^digits); volume counts ticks. */
export interface TCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface TCandleUpdate {
  symbol: string;
  timeframe: TTimeframe;
  candle: TCandle;
}

/** Builds the candles of every timeframe from ticks, one symbol at a time; pure and synchronous. */
export class CandleAggregator {
  private readonly current = new Map<string, TCandle>();
  constructor(
    private readonly serverTimeZone = 'UTC',
    private readonly timeframes: readonly TTimeframe[] = TIMEFRAMES,
  ) {}

  /** Applies one tick and returns the candles it changed (a new candle when a bucket rolled over). */
  apply(symbol: string, timeMs: number, price: number): TCandleUpdate[] {
    const updates: TCandleUpdate[] = [];
    for (const timeframe of this.timeframes) {
      const key = `${symbol}|${timeframe}`;
      const open = bucketStart(timeframe, timeMs, this.serverTimeZone);
      let candle = this.current.get(key);
      if (!candle || candle.time !== open) {
        if (candle && candle.time > open) continue; // a late tick for a closed candle is ignored
        candle = { time: open, open: price, high: price, low: price, close: price, volume: 0 };
        this.current.set(key, candle);
      }
      candle.high = Math.max(candle.high, price);
      candle.low = Math.min(candle.low, price);
      candle.close = price;
      candle.volume += 1;
      updates.push({ symbol, timeframe, candle: { ...candle } });
    }
    return updates;
  }

  /** Seeds the running candle (after a restart) so that new ticks extend it. */
  seed(symbol: string, timeframe: TTimeframe, candle: TCandle) {
    this.current.set(`${symbol}|${timeframe}`, { ...candle });
  }

  currentCandle(symbol: string, timeframe: TTimeframe): TCandle | undefined {
    const candle = this.current.get(`${symbol}|${timeframe}`);
    return candle ? { ...candle } : undefined;
  }
}

/** Merges candles of a finer timeframe into a coarser one (both sorted by time). */
export function aggregateCandles(
  candles: readonly TCandle[],
  timeframe: TTimeframe,
  serverTimeZone = 'UTC',
): TCandle[] {
  const out: TCandle[] = [];
  for (const c of candles) {
    const open = bucketStart(timeframe, c.time, serverTimeZone);
    const last = out[out.length - 1];
    if (last && last.time === open) {
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
      last.volume += c.volume;
    } else {
      out.push({ ...c, time: open });
    }
  }
  return out;
}
