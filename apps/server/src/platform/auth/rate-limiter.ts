import type { Redis } from 'ioredis';

/** Fixed-window counters; `hit` returns the count after incrementing. */
export interface RateLimiter {
  hit(key: string): Promise<number>;
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

/** In-process counters, bounded: the oldest windows are dropped past `maxKeys`. */
export function memoryRateLimiter(windowMs: number, maxKeys = 10_000): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt > Date.now()) return w;
    windows.delete(key);
    return undefined;
  };
  return {
    async hit(key) {
      const w = current(key) ?? { count: 0, resetAt: Date.now() + windowMs };
      w.count += 1;
      windows.delete(key);
      windows.set(key, w);
      if (windows.size > maxKeys) windows.delete(windows.keys().next().value as string);
      return w.count;
    },
    async count(key) {
      return current(key)?.count ?? 0;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

/** Counters shared by every server instance. */
export function redisRateLimiter(redis: Redis, windowMs: number, prefix = 'rl'): RateLimiter {
  const k = (key: string) => `${prefix}:${key}`;
  return {
    async hit(key) {
      const [[, n]] = (await redis.multi().incr(k(key)).pexpire(k(key), windowMs, 'NX').exec()) as [[unknown, number]];
      return n;
    },
    async count(key) {
      return Number((await redis.get(k(key))) ?? 0);
    },
    async reset(key) {
      await redis.del(k(key));
    },
  };
}
