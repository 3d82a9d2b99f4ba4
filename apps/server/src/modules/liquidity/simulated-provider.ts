import {
  LiquidityRejection,
  type TCloseHedgeRequest,
  type THedgeFill,
  type THedgeRequest,
  type TLiquidityProvider,
  type TProviderStatus,
} from './provider';

export interface TSimulatedProviderOptions {
  /** The current raw quote (before the broker's markup) in points, or undefined without one. */
  quote(symbol: string): { bid: number; ask: number } | undefined;
  /** Seed of the random source: the same seed and calls give the same latencies, rejects and fills. */
  seed?: number;
  /** Round-trip time, drawn uniformly in [min, max] ms. */
  latencyMs?: { min: number; max: number };
  /** Share of orders refused ("off quotes"), 0..1. */
  rejectRate?: number;
  /** Slippage drawn uniformly in [-max, max] points (positive: worse for the broker). */
  maxSlippagePoints?: number;
  /** Waits (tests pass an instant one). */
  sleep?(ms: number): Promise<void>;
  now?(): number;
  name?: string;
}

/** mulberry32: a small, fast, seedable generator; plenty for simulated latencies and rejects. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Client order ids remembered for repeats (the oldest are forgotten first). */
const MAX_REMEMBERED_FILLS = 10_000;

const realSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
  });

/**
 * A liquidity provider that behaves like a real one: every order takes a random round trip, a few
 * are refused, and fills come at the provider's current quote (buys at the ask, sells at the bid)
 * moved by a few points of slippage. It keeps the hedges it opened, so closing more than is open
 * or an unknown hedge is refused, as a real venue would.
 */
export class SimulatedLiquidityProvider implements TLiquidityProvider {
  readonly name: string;
  private readonly random: () => number;
  private readonly options: Required<Omit<TSimulatedProviderOptions, 'seed' | 'name'>>;
  private readonly open = new Map<string, { symbol: string; side: 'buy' | 'sell'; volume: number }>();
  private readonly fills = new Map<string, THedgeFill>();
  private sequence = 0;
  private counters = { sent: 0, filled: 0, rejected: 0, latencyTotal: 0 };
  private lastError: string | null = null;
  private lastFillAt: number | null = null;

  constructor(options: TSimulatedProviderOptions) {
    this.name = options.name ?? 'Simulated LP';
    this.random = seededRandom(options.seed ?? Date.now());
    this.options = {
      quote: options.quote,
      latencyMs: options.latencyMs ?? { min: 20, max: 150 },
      rejectRate: options.rejectRate ?? 0.02,
      maxSlippagePoints: options.maxSlippagePoints ?? 3,
      sleep: options.sleep ?? realSleep,
      now: options.now ?? Date.now,
    };
  }

  sendOrder(request: THedgeRequest): Promise<THedgeFill> {
    return this.execute(request, null);
  }

  closeOrder(request: TCloseHedgeRequest): Promise<THedgeFill> {
    return this.execute(request, request.providerOrderId);
  }

  status(): TProviderStatus {
    const { sent, filled, rejected, latencyTotal } = this.counters;
    return {
      name: this.name,
      connected: true,
      sent,
      filled,
      rejected,
      averageLatencyMs: filled > 0 ? Math.round(latencyTotal / filled) : null,
      lastError: this.lastError,
      lastFillAt: this.lastFillAt,
    };
  }

  /** Volume still open of a hedge (hundredths of a lot), 0 when closed or unknown. */
  openVolume(providerOrderId: string): number {
    return this.open.get(providerOrderId)?.volume ?? 0;
  }

  private async execute(request: THedgeRequest, closing: string | null): Promise<THedgeFill> {
    this.counters.sent++;
    // Draws in a fixed order so a seed replays exactly.
    const { min, max } = this.options.latencyMs;
    const latency = Math.round(min + this.random() * (max - min));
    const refused = this.random() < this.options.rejectRate;
    const slip = Math.round((this.random() * 2 - 1) * this.options.maxSlippagePoints);
    await this.options.sleep(latency);
    const known = this.fills.get(request.clientOrderId);
    if (known) return known; // a repeated client order id answers the first fill
    const reject = (reason: ConstructorParameters<typeof LiquidityRejection>[0], message: string) => {
      this.counters.rejected++;
      this.lastError = message;
      return new LiquidityRejection(reason, message);
    };
    // A hedge opened before a restart is unknown to this simulator; a real venue keeps it, so
    // only what it knows is checked.
    const hedge = closing === null ? undefined : this.open.get(closing);
    if (hedge && (hedge.symbol !== request.symbol || hedge.side === request.side))
      throw reject('unknown_order', `no open ${request.symbol} hedge ${closing} to close`);
    if (hedge && request.volume > hedge.volume)
      throw reject('rejected', `close of ${request.volume} exceeds the open ${hedge.volume}`);
    if (refused) throw reject('rejected', 'off quotes');
    const quote = this.options.quote(request.symbol);
    if (!quote) throw reject('no_price', `no price for ${request.symbol}`);
    const price = request.side === 'buy' ? quote.ask + slip : quote.bid - slip;
    const time = this.options.now();
    let providerOrderId: string;
    if (closing !== null) {
      if (hedge) {
        hedge.volume -= request.volume;
        if (hedge.volume === 0) this.open.delete(closing);
      }
      providerOrderId = `${closing}-c${++this.sequence}`;
    } else {
      providerOrderId = `SIM-${++this.sequence}`;
      this.open.set(providerOrderId, { symbol: request.symbol, side: request.side, volume: request.volume });
    }
    const fill: THedgeFill = {
      providerOrderId,
      symbol: request.symbol,
      side: request.side,
      volume: request.volume,
      price,
      latencyMs: latency,
      time,
    };
    this.fills.set(request.clientOrderId, fill);
    if (this.fills.size > MAX_REMEMBERED_FILLS) this.fills.delete(this.fills.keys().next().value as string);
    this.counters.filled++;
    this.counters.latencyTotal += latency;
    this.lastFillAt = time;
    return fill;
  }
}
