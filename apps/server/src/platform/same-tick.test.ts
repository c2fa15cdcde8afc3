import { describe, expect, it } from 'vitest';
import { sameTick } from './same-tick.js';

/** A recorder of the calls `sameTick` makes: each call's group and items. */
function recorder(fail?: (item: string) => boolean) {
  const calls: { group: string; items: string[] }[] = [];
  const write = sameTick<string, string, string>({
    sameGroup: (a, b) => a === b,
    key: (item) => item.split(':')[0],
    async run(group, items) {
      calls.push({ group, items });
      return items.map((item) =>
        fail?.(item)
          ? { status: 'rejected', reason: new Error(item) }
          : { status: 'fulfilled', value: `${group}/${item}` },
      );
    },
  });
  return { calls, write };
}

describe('sameTick', () => {
  it('the writes of one turn of the event loop go to one call per group', async () => {
    const { calls, write } = recorder();
    const done = await Promise.all([write('a', 'x:1'), write('b', 'y:1'), write('a', 'z:1')]);
    expect(done).toEqual(['a/x:1', 'b/y:1', 'a/z:1']);
    expect(calls).toEqual([
      { group: 'a', items: ['x:1', 'z:1'] },
      { group: 'b', items: ['y:1'] },
    ]);
  });

  it("a key's second write waits for the call of its first, in the order asked", async () => {
    const { calls, write } = recorder();
    await Promise.all([write('a', 'x:1'), write('a', 'x:2'), write('a', 'y:1'), write('a', 'x:3')]);
    expect(calls.map((c) => c.items)).toEqual([['x:1', 'y:1'], ['x:2'], ['x:3']]);
  });

  it('writes of a later turn make a call of their own', async () => {
    const { calls, write } = recorder();
    await write('a', 'x:1');
    await write('a', 'y:1');
    expect(calls.map((c) => c.items)).toEqual([['x:1'], ['y:1']]);
  });

  it('each write gets its own outcome; a call that throws fails its writes only', async () => {
    const { write } = recorder((item) => item === 'y:1');
    const outcomes = await Promise.allSettled([write('a', 'x:1'), write('a', 'y:1')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);

    const broken = sameTick<string, string, string>({
      sameGroup: () => true,
      key: (item) => item,
      run: async () => {
        throw new Error('down');
      },
    });
    const failed = await Promise.allSettled([broken('a', '1'), broken('a', '2')]);
    expect(failed.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    await expect(broken('a', '3')).rejects.toThrow('down');
  });

  it('a call of several that throws is run again item by item: one failing item fails alone', async () => {
    const calls: string[][] = [];
    const write = sameTick<string, string, string>({
      sameGroup: () => true,
      key: (item) => item,
      async run(_group, items) {
        calls.push(items);
        if (items.includes('bad')) throw new Error('bad');
        return items.map((item) => ({ status: 'fulfilled', value: item }));
      },
    });
    const outcomes = await Promise.allSettled([write('a', 'x'), write('a', 'bad'), write('a', 'y')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(calls).toEqual([['x', 'bad', 'y'], ['x'], ['bad'], ['y']]);
  });
});
