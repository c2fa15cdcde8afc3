import { DisconnectReason, proto } from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { loadAuthState } from './auth-state.js';
import { baileysAuth } from './baileys.schema.js';
import { closedWith } from './fake-socket.js';
import { LOCK_SPACE } from './socket-lock.js';
import { betaBench, TEST_WA_VERSION } from './testing.js';

/** The beta provider's connection lifecycle, as the connections page shows it. */

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
afterEach(() => bench.stopAll());

const db = () => server.deps.database.db;
const statusIs = (id: number, status: string) =>
  waitUntil(
    () => bench.status(id),
    (s) => s.status === status,
    3000,
  );

describe('connecting a phone', () => {
  it('shows the QR code, then CONNECTED with the phone number; the session is saved', async () => {
    const id = await bench.connection();
    const { channel, world } = await bench.channel(id);
    await channel.start();
    expect(world.sockets).toHaveLength(1);
    expect(world.last().config.markOnlineOnConnect).toBe(false);
    expect(world.last().config.version).toEqual(TEST_WA_VERSION);
    // History is bounded to the syncs that carry identities (LID mappings, names), never chats.
    const syncs = (syncType: proto.HistorySync.HistorySyncType) =>
      world.last().config.shouldSyncHistoryMessage?.({ syncType } as never);
    expect(syncs(proto.HistorySync.HistorySyncType.FULL)).toBe(false);
    expect(syncs(proto.HistorySync.HistorySyncType.RECENT)).toBe(false);
    expect(syncs(proto.HistorySync.HistorySyncType.ON_DEMAND)).toBe(false);
    expect(syncs(proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP)).toBe(true);
    expect(syncs(proto.HistorySync.HistorySyncType.NON_BLOCKING_DATA)).toBe(true);
    expect((await bench.status(id)).status).toBe('OPENING');

    world.last().emit('connection.update', { qr: '2@qr-one' });
    expect(await statusIs(id, 'qrcode')).toMatchObject({ qrcode: '2@qr-one' });

    world.last().emit('creds.update', { registered: true, me: { id: '5511900001111:7@s.whatsapp.net' } });
    world.last().emit('connection.update', { connection: 'open' });
    expect(await statusIs(id, 'CONNECTED')).toMatchObject({ qrcode: '', number: '5511900001111' });
    const saved = await loadAuthState(db(), id);
    expect(saved.state.creds.registered).toBe(true);
    expect(saved.state.creds.me?.id).toBe('5511900001111:7@s.whatsapp.net');
  });

  it('gives up after the QR refresh limit: DISCONNECTED without a QR code, socket closed', async () => {
    const id = await bench.connection();
    const { channel, world } = await bench.channel(id, { maxQrCodes: 2 });
    await channel.start();
    world.last().emit('connection.update', { qr: 'qr-1' });
    await statusIs(id, 'qrcode');
    world.last().emit('connection.update', { qr: 'qr-2' });
    await waitUntil(
      () => bench.status(id),
      (s) => s.qrcode === 'qr-2',
    );
    world.last().emit('connection.update', { qr: 'qr-3' });
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
    expect(world.last().ended).toBe(1);
    // The lock went with the socket: starting again works (a new socket, new QR codes).
    await channel.start();
    expect(world.sockets).toHaveLength(2);
  });

  it('with a pairing number, shows a pairing code instead of the QR code', async () => {
    const id = await bench.connection({ pairingNumber: '+55 (11) 98888-7777' });
    const { channel, world } = await bench.channel(id);
    await channel.start();
    world.last().emit('connection.update', { qr: 'qr-ignored' });
    expect(await statusIs(id, 'PAIRING')).toMatchObject({ qrcode: 'ABCD1234' });
    expect(world.last().pairingRequests).toEqual(['5511988887777']);
    world.last().emit('connection.update', { qr: 'qr-again' });
    await new Promise((r) => setTimeout(r, 50));
    expect(world.last().pairingRequests).toHaveLength(1);
    expect((await bench.status(id)).qrcode).toBe('ABCD1234');
  });
});

