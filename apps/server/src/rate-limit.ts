import type { Redis } from 'ioredis';

/** Fixed-window counters: in memory for one instance, in Redis when several share the limits. */
export interface TRateLimiter {
  /** Counts one hit; returns true while the key is within `limit` hits per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<boolean>;
}

export class MemoryRateLimiter implements TRateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();
  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count++;
    return window.count <= limit;
  }
  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export class RedisRateLimiter implements TRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl:',
  ) {}
  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const bucket = `${this.prefix}${key}:${Math.floor(Date.now() / windowMs)}`;
    const [[, count] = [null, 0]] =
      (await this.redis.multi().incr(bucket).pexpire(bucket, windowMs).exec()) ?? [];
    return Number(count) <= limit;
  }
}
