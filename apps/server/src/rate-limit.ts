import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/**
 * Keyed counters (per address, per account, per target) on `rate-limiter-flexible`: each hit is
 * counted and checked in one atomic step (one synchronous update in memory, one Lua script in
 * Redis), so hundreds of parallel requests cannot all read "under the limit" before any is counted.
 */
export interface TRateLimiter {
  /** Counts one hit; true while the key is within `limit` hits per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<boolean>;
  /** Forgets a key's count (a successful sign-in clears its failures). */
  reset(key: string, limit: number, windowMs: number): Promise<void>;
}

type TMake = (points: number, duration: number) => RateLimiterAbstract;

/** One limiter per (limit, window) pair, made on first use; keys share it. */
class FlexibleRateLimiter implements TRateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  constructor(private readonly make: TMake) {}

  private limiter(limit: number, windowMs: number): RateLimiterAbstract {
    const id = `${limit}/${windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      // rate-limiter-flexible counts windows in whole seconds.
      limiter = this.make(limit, Math.max(1, Math.ceil(windowMs / 1000)));
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    try {
      await this.limiter(limit, windowMs).consume(key);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }

  async reset(key: string, limit: number, windowMs: number): Promise<void> {
    await this.limiter(limit, windowMs).delete(key);
  }
}

export class MemoryRateLimiter extends FlexibleRateLimiter {
  constructor() {
    super((points, duration) => new RateLimiterMemory({ points, duration }));
  }
}

/** Shared by every instance; falls back to per-instance memory counts while Redis is down. */
export class RedisRateLimiter extends FlexibleRateLimiter {
  constructor(redis: Redis, prefix = 'rl') {
    super(
      (points, duration) =>
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${prefix}:${points}:${duration}`,
          points,
          duration,
          insuranceLimiter: new RateLimiterMemory({ points, duration }),
        }),
    );
  }
}
