import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../tenancy/context.js';
import { createRealtime, type Realtime, rooms } from './realtime.js';

const log = pino({ level: 'silent' });

/** Tokens name their caller: `company.user.session`. */
const callerOf = (token: string): Caller => {
  const [companyId, userId, sessionId] = token.split('.');
  return { companyId: Number(companyId), userId: Number(userId), sessionId, profile: 'user', isSuper: false };
};

let realtime: Realtime;
let http: Server;
let url: string;
const clients: Socket[] = [];

async function start(authenticate: (token: string) => Promise<Caller | null> = async (t) => callerOf(t)) {
  realtime = createRealtime({ corsOrigin: [], log });
  http = createServer();
  realtime.attach(http, authenticate);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await realtime.close();
});

/** A connected client, its received events and the reason it was disconnected (once it is). */
async function client(token: string) {
  const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  clients.push(socket);
  const seen: string[] = [];
  socket.onAny((event: string) => seen.push(event));
  const closed = new Promise<string>((resolve) => socket.on('disconnect', resolve));
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  return { socket, seen, closed };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

describe('disconnecting', () => {
  it('closes the sockets of the named sessions, users or company, and no other', async () => {
    await start();
    const [s1, s2, u2, c2] = await Promise.all(['1.1.s1', '1.1.s2', '1.2.s3', '2.3.s4'].map(client));

    realtime.disconnectSessions(['s1']);
    expect(await s1.closed).toBe('io server disconnect');
    realtime.disconnectUser(2);
    expect(await u2.closed).toBe('io server disconnect');
    await settle();
    expect([s2.socket.connected, c2.socket.connected]).toEqual([true, true]);
    realtime.disconnectCompany(1);
    expect(await s2.closed).toBe('io server disconnect');

    // What is emitted afterwards reaches only the sockets still connected.
    realtime.toCompany(1, 'later', {});
    realtime.toCompany(2, 'later', {});
    await settle();
    expect([s1.seen, s2.seen, u2.seen]).toEqual([[], [], []]);
    expect(c2.seen).toEqual(['later']);
  });

  it('an event emitted just before the disconnect is still delivered', async () => {
    await start();
    const s = await client('1.1.s1');
    realtime.toSession('s1', 'goodbye', {});
    realtime.disconnectSessions(['s1']);
    await s.closed;
    expect(s.seen).toEqual(['goodbye']);
  });

  it('closes a socket whose session ended between the handshake and joining its rooms', async () => {
    let checks = 0;
    await start(async (t) => (++checks === 1 ? callerOf(t) : null));
    let connected = false;
    realtime.onConnection(() => {
      connected = true;
    });
    const s = await client('1.1.s1');
    expect(await s.closed).toBe('io server disconnect');
    expect(checks).toBe(2);
    expect(connected).toBe(false);
  });
});

describe('toRooms', () => {
  it('skips the sockets of the excepted rooms', async () => {
    await start();
    const [owner, colleague] = await Promise.all(['1.1.s1', '1.2.s2'].map(client));
    realtime.toRooms([rooms.company(1)], 'gone', {}, [rooms.user(1)]);
    realtime.toRooms([rooms.company(1)], 'flush', {});
    await Promise.all([owner, colleague].map((c) => new Promise((r) => c.socket.once('flush', r))));
    expect(owner.seen).toEqual(['flush']);
    expect(colleague.seen).toEqual(['gone', 'flush']);
  });
});
