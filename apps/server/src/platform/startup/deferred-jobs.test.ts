import { describe, expect, it } from 'vitest';
import type { Jobs } from '../jobs/jobs.js';
import { deferredJobs } from './deferred-jobs.js';

describe('deferredJobs', () => {
  it('holds the calls made before open and passes them on, in order, once opened', async () => {
    const calls: string[] = [];
    const started: Jobs = {
      send: async (queue) => {
        calls.push(`send ${queue}`);
        return `id-${queue}`;
      },
      work: async (queue) => void calls.push(`work ${queue}`),
      schedule: async (queue) => void calls.push(`schedule ${queue}`),
      stop: async () => void calls.push('stop'),
    };
    const { jobs, open } = deferredJobs();
    const sent = jobs.send('a', {});
    const worked = jobs.work('b', async () => {});
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toEqual([]);

    open(started);
    expect(await sent).toBe('id-a');
    await worked;
    await jobs.schedule('c', '* * * * *', async () => {});
    await jobs.stop();
    expect(calls).toEqual(['send a', 'work b', 'schedule c', 'stop']);
  });
});
