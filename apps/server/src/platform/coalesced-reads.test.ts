import { describe, expect, it } from 'vitest';
import { coalescedReads } from './coalesced-reads.js';

describe('coalescedReads', () => {
  it('answers the reads asked within one tick with one call per group, and each with its own row', async () => {
    const calls: [number, number[]][] = [];
    const read = coalescedReads(async (group, ids) => {
      calls.push([group, ids]);
      return ids.filter((id) => id !== 404).map((id) => ({ id, group }));
    });
    const answers = await Promise.all([read(1, 10), read(1, 11), read(2, 10), read(1, 10), read(1, 404)]);
    expect(answers).toEqual([
      { id: 10, group: 1 },
      { id: 11, group: 1 },
      { id: 10, group: 2 },
      { id: 10, group: 1 },
      undefined,
    ]);
    expect(calls).toEqual([
      [1, [10, 11, 404]],
      [2, [10]],
    ]);
    // A later tick reads again: nothing is kept.
    await read(1, 10);
    expect(calls).toHaveLength(3);
  });

  it('rejects every read of a group whose call failed, and only those', async () => {
    const read = coalescedReads(async (group, ids) => {
      if (group === 1) throw new Error('down');
      return ids.map((id) => ({ id }));
    });
    const [a, b, c] = await Promise.allSettled([read(1, 1), read(1, 2), read(2, 3)]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(c).toEqual({ status: 'fulfilled', value: { id: 3 } });
  });
});
