import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryRateLimiter, redisRateLimiter } from './rate-limiter.js';

describe('memoryRateLimiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts hits per key and resets', async () => {
    const limiter = memoryRateLimiter(60_000);
    expect(await limiter.count('login:ip:1')).toBe(0);
    expect(await limiter.hit('login:ip:1')).toBe(1);
    expect(await limiter.hit('login:ip:1')).toBe(2);
    expect(await limiter.hit('login:ip:1')).toBe(3);
    expect(await limiter.count('login:ip:1')).toBe(3);
    expect(await limiter.count('login:ip:2')).toBe(0);
    await limiter.reset('login:ip:1');
    expect(await limiter.count('login:ip:1')).toBe(0);
    expect(await limiter.hit('login:ip:1')).toBe(1);
  });

  it('forgets a key once its window has passed; the window does not slide', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const limiter = memoryRateLimiter(1_000);
    await limiter.hit('k');
    vi.advanceTimersByTime(600);
    expect(await limiter.hit('k')).toBe(2);
    vi.advanceTimersByTime(300);
    expect(await limiter.count('k')).toBe(2);
    // 1 000 ms after the first hit: a fresh window, even though the last hit was 400 ms ago.
    vi.advanceTimersByTime(101);
    expect(await limiter.count('k')).toBe(0);
    expect(await limiter.hit('k')).toBe(1);
  });

  it('stays bounded: past maxKeys the least recently hit key is dropped', async () => {
    const limiter = memoryRateLimiter(60_000, 3);
    await limiter.hit('a');
    await limiter.hit('b');
    await limiter.hit('c');
    await limiter.hit('a');
    await limiter.hit('d');
    expect(await limiter.count('b')).toBe(0);
    expect(await limiter.count('a')).toBe(2);
    expect(await limiter.count('c')).toBe(1);
    expect(await limiter.count('d')).toBe(1);

    const many = memoryRateLimiter(60_000, 100);
    for (let i = 0; i < 10_000; i++) await many.hit(`ip:${i}`);
    let kept = 0;
    for (let i = 0; i < 10_000; i++) if ((await many.count(`ip:${i}`)) > 0) kept++;
    expect(kept).toBe(100);
    expect(await many.count('ip:9999')).toBe(1);
  });
});

describe.skipIf(!process.env.REDIS_URL)('redisRateLimiter', () => {
  let redis: Redis;
  const prefix = `rl-test-${randomBytes(4).toString('hex')}`;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL as string);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts hits per key and resets', async () => {
    const limiter = redisRateLimiter(redis, 60_000, prefix);
    expect(await limiter.count('login:email:x')).toBe(0);
    expect(await limiter.hit('login:email:x')).toBe(1);
    expect(await limiter.hit('login:email:x')).toBe(2);
    expect(await limiter.count('login:email:x')).toBe(2);
    expect(await limiter.count('login:email:y')).toBe(0);
    expect(await redis.get(`${prefix}:login:email:x`)).toBe('2');
    await limiter.reset('login:email:x');
    expect(await limiter.count('login:email:x')).toBe(0);
  });

  it('expires the key after a fixed window that later hits do not extend', async () => {
    const limiter = redisRateLimiter(redis, 400, prefix);
    await limiter.hit('w');
    await new Promise((r) => setTimeout(r, 250));
    expect(await limiter.hit('w')).toBe(2);
    expect(await redis.pttl(`${prefix}:w`)).toBeLessThanOrEqual(160);
    await new Promise((r) => setTimeout(r, 250));
    expect(await limiter.count('w')).toBe(0);
  });

  it('shares counters between instances with the same prefix, not across prefixes', async () => {
    const one = redisRateLimiter(redis, 60_000, prefix);
    const two = redisRateLimiter(redis, 60_000, prefix);
    const other = redisRateLimiter(redis, 60_000, `${prefix}-other`);
    await one.hit('shared');
    expect(await two.hit('shared')).toBe(2);
    expect(await other.count('shared')).toBe(0);
  });
});
