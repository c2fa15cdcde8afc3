import { clientRoomEvents, companyEvent, SOCKET_PING_MS } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/modules/users/users.schema.js';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  nextEvent,
  recordEvents,
  type Session,
  type Tenant,
  type TestServer,
} from './harness.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  a = await createTenant(server);
  b = await createTenant(server);
});
afterAll(() => server.close());

const open: Socket[] = [];
const connect = async (session: Session) => {
  const socket = await connectSocket(server, session.token);
  open.push(socket);
  return socket;
};
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const onlineOf = async (tenant: Tenant, userId: number) => {
  const res = await server.app.inject({ method: 'GET', url: `/users/${userId}`, headers: tenant.admin.headers });
  expect(res.statusCode).toBe(200);
  return res.json().online as boolean;
};
/** Polls until the user's online flag reads `expected` (sockets of earlier tests close asynchronously). */
const settleOnline = async (tenant: Tenant, userId: number, expected: boolean) => {
  for (let i = 0; i < 30 && (await onlineOf(tenant, userId)) !== expected; i++) await sleep(100);
  return onlineOf(tenant, userId);
};
type UserEvent = { action: string; user: { id: number; online: boolean } };

describe('authentication of sockets', () => {
  it('refuses a socket without a token', async () => {
    await expect(connectSocket(server)).rejects.toThrow('ERR_SESSION_EXPIRED');
  });

  it('refuses a forged token and the token of a closed session', async () => {
    const forged = `${a.user.token.slice(0, -4)}AAAA`;
    await expect(connectSocket(server, forged)).rejects.toThrow('ERR_SESSION_EXPIRED');
    await expect(connectSocket(server, 'not-a-jwt')).rejects.toThrow('ERR_SESSION_EXPIRED');
    const t = await createTenant(server);
    await server.app.inject({ method: 'DELETE', url: '/auth/logout', headers: t.user.headers });
    await expect(connectSocket(server, t.user.token)).rejects.toThrow('ERR_SESSION_EXPIRED');
  });

  it('uses the Socket.IO ping interval and timeout of the spec (18000 ms)', async () => {
    const res = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`);
    const body = await res.text();
    expect(body.startsWith('0')).toBe(true);
    const handshake = JSON.parse(body.slice(1));
    expect(SOCKET_PING_MS).toBe(18_000);
    expect(handshake).toMatchObject({ pingInterval: 18_000, pingTimeout: 18_000 });
  });
});

describe('rooms', () => {
  it('a socket gets its own company’s events only, whatever rooms the client asks for', async () => {
    const adminA = await connect(a.admin);
    const userA = await connect(a.user);
    const adminB = await connect(b.admin);
    const seenByA = [recordEvents(adminA), recordEvents(userA)];
    const seenByB = recordEvents(adminB);

    // A's clients try to join B's rooms under every name they could guess.
    for (const socket of [adminA, userA]) {
      for (const room of [String(b.companyId), `company:${b.companyId}`, `company-${b.companyId}`, 'open', 'pending']) {
        socket.emit(clientRoomEvents.joinNotification, room);
        socket.emit(clientRoomEvents.joinTickets, room);
        socket.emit(clientRoomEvents.joinChatBox, room);
      }
      socket.emit(clientRoomEvents.joinTickets, 'open');
      socket.emit(clientRoomEvents.joinNotification);
    }
    await sleep(100);

    const forB = nextEvent<{ secret: string }>(adminB, companyEvent.ticket(b.companyId));
    server.deps.realtime.toCompany(b.companyId, companyEvent.ticket(b.companyId), { secret: 'only-for-b' });
    expect(await forB).toEqual({ secret: 'only-for-b' });

    // Positive control: A's sockets are connected and do get A's events.
    const forA = Promise.all([adminA, userA].map((s) => nextEvent(s, companyEvent.ticket(a.companyId))));
    server.deps.realtime.toCompany(a.companyId, companyEvent.ticket(a.companyId), { secret: 'only-for-a' });
    await forA;

    await sleep(150);
    for (const seen of seenByA) {
      expect(seen.filter((e) => e.event.startsWith(`company-${b.companyId}-`))).toEqual([]);
      expect(JSON.stringify(seen)).not.toContain('only-for-b');
    }
    expect(JSON.stringify(seenByB)).not.toContain('only-for-a');
  });

  it('ignores a companyId in the handshake query: the token decides', async () => {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = io(server.url, {
        auth: { token: a.user.token },
        query: { companyId: String(b.companyId), userId: String(b.admin.user.id) },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      s.on('connect', () => resolve(s));
      s.on('connect_error', reject);
    });
    open.push(socket);
    const seen = recordEvents(socket);
    server.deps.realtime.toCompany(b.companyId, companyEvent.ticket(b.companyId), { secret: 'query-b' });
    server.deps.realtime.toUser(b.admin.user.id, companyEvent.ticket(b.companyId), { secret: 'query-b-user' });
    const own = nextEvent(socket, companyEvent.ticket(a.companyId));
    server.deps.realtime.toCompany(a.companyId, companyEvent.ticket(a.companyId), { secret: 'query-a' });
    await own;
    await sleep(100);
    expect(JSON.stringify(seen)).not.toContain('query-b');
  });
});

describe('presence', () => {
  it('online becomes true on connect and false after the last socket leaves', async () => {
    const watcher = await connect(a.admin);
    const agentId = a.user.user.id;
    expect(await settleOnline(a, agentId, false)).toBe(false);

    const cameOnline = eventWhere<UserEvent>(
      watcher,
      companyEvent.user(a.companyId),
      (p) => p.user.id === agentId && p.user.online,
    );
    const first = await connectSocket(server, a.user.token);
    const second = await connectSocket(server, a.user.token);
    await cameOnline;
    expect(await onlineOf(a, agentId)).toBe(true);

    first.close();
    await sleep(300);
    expect(await onlineOf(a, agentId)).toBe(true);

    const wentOffline = eventWhere<UserEvent>(
      watcher,
      companyEvent.user(a.companyId),
      (p) => p.user.id === agentId && !p.user.online,
    );
    second.close();
    expect((await wentOffline).action).toBe('update');
    expect(await onlineOf(a, agentId)).toBe(false);
    // The short list used by pickers shows it too.
    const list = await server.app.inject({ method: 'GET', url: '/users/list', headers: a.admin.headers });
    expect(list.json().find((u: { id: number }) => u.id === agentId).online).toBe(false);
  });

  it('the userStatus heartbeat keeps the user online', async () => {
    const t = await createTenant(server);
    const watcher = await connect(t.admin);
    const agentId = t.user.user.id;
    const cameOnline = eventWhere<UserEvent>(
      watcher,
      companyEvent.user(t.companyId),
      (p) => p.user.id === agentId && p.user.online,
    );
    const agent = await connect(t.user);
    await cameOnline;

    // Whatever cleared the flag meanwhile, the next heartbeat sets it back.
    await server.deps.database.db.update(users).set({ online: false }).where(eq(users.id, agentId));
    expect(await onlineOf(t, agentId)).toBe(false);
    const beat = eventWhere<UserEvent>(
      watcher,
      companyEvent.user(t.companyId),
      (p) => p.user.id === agentId && p.user.online,
    );
    agent.emit(clientRoomEvents.userStatus);
    await beat;
    expect(await onlineOf(t, agentId)).toBe(true);
    agent.emit(clientRoomEvents.userStatus);
    await sleep(150);
    expect(await onlineOf(t, agentId)).toBe(true);
  });

  it('presence events reach only the user’s company', async () => {
    const watcherB = await connect(b.admin);
    const seenByB = recordEvents(watcherB);
    const watcherA = await connect(a.admin);
    const cameOnline = eventWhere<UserEvent>(
      watcherA,
      companyEvent.user(a.companyId),
      (p) => p.user.id === a.user.user.id && p.user.online,
    );
    // A fresh login, so that the earlier tests' sockets (same session) are surely gone.
    const agent = await login(server, a.user.user.email, a.userPassword);
    a.user = agent;
    await connect(agent);
    await cameOnline;
    await sleep(150);
    expect(seenByB.filter((e) => e.event.startsWith(`company-${a.companyId}-`))).toEqual([]);
  });
});
