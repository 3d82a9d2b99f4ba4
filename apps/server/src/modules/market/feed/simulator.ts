import type { TCandle } from '@broker/domain/market/candles';
import type { TInstrumentSpec } from '@broker/domain/market/instruments';
import { isOpenAt, sessionOpenedAt } from '@broker/domain/market/sessions';
import { bucketStart, nextBucketStart, type TTimeframe } from '@broker/domain/market/timeframes';
import { brownian, gaussian, uniform } from './noise';
import type { TPriceFeedAdapter, TTick } from './types';

export interface TSimulatorOptions {
  seed: number;
  /** How often the tick loop runs. */
  slotMs?: number;
  /** Share of ticks replaced by an off-market spike, to exercise the filter (0 disables). */
  spikeRate?: number;
  now?: () => number;
}

const CURRENCY_STREAM_BASE = 1_000;
const FACTOR_STREAMS = { crypto: 2_001, equity: 2_002, energy: 2_003 } as const;
const TICK_STREAM_BASE = 5_000;
const SPREAD_STREAM_BASE = 6_000;
const SPIKE_STREAM_BASE = 7_000;

/** Sampling step of generated candles: about 6 to 400 samples a candle. */
const HISTORY_STEP_MS: Record<TTimeframe, number> = {
  M1: 10_000,
  M5: 30_000,
  M15: 60_000,
  M30: 60_000,
  H1: 300_000,
  H4: 900_000,
  D1: 900_000,
  W1: 1_800_000,
  MN: 3_600_000,
};

/** Expected ticks per second in busy hours, by category. */
const BUSY_TICK_RATE: Record<TInstrumentSpec['category'], number> = {
  forex: 2.5,
  metals: 3,
  energy: 2,
  indices: 2.5,
  crypto: 3,
};

interface TSimulated {
  spec: TInstrumentSpec;
  index: number;
  scale: number;
  logReference: number;
  factor: (timeMs: number, finest: number) => number;
  correlation: number;
}

function currencyStream(code: string): number {
  let h = 0;
  for (const ch of code) h = (h * 31 + ch.charCodeAt(0)) % 997;
  return CURRENCY_STREAM_BASE + h;
}

/**
 * The built-in liquidity simulator. Each symbol's log mid-price is its reference price plus a
 * Brownian-like path scaled by the symbol's volatility, part of which is shared: forex pairs move
 * with their two currencies, crypto with a crypto factor, indices with an equity factor, crude oils
 * together. Prices are a pure function of the seed and the time, so history and live ticks agree,
 * weekends leave gaps, and a restart continues the same path.
 */
export class SimulatorFeed implements TPriceFeedAdapter {
  readonly name = 'simulator';
  private readonly symbols = new Map<string, TSimulated>();
  private readonly seed: number;
  private readonly slotMs: number;
  private readonly spikeRate: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;

  constructor(instruments: readonly TInstrumentSpec[], options: TSimulatorOptions) {
    this.seed = options.seed;
    this.slotMs = options.slotMs ?? 100;
    this.spikeRate = options.spikeRate ?? 0;
    this.now = options.now ?? Date.now;
    instruments.forEach((spec, index) => {
      const seed = this.seed;
      let factor: TSimulated['factor'];
      let correlation: number;
      if (spec.category === 'forex') {
        const b = currencyStream(spec.base);
        const q = currencyStream(spec.quote);
        factor = (t, finest) => (brownian(seed, b, t, finest) - brownian(seed, q, t, finest)) / Math.SQRT2;
        correlation = 0.85;
      } else if (spec.category === 'metals') {
        const usd = currencyStream('USD');
        factor = (t, finest) => -brownian(seed, usd, t, finest);
        correlation = 0.35;
      } else {
        const stream =
          spec.category === 'crypto'
            ? FACTOR_STREAMS.crypto
            : spec.category === 'energy'
              ? FACTOR_STREAMS.energy
              : FACTOR_STREAMS.equity;
        factor = (t, finest) => brownian(seed, stream, t, finest);
        correlation =
          spec.category === 'crypto'
            ? spec.base === 'BTC'
              ? 0.92
              : 0.78
            : spec.category === 'energy'
              ? 0.9
              : 0.75;
      }
      this.symbols.set(spec.symbol, {
        spec,
        index,
        scale: 10 ** spec.digits,
        logReference: Math.log(spec.referencePrice),
        factor,
        correlation,
      });
    });
  }

  canHandle(symbol: string): boolean {
    return this.symbols.has(symbol);
  }

  /** The mid price at a moment, as a float (the simulator's internal, unrounded value). */
  midPrice(symbol: string, timeMs: number, finestOctave = 0): number {
    const s = this.require(symbol);
    const own = brownian(this.seed, 3_000 + s.index, timeMs, finestOctave);
    const shared = s.factor(timeMs, finestOctave);
    const x = s.correlation * shared + Math.sqrt(1 - s.correlation ** 2) * own;
    return Math.exp(s.logReference + s.spec.volatility * x);
  }

  isOpen(symbol: string, timeMs: number): boolean {
    return isOpenAt(this.require(symbol).spec.sessions, timeMs);
  }

