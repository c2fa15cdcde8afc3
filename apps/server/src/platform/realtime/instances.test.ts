import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { companyEvent } from '@balcao/shared';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  login,
  openTestDatabase,
  recordEvents,
  SUPER,
} from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { createRealtime, type Realtime } from './realtime.js';
import { connectRedis, type RedisClients } from './redis-clients.js';

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
    const clients: RedisClients[] = [];
    const open: Realtime[] = [];
    const instance = async (key: string) => {
      const redis = await connectRedis(process.env.REDIS_URL as string, log);
      clients.push(redis);
      const realtime = createRealtime({ corsOrigin: [], redis: { ...redis, key }, log });
      open.push(realtime);
      return realtime;
    };
    afterAll(async () => {
      await Promise.all(open.map((r) => r.close()));
      await Promise.all(clients.flatMap((c) => [c.pub.quit(), c.sub.quit()]));
    });

    it('reaches the other instances of the same key, handlers bound before or after attach', async () => {
      const key = `instances-${randomBytes(4).toString('hex')}`;
      const [a, b, c] = await Promise.all([instance(key), instance(key), instance(`${key}-other`)]);
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

  describe.skipIf(!process.env.REDIS_URL)('sessions ended on one instance', () => {
    it('close their sockets on the other instance, which then receive nothing', async () => {
      const database = await openTestDatabase();
      const redisKey = randomBytes(4).toString('hex');
      const env = { LOGIN_LIMIT_IP: '1000' };
      const a = await createTestServer(env, { database, redisKey });
      const b = await createTestServer(env, { database, redisKey });
      try {
        await b.listen();
        const t = await createTenant(a);
        // The adapters subscribe in the background: wait until each instance hears the other.
        b.deps.realtime.onInstances('test:ready', () => true);
        await waitUntil(
          () => a.deps.realtime.askInstances('test:ready', null),
          (answers) => answers.length > 0,
        );
        const sockets = await Promise.all([t.user, t.admin].map((s) => connectSocket(b, s.token)));
        const closed = sockets.map((s) => new Promise<string>((resolve) => s.on('disconnect', resolve)));
        const seen = sockets.map(recordEvents);

        expect((await a.call('DELETE', '/auth/logout', t.user)).statusCode).toBe(200);
        expect(await closed[0]).toBe('io server disconnect');
        const su = await login(a, SUPER.email, SUPER.password);
        expect((await a.call('PUT', `/companies/${t.companyId}`, su, { status: false })).statusCode).toBe(200);
        expect(await closed[1]).toBe('io server disconnect');

        a.deps.realtime.toCompany(t.companyId, companyEvent.ticket(t.companyId), { late: true });
        await new Promise((r) => setTimeout(r, 200));
        expect(seen.flat().filter((e) => e.event === companyEvent.ticket(t.companyId))).toEqual([]);
      } finally {
        await a.close();
        await b.close();
        await database.close();
      }
    });
  });
});
