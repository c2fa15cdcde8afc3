import pino from 'pino';
import { expect } from 'vitest';
import type { Tenant, TestServer } from '../../../test/harness.js';
import type { Channel, ChannelEvents } from '../channel.js';
import type { ChannelContext } from '../manager.js';
import { type BaileysOptions, createBaileysChannel } from './baileys.channel.js';

/** The WhatsApp Web version test sockets announce (no network to ask for the current one). */
export const TEST_WA_VERSION: [number, number, number] = [2, 3000, 1_000_000_001];

import { type FakeWorld, fakeWorld } from './fake-socket.js';

/** Tests only: beta connections of a test server, driven through fake sockets. */
export function betaBench(server: () => TestServer, tenant: () => Tenant) {
  const live: Channel[] = [];
  const calls: Parameters<ChannelEvents['call']>[0][] = [];
  const ctx = (): ChannelContext => {
    const events = server().deps.channels.events;
    return {
      db: server().deps.database.db,
      store: server().deps.channels.store,
      storage: server().deps.storage,
      log: pino({ level: 'silent' }),
      events: {
        ...events,
        call: async (c) => {
          calls.push(c);
          await events.call(c);
        },
      },
    };
  };
  let n = 0;
  return {
    calls,
    async connection(providerConfig: Record<string, string> = {}): Promise<number> {
      const res = await server().call('POST', '/whatsapp', tenant().admin, {
        name: `Phone ${++n}-${Math.random().toString(36).slice(2, 6)}`,
        provider: 'beta',
        providerConfig,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id;
    },
    async channel(whatsappId: number, opts: BaileysOptions = {}, world: FakeWorld = fakeWorld()) {
      const row = await server().deps.channels.store.connection(tenant().companyId, whatsappId);
      const channel = createBaileysChannel(row, ctx(), {
        makeSocket: world.make,
        sendGapMs: { min: 0, max: 0 },
        ffmpeg: null,
        backoff: { baseMs: 10_000 },
        waVersion: async () => TEST_WA_VERSION,
        ...opts,
      });
      live.push(channel);
      return { channel, world };
    },
    async status(whatsappId: number) {
      const res = await server().call('GET', `/whatsapp/${whatsappId}`, tenant().admin);
      return res.json() as { status: string; qrcode: string; number: string | null; retries: number };
    },
    async stopAll() {
      await Promise.all(live.splice(0).map((c) => c.stop()));
    },
  };
}