  /** Spread in points: wider at session opens, at the 22:00 UTC rollover and in quiet hours. */
  spreadPoints(symbol: string, timeMs: number): number {
    const s = this.require(symbol);
    let factor = 1;
    const opened = sessionOpenedAt(s.spec.sessions, timeMs);
    if (opened !== null && timeMs - opened < 5 * 60_000) factor += 2.5;
    const minuteOfDay = Math.floor((timeMs % 86_400_000) / 60_000);
    if (s.spec.category !== 'crypto' && minuteOfDay >= 21 * 60 + 55 && minuteOfDay < 22 * 60 + 15)
      factor += 3;
    if (this.isQuietHour(s.spec, timeMs)) factor += 0.4;
    const jitter = 0.85 + 0.3 * uniform(this.seed, SPREAD_STREAM_BASE + s.index, Math.floor(timeMs / 1000));
    return Math.max(1, Math.round(s.spec.spreadPoints * factor * jitter));
  }

  /** The quote at a moment, or null when the symbol's market is closed. */
  quoteAt(symbol: string, timeMs: number): TTick | null {
    if (!this.isOpen(symbol, timeMs)) return null;
    const s = this.require(symbol);
    const mid = Math.round(this.midPrice(symbol, timeMs) * s.scale);
    const spread = this.spreadPoints(symbol, timeMs);
    const bid = mid - Math.floor(spread / 2);
    return { symbol, time: timeMs, bid, ask: bid + spread };
  }

  start(onTick: (tick: TTick) => void): void {
    if (this.timer) return;
    let lastSlot = Math.floor(this.now() / this.slotMs);
    this.timer = setInterval(() => {
      const slot = Math.floor(this.now() / this.slotMs);
      // Emit for every slot since the last run, so a busy event loop does not thin the feed.
      for (let current = Math.max(lastSlot + 1, slot - 10); current <= slot; current++) {
        for (const tick of this.ticksForSlot(current)) onTick(tick);
      }
      lastSlot = slot;
    }, this.slotMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The ticks of one time slot: which symbols tick is itself deterministic. */
  ticksForSlot(slot: number): TTick[] {
    const time = slot * this.slotMs;
    const ticks: TTick[] = [];
    for (const s of this.symbols.values()) {
      const rate = BUSY_TICK_RATE[s.spec.category] * (this.isQuietHour(s.spec, time) ? 0.3 : 1);
      if (uniform(this.seed, TICK_STREAM_BASE + s.index, slot) > (rate * this.slotMs) / 1000) continue;
      const tick = this.quoteAt(s.spec.symbol, time);
      if (!tick) continue;
      if (this.spikeRate > 0 && uniform(this.seed, SPIKE_STREAM_BASE + s.index, slot) < this.spikeRate) {
        const jump = Math.round(
          tick.bid * (gaussian(this.seed, SPIKE_STREAM_BASE + s.index, slot) > 0 ? 0.03 : -0.03),
        );
        ticks.push({ ...tick, bid: tick.bid + jump, ask: tick.ask + jump });
      } else ticks.push(tick);
    }
    return ticks;
  }

  /**
   * Candles from the deterministic path: each candle samples the bid at several points (finer
   * octaves are skipped where they are below the sampling step) and keeps only open-session samples.
   */
  getHistorical(
    symbol: string,
    timeframe: TTimeframe,
    fromMs: number,
    toMs: number,
    serverTimeZone = 'UTC',
  ): TCandle[] {
    const s = this.require(symbol);
    const candles: TCandle[] = [];
    const step = HISTORY_STEP_MS[timeframe];
    const finest = Math.max(0, Math.floor(Math.log2(step / 2_000)) - 1);
    const halfSpread = Math.floor(s.spec.spreadPoints / 2);
    let previousBid: number | null = null;
    for (let open = bucketStart(timeframe, fromMs, serverTimeZone); open <= toMs; ) {
      const next = nextBucketStart(timeframe, open, serverTimeZone);
      let candle: TCandle | null = null;
      for (let t = open; t < next && t <= toMs; t += step) {
        if (!isOpenAt(s.spec.sessions, t)) continue;
        const bid = Math.round(this.midPrice(symbol, t, finest) * s.scale) - halfSpread;
        if (!candle) candle = { time: open, open: bid, high: bid, low: bid, close: bid, volume: 0 };
        candle.high = Math.max(candle.high, bid);
        candle.low = Math.min(candle.low, bid);
        candle.close = bid;
        // Tick volume follows activity: more in busy hours and on large moves, with some noise.
        const move =
          previousBid === null ? 0 : Math.abs(bid - previousBid) / Math.max(1, s.spec.spreadPoints);
        const activity =
          (this.isQuietHour(s.spec, t) ? 0.3 : 1) *
          (0.6 + 0.8 * uniform(this.seed, 8_000 + s.index, Math.floor(t / step)));
        candle.volume += Math.max(
          1,
          Math.round(
            (step / 1000) * BUSY_TICK_RATE[s.spec.category] * 0.4 * activity * (1 + Math.min(move, 20) / 4),
          ),
        );
        previousBid = bid;
      }
      if (candle) candles.push(candle);
      open = next;
    }
    return candles;
  }

  private isQuietHour(spec: TInstrumentSpec, timeMs: number): boolean {
    if (spec.category === 'crypto') return false;
    const hour = new Date(timeMs).getUTCHours();
    return hour >= 21 || hour < 1;
  }

  private require(symbol: string): TSimulated {
    const s = this.symbols.get(symbol);
    if (!s) throw new Error(`unknown symbol ${symbol}`);
    return s;
  }
}
