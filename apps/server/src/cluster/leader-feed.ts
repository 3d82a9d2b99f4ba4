import type { TPriceFeedAdapter, TTick } from '../modules/market';

/**
 * The price feed of an instance among several (issue 20): the real source (the simulator, a replay,
 * a liquidity provider) runs only on the engine leader, which publishes every accepted tick over the
 * bus; on a standby it is still the source of history, but live ticks come from the leader. One
 * source of prices, so every instance shows the prices the engine fills at.
 */
export class LeaderFeed implements TPriceFeedAdapter {
  readonly name: string;
  private onTick: ((tick: TTick) => void) | null = null;
  private active: boolean;
  private started = false;
  quoteAt?: (symbol: string, timeMs: number) => TTick | null;

  constructor(
    private readonly inner: TPriceFeedAdapter & { quoteAt?(symbol: string, timeMs: number): TTick | null },
    active: boolean,
  ) {
    this.name = inner.name;
    this.active = active;
    if (inner.quoteAt) this.quoteAt = (symbol, timeMs) => inner.quoteAt?.(symbol, timeMs) ?? null;
  }

  canHandle(symbol: string): boolean {
    return this.inner.canHandle(symbol);
  }

  getHistorical(...args: Parameters<TPriceFeedAdapter['getHistorical']>) {
    return this.inner.getHistorical(...args);
  }

  start(onTick: (tick: TTick) => void): void {
    this.onTick = onTick;
    this.started = true;
    if (this.active) this.inner.start(onTick);
  }

  stop(): void {
    this.started = false;
    if (this.active) this.inner.stop();
  }

  /** Whether the real source runs here (this instance leads). */
  get isActive(): boolean {
    return this.active;
  }

  setActive(active: boolean): void {
    if (this.active === active) return;
    this.active = active;
    if (!this.started || !this.onTick) return;
    if (active) this.inner.start(this.onTick);
    else this.inner.stop();
  }
}
