import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('the inbound batcher', () => {
  it('stores a lone item at once, and what arrives meanwhile as the next batch, in order', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const batcher = createBatcher(async (items: number[]) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((n) => n * 10);
    }, 3);
    const first = batcher.push('k', 1);
    await tick();
    const rest = [2, 3, 4, 5].map((n) => batcher.push('k', n));
    await tick();
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('runs keys independently: a slow connection does not hold another one', async () => {
    let release: () => void = () => {};
    const batcher = createBatcher(async (items: string[]) => {
      if (items.includes('slow')) await new Promise<void>((r) => (release = r));
      return items;
    }, 10);
    const slow = batcher.push('a', 'slow');
    expect(await batcher.push('b', 'fast')).toBe('fast');
    release();
    expect(await slow).toBe('slow');
  });

  it('retries a failed batch item by item, so only the bad item fails', async () => {
    const calls: string[][] = [];
    const batcher = createBatcher(async (items: string[]) => {
      calls.push(items);
      if (items.includes('bad')) throw new Error('bad item');
      return items.map((s) => s.toUpperCase());
    }, 10);
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((s) => batcher.push('k', s)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['A', 'rejected', 'C']);
    expect(calls).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('starts afresh once a key has drained', async () => {
    const batches: string[][] = [];
    const batcher = createBatcher(async (items: string[]) => {
      batches.push(items);
      return items;
    }, 10);
    await Promise.all([batcher.push('k', 'a'), batcher.push('k', 'b')]);
    await batcher.push('k', 'c');
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });
});
