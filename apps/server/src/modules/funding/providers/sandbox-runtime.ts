import { randomBytes } from 'node:crypto';
import type { TSandboxLog } from './journal';

/** The sandbox's options with every default filled in (see `TSandboxOptions` in index.ts). */
export interface TSandboxSettings {
  dataDir: string;
  secret: string;
  webhookUrl: (providerId: string) => string;
  publicUrl: () => string;
  now: () => number;
  random: () => number;
  webhookDelayMs: readonly [number, number];
  duplicateRate: number;
  reorder: boolean;
  retryBaseMs: number;
  retryCapMs: number;
  maxAttempts: number;
  blockMs: number;
  confirmations: { trc20: number; erc20: number };
  payoutDelayMs: readonly [number, number];
  creditDelayMs: readonly [number, number];
  sessionTtlMs: number;
  chainWindowMs: number;
  bankWindowMs: number;
  log: TSandboxLog | undefined;
}

/** A whole number of milliseconds drawn evenly from `[min, max]`. */
export const drawMs = (settings: TSandboxSettings, [min, max]: readonly [number, number]) =>
  min + Math.floor(settings.random() * (Math.max(max, min) - min + 1));

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Node's timers take at most 2^31-1 ms; longer waits (a bank reference's 7 days) are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The timers of one provider: all `unref()`ed, so the sandbox never keeps a process alive, and all
 * cleared by `stop()`. A callback that throws (or rejects) is logged, never allowed to crash the
 * server it runs in.
 */
export class Timers {
  private readonly live = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly log: TSandboxLog | undefined) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  after(ms: number, run: () => void | Promise<void>): void {
    if (this.stopped) return;
    const wait = Math.max(0, Math.min(ms, MAX_TIMER_MS));
    const timer = setTimeout(() => {
      this.live.delete(timer);
      if (ms > MAX_TIMER_MS) this.after(ms - MAX_TIMER_MS, run);
      else this.guard(run);
    }, wait);
    timer.unref();
    this.live.add(timer);
  }

  every(ms: number, run: () => void): void {
    if (this.stopped) return;
    const timer = setInterval(() => this.guard(run), ms);
    timer.unref();
    this.live.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.live) clearTimeout(timer);
    this.live.clear();
  }

  private guard(run: () => void | Promise<void>) {
    if (this.stopped) return;
    try {
      const result = run();
      if (result instanceof Promise)
        result.catch((error: unknown) => this.log?.warn({ error: String(error) }, 'sandbox timer failed'));
    } catch (error) {
      this.log?.warn({ error: String(error) }, 'sandbox timer failed');
    }
  }
}

/** A sandbox control (`chainSend`, `bankTransfer`) called with what no wallet or bank would accept. */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
}