describe('when the socket closes', () => {
  async function connected(opts: Parameters<typeof bench.channel>[1] = {}) {
    const id = await bench.connection();
    const { channel, world } = await bench.channel(id, opts);
    await channel.start();
    world.last().emit('connection.update', { connection: 'open' });
    await statusIs(id, 'CONNECTED');
    return { id, channel, world };
  }

  it('logged out from the phone: the session is wiped and a new QR code comes', async () => {
    const { id, world } = await connected();
    const auth = await loadAuthState(db(), id);
    auth.state.creds.registered = true;
    await auth.saveCreds();
    await auth.state.keys.set({ session: { '5511.0': Buffer.from('x') } });

    world.last().emit('connection.update', closedWith(DisconnectReason.loggedOut));
    await waitUntil(
      async () => world.sockets.length,
      (n) => n === 2,
    );
    expect(await db().select().from(baileysAuth).where(eq(baileysAuth.whatsappId, id))).toEqual([]);
    expect(world.last().config.auth?.creds.registered).toBe(false);
    world.last().emit('connection.update', { qr: 'fresh-qr' });
    expect(await statusIs(id, 'qrcode')).toMatchObject({ qrcode: 'fresh-qr' });
  });

  it('restart required: reconnects at once, keeping the session', async () => {
    const { id, world } = await connected();
    world.last().emit('connection.update', closedWith(DisconnectReason.restartRequired));
    // The backoff is 10 s here: a second socket within a second is the immediate reconnect.
    await waitUntil(
      async () => world.sockets.length,
      (n) => n === 2,
      1000,
    );
    world.last().emit('connection.update', { connection: 'open' });
    expect((await statusIs(id, 'CONNECTED')).status).toBe('CONNECTED');
  });

  it('replaced by another client: stops and goes DISCONNECTED', async () => {
    const { id, world } = await connected();
    world.last().emit('connection.update', closedWith(DisconnectReason.connectionReplaced));
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
    await new Promise((r) => setTimeout(r, 100));
    expect(world.sockets).toHaveLength(1);
    expect(world.last().ended).toBe(1);
  });

  it('any other reason: reconnects after a backoff, and gives up once attempts are spent', async () => {
    const { id, world } = await connected({ backoff: { baseMs: 300, maxMs: 300, maxAttempts: 1 } });
    world.last().emit('connection.update', closedWith(DisconnectReason.connectionLost));
    expect(await statusIs(id, 'OPENING')).toMatchObject({ retries: 1 });
    expect(world.sockets).toHaveLength(1);
    await waitUntil(
      async () => world.sockets.length,
      (n) => n === 2,
      2000,
    );
    world.last().emit('connection.update', closedWith(DisconnectReason.connectionClosed));
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
    await new Promise((r) => setTimeout(r, 500));
    expect(world.sockets).toHaveLength(2);
  });

  it('stop() closes the socket without logging out; logout() logs out and wipes the session', async () => {
    const { id, channel, world } = await connected();
    await channel.stop();
    expect(world.last()).toMatchObject({ ended: 1, loggedOut: 0 });
    // The server restarts it later: the status stays as it was.
    expect((await bench.status(id)).status).toBe('CONNECTED');

    await channel.start();
    world.last().emit('connection.update', { connection: 'open' });
    await statusIs(id, 'CONNECTED');
    const auth = await loadAuthState(db(), id);
    await auth.saveCreds();
    await channel.logout();
    expect(world.last().loggedOut).toBe(1);
    // Baileys reports its own logout as a loggedOut close: no new session may start from it.
    world.last().emit('connection.update', closedWith(DisconnectReason.loggedOut));
    expect(await statusIs(id, 'DISCONNECTED')).toMatchObject({ qrcode: '' });
    await new Promise((r) => setTimeout(r, 100));
    expect(world.sockets).toHaveLength(2);
    expect(await db().select().from(baileysAuth).where(eq(baileysAuth.whatsappId, id))).toEqual([]);
  });
});

describe('one socket per connection', () => {
  it('a second channel for the same connection opens no socket while the first holds it', async () => {
    const id = await bench.connection();
    const first = await bench.channel(id);
    const second = await bench.channel(id);
    await first.channel.start();
    await second.channel.start();
    expect(first.world.sockets).toHaveLength(1);
    expect(second.world.sockets).toHaveLength(0);

    await first.channel.stop();
    await second.channel.start();
    expect(second.world.sockets).toHaveLength(1);
  });

  it.runIf(process.env.DATABASE_URL)('when the lock’s database session dies, the socket is closed', async () => {
    const id = await bench.connection();
    const first = await bench.channel(id);
    await first.channel.start();
    const { rows } = await server.deps.database.query<{ pid: number }>(
      `select pid from pg_locks where locktype = 'advisory' and classid = $1 and objid = $2 and objsubid = 2`,
      [LOCK_SPACE, id],
    );
    expect(rows).toHaveLength(1);
    await server.deps.database.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await waitUntil(
      async () => first.world.last().ended,
      (n) => n === 1,
    );
    // Another instance may now take the connection over.
    const second = await bench.channel(id);
    await second.channel.start();
    expect(second.world.sockets).toHaveLength(1);
  });

  it('other connections are not blocked', async () => {
    const a = await bench.channel(await bench.connection());
    const b = await bench.channel(await bench.connection());
    await a.channel.start();
    await b.channel.start();
    expect(a.world.sockets).toHaveLength(1);
    expect(b.world.sockets).toHaveLength(1);
  });
});
