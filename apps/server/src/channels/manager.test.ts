import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { waitUntil } from '../../test/sandbox-helpers.js';
import type { InstanceHandler } from '../platform/realtime/realtime.js';
import { type FakeWorld, fakeWorld } from './baileys/fake-socket.js';
import { betaBench, TEST_WA_VERSION } from './baileys/testing.js';
import { CHANNEL_COMMAND, type ChannelManager, createChannelManager, type Instances } from './manager.js';

/** Session commands between two instances (managers on one database), over an in-memory bus. */

let server: TestServer;
let t: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server, { plan: { connections: 50 } });
});
afterAll(() => server?.close());
const bench = betaBench(
  () => server,
  () => t,
);

/** What Redis does between instances: each asks all the others, payloads travel as JSON. */
function bus(size: number): Instances[] {
  const handlers = Array.from({ length: size }, () => new Map<string, InstanceHandler>());
  return handlers.map((mine) => ({
    onInstances: (event, handler) => {
      mine.set(event, handler);
    },
    askInstances: (event, payload) =>
      Promise.all(
        handlers
          .filter((other) => other !== mine)
          .map(async (other) => (await other.get(event)?.(JSON.parse(JSON.stringify(payload)))) ?? null),
      ),
  }));
}

interface Instance {
  manager: ChannelManager;
  world: FakeWorld;
  bus: Instances;
}
let a: Instance;
let b: Instance;
beforeAll(() => {
  const [busA, busB] = bus(2);
  const instance = (instances: Instances): Instance => {
    const world = fakeWorld();
    const manager = createChannelManager(
      {
        db: server.deps.database.db,
        storage: server.deps.storage,
        events: server.deps.channels.events,
        store: server.deps.channels.store,
        log: pino({ level: 'silent' }),
      },
      {
        sandboxEnabled: false,
        beta: {
          makeSocket: world.make,
          sendGapMs: { min: 0, max: 0 },
          ffmpeg: null,
          waVersion: async () => TEST_WA_VERSION,
        },
        instances,
      },
    );
    return { manager, world, bus: instances };
  };
  a = instance(busA);
  b = instance(busB);
});
afterEach(async () => {
  await a.manager.stopAll();
  await b.manager.stopAll();
  a.world.sockets.length = 0;
  b.world.sockets.length = 0;
});

const statusIs = (id: number, status: string) =>
  waitUntil(
    () => bench.status(id),
    (s) => s.status === status,
    5000,
  );

/** A connection whose socket instance A holds, connected. */
async function ownedByA() {
  const id = await bench.connection();
  await a.manager.start(t.companyId, id);
  expect(a.world.sockets).toHaveLength(1);
  const sock = a.world.last();
  sock.emit('connection.update', { connection: 'open' });
  await statusIs(id, 'CONNECTED');
  a.world.sockets.length = 0;
  return { id, sock };
}

describe('session commands between instances', () => {
  it('a logout on another instance logs out the owner’s socket', async () => {
    const { id, sock } = await ownedByA();
    await b.manager.logout(t.companyId, id);
    expect(sock.loggedOut).toBe(1);
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
    expect(() => a.manager.get(id)).toThrow();
  });

  it('a stop on another instance closes the owner’s socket without logging out', async () => {
    const { id, sock } = await ownedByA();
    await b.manager.stop(id);
    expect(sock).toMatchObject({ ended: 1, loggedOut: 0 });
    expect(() => a.manager.get(id)).toThrow();
  });

  it('a start on another instance restarts the owner’s socket and opens none there', async () => {
    const { id, sock } = await ownedByA();
    await b.manager.start(t.companyId, id);
    expect(b.world.sockets).toHaveLength(0);
    expect(sock.ended).toBe(1);
    expect(a.world.sockets).toHaveLength(1);
    expect(() => b.manager.get(id)).toThrow();
    // B holds no idle channel for it: a later logout on B still reaches A.
    await b.manager.logout(t.companyId, id);
    expect(a.world.last().loggedOut).toBe(1);
  });

  it('a new QR code on another instance (logout, then start) opens the socket there', async () => {
    const { id, sock } = await ownedByA();
    await b.manager.logout(t.companyId, id);
    await b.manager.start(t.companyId, id);
    expect(sock.loggedOut).toBe(1);
    expect(a.world.sockets).toHaveLength(0);
    expect(b.world.sockets).toHaveLength(1);
    b.world.last().emit('connection.update', { qr: 'qr-on-b' });
    expect(await statusIs(id, 'qrcode')).toMatchObject({ qrcode: 'qr-on-b' });
  });

  it('restoring at boot leaves a connection another instance holds alone', async () => {
    const { id, sock } = await ownedByA();
    await b.manager.restore(t.companyId, id);
    expect(b.world.sockets).toHaveLength(0);
    expect(sock.ended).toBe(0);
    expect(a.world.sockets).toHaveLength(0);
  });

  it('invalid commands, and commands naming another company, are ignored', async () => {
    const { id, sock } = await ownedByA();
    for (const payload of [
      { op: 'logout', whatsappId: id },
      { op: 'logout', companyId: t.companyId, whatsappId: String(id) },
      { op: 'drop', companyId: t.companyId, whatsappId: id },
      { op: 'logout', companyId: t.companyId + 1000, whatsappId: id },
      null,
    ]) {
      expect(await b.bus.askInstances(CHANNEL_COMMAND, payload)).toEqual([false]);
    }
    expect(sock).toMatchObject({ ended: 0, loggedOut: 0 });
    expect(a.manager.get(id)).toBeDefined();
  });

  it('a logout of a connection live nowhere still reports DISCONNECTED', async () => {
    const id = await bench.connection();
    await b.manager.logout(t.companyId, id);
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
  });
});
