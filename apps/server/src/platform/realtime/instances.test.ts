import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { createRealtime, type Realtime } from './realtime.js';

const log = pino({ level: 'silent' });
const nobody = async () => null;

describe('commands between instances', () => {
  it('without Redis there is no other instance: no answers', async () => {
    const realtime = createRealtime({ corsOrigin: [], log });
    realtime.attach(createServer(), nobody);
    expect(await realtime.askInstances('test:ping', { n: 1 })).toEqual([]);
    await realtime.close();
  });

  describe.skipIf(!process.env.REDIS_URL)('over Redis', () => {
    const clients: Redis[] = [];
    const open: Realtime[] = [];
    const instance = (key: string) => {
      const pub = new Redis(process.env.REDIS_URL as string);
      const sub = pub.duplicate();
      clients.push(pub, sub);
      const realtime = createRealtime({ corsOrigin: [], redis: { pub, sub, key }, log });
      open.push(realtime);
      return realtime;
    };
    afterAll(async () => {
      await Promise.all(open.map((r) => r.close()));
      await Promise.all(clients.map((c) => c.quit()));
    });

    it('reaches the other instances of the same key, handlers bound before or after attach', async () => {
      const key = `instances-${randomBytes(4).toString('hex')}`;
      const [a, b, c] = [instance(key), instance(key), instance(`${key}-other`)];
      b.onInstances('test:ping', (payload) => ({ echo: payload }));
      for (const r of [a, b, c]) r.attach(createServer(), nobody);
      c.onInstances('test:ping', () => 'wrong deployment');
      // The adapters subscribe in the background: asked until B listens.
      const answers = await waitUntil(
        () => a.askInstances('test:ping', { n: 1 }),
        (r) => r.length > 0,
      );
      expect(answers).toEqual([{ echo: { n: 1 } }]);

      // A failing handler answers null rather than leaving the sender waiting.
      a.onInstances('test:fail', () => {
        throw new Error('boom');
      });
      expect(await b.askInstances('test:fail', {})).toEqual([null]);
    });
  });
});
