import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, openTestDatabase, type Tenant, type TestServer } from '../../test/harness.js';
import { waitUntil } from '../../test/sandbox-helpers.js';
import type { Database } from '../db/client.js';
import type { BaileysOptions } from './baileys/baileys.channel.js';
import { type FakeWorld, fakeWorld } from './baileys/fake-socket.js';
import { TEST_WA_VERSION } from './baileys/testing.js';
import { CHANNEL_COMMAND } from './manager.js';

/** Two server instances on one PostgreSQL database and one Redis: session commands reach the owner. */
describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)('two instances', () => {
  let database: Database;
  let a: TestServer;
  let b: TestServer;
  const worldA = fakeWorld();
  const worldB = fakeWorld();
  let t: Tenant;
  const beta = (world: FakeWorld): BaileysOptions => ({
    makeSocket: world.make,
    sendGapMs: { min: 0, max: 0 },
    ffmpeg: null,
    backoff: { baseMs: 10_000 },
    waVersion: async () => TEST_WA_VERSION,
  });

  beforeAll(async () => {
    database = await openTestDatabase();
    const redisKey = randomBytes(4).toString('hex');
    const env = { LOGIN_LIMIT_IP: '1000' };
    a = await createTestServer(env, { database, redisKey, beta: beta(worldA) });
    b = await createTestServer(env, { database, redisKey, beta: beta(worldB) });
    t = await createTenant(a, { plan: { connections: 10 } });
    // The Redis adapters subscribe in the background: wait until each instance hears the other. Each
    // ask waits up to the adapter's 5 s timeout, so allow several asks on a loaded machine.
    for (const from of [a, b]) {
      await waitUntil(
        () => from.deps.realtime.askInstances(CHANNEL_COMMAND, null),
        (answers) => answers.length > 0,
        30_000,
      );
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  const status = async (server: TestServer, id: number) =>
    (await server.call('GET', `/whatsapp/${id}`, t.admin)).json() as { status: string; qrcode: string };
  const statusIs = (id: number, expected: string) =>
    waitUntil(
      () => status(b, id),
      (s) => s.status === expected,
      5000,
    );
  const session = async (server: TestServer, method: 'POST' | 'PUT' | 'DELETE', id: number) => {
    const res = await server.call(method, `/whatsappsession/${id}`, t.admin);
    expect(res.statusCode, res.body).toBe(200);
  };

  /** A connection started on A, connected there. */
  async function ownedByA() {
    const res = await a.call('POST', '/whatsapp', t.admin, {
      name: `Phone ${randomBytes(3).toString('hex')}`,
      provider: 'beta',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    const before = worldA.sockets.length;
    await session(a, 'POST', id);
    expect(worldA.sockets).toHaveLength(before + 1);
    const sock = worldA.last();
    sock.emit('connection.update', { connection: 'open' });
    await statusIs(id, 'CONNECTED');
    return { id, sock };
  }

  it('DELETE /whatsappsession on B logs out the socket A holds', async () => {
    const { id, sock } = await ownedByA();
    await session(b, 'DELETE', id);
    expect(sock.loggedOut).toBe(1);
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
    expect(worldB.sockets).toHaveLength(0);
  });

  it('POST /whatsappsession on B while A holds the connection opens no second socket: A restarts it', async () => {
    const { id, sock } = await ownedByA();
    const onA = worldA.sockets.length;
    await session(b, 'POST', id);
    expect(worldB.sockets).toHaveLength(0);
    expect(sock.ended).toBe(1);
    expect(worldA.sockets).toHaveLength(onA + 1);
    worldA.last().emit('connection.update', { qr: 'qr-from-a' });
    expect(await statusIs(id, 'qrcode')).toMatchObject({ qrcode: 'qr-from-a' });
  });

  it('PUT /whatsappsession on B (new QR code): A logs out first, then B opens the socket', async () => {
    const { id, sock } = await ownedByA();
    const onA = worldA.sockets.length;
    await session(b, 'PUT', id);
    expect(sock.loggedOut).toBe(1);
    expect(worldA.sockets).toHaveLength(onA);
    expect(worldB.sockets).toHaveLength(1);
    worldB.last().emit('connection.update', { qr: 'qr-from-b' });
    expect(await statusIs(id, 'qrcode')).toMatchObject({ qrcode: 'qr-from-b' });
  });

  it('deleting the connection on B closes the socket A holds, without logging out', async () => {
    const { id, sock } = await ownedByA();
    const res = await b.call('DELETE', `/whatsapp/${id}`, t.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(sock).toMatchObject({ ended: 1, loggedOut: 0 });
  });
});
