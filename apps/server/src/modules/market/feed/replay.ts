import { readFileSync } from 'node:fs';
import type { TCandle } from '@broker/domain/market/candles';
import { aggregateCandles } from '@broker/domain/market/candles';
import type { TTimeframe } from '@broker/domain/market/timeframes';
import type { TPriceFeedAdapter, TTick } from './types';

/**
 * Plays recorded ticks from a CSV file (`time,symbol,bid,ask` with ISO or epoch-millisecond times
 * and prices in points) at their recorded pace times `speed`, optionally looping.
 */
export class ReplayFeed implements TPriceFeedAdapter {
  readonly name = 'replay';
  private readonly ticks: TTick[];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    source: string | TTick[],
    private readonly options: { speed?: number; loop?: boolean } = {},
  ) {
    this.ticks = typeof source === 'string' ? parseTickCsv(readFileSync(source, 'utf8')) : [...source];
    this.ticks.sort((a, b) => a.time - b.time);
  }

  canHandle(symbol: string): boolean {
    return this.ticks.some((t) => t.symbol === symbol);
  }

  start(onTick: (tick: TTick) => void): void {
    if (this.timer || this.ticks.length === 0) return;
    const speed = this.options.speed ?? 1;
    const first = this.ticks[0] as TTick;
    let index = 0;
    let startedAt = Date.now();
    const step = () => {
      const elapsed = (Date.now() - startedAt) * speed;
      while (index < this.ticks.length && (this.ticks[index] as TTick).time - first.time <= elapsed) {
        const tick = this.ticks[index++] as TTick;
        onTick({ ...tick, time: Date.now() });
      }
      if (index >= this.ticks.length) {
        if (!this.options.loop) return this.stop();
        index = 0;
        startedAt = Date.now();
      }
    };
    this.timer = setInterval(step, 20);
    this.timer.unref?.();
    step();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  getHistorical(symbol: string, timeframe: TTimeframe, fromMs: number, toMs: number): TCandle[] {
    const minute: TCandle[] = this.ticks
      .filter((t) => t.symbol === symbol && t.time >= fromMs && t.time <= toMs)
      .map((t) => ({ time: t.time, open: t.bid, high: t.bid, low: t.bid, close: t.bid, volume: 1 }));
    return aggregateCandles(minute, timeframe);
  }
}

export function parseTickCsv(text: string): TTick[] {
  const ticks: TTick[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('time')) continue;
    const [time = '', symbol = '', bid = '', ask = ''] = trimmed.split(',');
    const ms = /^\d+$/.test(time) ? Number(time) : Date.parse(time);
    if (!Number.isFinite(ms) || !symbol || !/^\d+$/.test(bid) || !/^\d+$/.test(ask))
      throw new Error(`bad tick line: ${trimmed}`);
    ticks.push({ symbol, time: ms, bid: Number(bid), ask: Number(ask) });
  }
  return ticks;
}
