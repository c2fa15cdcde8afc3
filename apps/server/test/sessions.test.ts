import { randomUUID } from 'node:crypto';
import { companyEvent } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endRefusedSessions } from '../src/modules/auth/auth.jobs.js';
import { companies } from '../src/modules/companies/companies.schema.js';
import { sessions } from '../src/modules/users/users.schema.js';
import { todayUtc } from '../src/platform/tenancy/company-access.js';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  recordEvents,
  type Session,
  SUPER,
  type TestServer,
} from './harness.js';

/**
 * A session ends at once, on the server: its access token answers 401, its refresh token is
 * refused, and its sockets are disconnected and receive nothing more.
 */

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
});
afterAll(() => server.close());

const me = (s: Session) => server.call('GET', '/auth/me', s);
const refresh = (s: Session) =>
  server.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: s.cookie } });
const daysFromToday = (days: number) => todayUtc(new Date(Date.now() + days * 86_400_000));

/** A second live session of the user (a login revokes the older ones, so it is opened directly). */
async function extraSession(s: Session): Promise<Session> {
  const claims = { userId: s.user.id, companyId: s.user.companyId, sessionId: randomUUID() };
  await server.deps.database.db.insert(sessions).values({
    id: claims.sessionId,
    userId: claims.userId,
    companyId: claims.companyId,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  const token = await server.deps.tokens.signAccess(claims);
  const cookie = `jrt=${await server.deps.tokens.signRefresh(claims)}`;
  return { token, cookie, user: s.user, headers: { authorization: `Bearer ${token}` } };
}

/** A connected socket with the events it receives and a promise of its server-side disconnect. */
async function live(s: Session) {
  const socket = await connectSocket(server, s.token);
  const seen = recordEvents(socket);
  const closed = new Promise<string>((resolve) => socket.on('disconnect', resolve));
  return { socket, seen, closed };
}

/** The session is over everywhere: 401 on the API, refresh refused, socket closed by the server and deaf. */
async function expectEnded(s: Session, sock: Awaited<ReturnType<typeof live>>, companyId: number) {
  expect(await sock.closed).toBe('io server disconnect');
  const res = await me(s);
  expect(res.statusCode).toBe(401);
  expect(res.json().error).toBe('ERR_SESSION_EXPIRED');
  expect((await refresh(s)).statusCode).toBe(401);
  const before = sock.seen.length;
  server.deps.realtime.toCompany(companyId, companyEvent.ticket(companyId), { action: 'update', late: true });
  await new Promise((r) => setTimeout(r, 100));
  expect(sock.seen.slice(before)).toEqual([]);
  expect(sock.socket.connected).toBe(false);
}

async function expectAlive(s: Session, sock: Awaited<ReturnType<typeof live>>, companyId: number) {
  expect((await me(s)).statusCode).toBe(200);
  const heard = eventWhere(sock.socket, companyEvent.ticket(companyId), () => true);
  server.deps.realtime.toCompany(companyId, companyEvent.ticket(companyId), { action: 'update' });
  await heard;
}

describe('requests without a token', () => {
  it('answer 401 ERR_SESSION_EXPIRED; a forged or malformed token keeps answering 403', async () => {
    const none = await server.app.inject({ method: 'GET', url: '/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('ERR_SESSION_EXPIRED');
    const s = await login(server, SUPER.email, SUPER.password);
    for (const authorization of [`Bearer ${s.token.slice(0, -4)}AAAA`, 'Bearer not-a-jwt', 'Basic abc', 'Bearer ']) {
      const res = await server.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(403);
      expect(res.json().error).toBe('ERR_INVALID_TOKEN');
    }
  });
});

describe('ending one session', () => {
  it('logout closes the session’s sockets, which receive no later event', async () => {
    const t = await createTenant(server);
    const sock = await live(t.user);
    const other = await live(t.admin);
    expect((await server.call('DELETE', '/auth/logout', t.user)).statusCode).toBe(200);
    await expectEnded(t.user, sock, t.companyId);
    await expectAlive(t.admin, other, t.companyId);
    other.socket.close();
  });

  it('a newer login elsewhere tells the old session, then closes its sockets', async () => {
    const t = await createTenant(server);
    const sock = await live(t.user);
    const told = eventWhere(sock.socket, companyEvent.auth(t.companyId), () => true);
    const fresh = await login(server, t.user.user.email, t.userPassword);
    expect(await told).toMatchObject({ action: 'logout', user: { id: t.user.user.id } });
    await expectEnded(t.user, sock, t.companyId);
    const now = await live(fresh);
    await expectAlive(fresh, now, t.companyId);
    now.socket.close();
  });
});

describe('a password change', () => {
  it('by the user ends their other sessions and keeps the one that changed it', async () => {
    const t = await createTenant(server);
    const other = await extraSession(t.user);
    const [otherSock, ownSock] = [await live(other), await live(t.user)];
    const res = await server.call('PUT', `/users/${t.user.user.id}`, t.user, { password: 'new-pass-123' });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(other, otherSock, t.companyId);
    await expectAlive(t.user, ownSock, t.companyId);
    expect((await refresh(t.user)).statusCode).toBe(200);
    ownSock.socket.close();
  });

  it('by an admin ends every session of that user, and only theirs', async () => {
    const t = await createTenant(server);
    const other = await extraSession(t.user);
    const [userSock, otherSock, adminSock] = [await live(t.user), await live(other), await live(t.admin)];
    const res = await server.call('PUT', `/users/${t.user.user.id}`, t.admin, { password: 'set-by-admin' });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(t.user, userSock, t.companyId);
    await expectEnded(other, otherSock, t.companyId);
    await expectAlive(t.admin, adminSock, t.companyId);
    // The new password opens a new session.
    expect((await me(await login(server, t.user.user.email, 'set-by-admin'))).statusCode).toBe(200);
    adminSock.socket.close();
  });

  it('a change without a password ends nothing', async () => {
    const t = await createTenant(server);
    const sock = await live(t.user);
    await server.call('PUT', `/users/${t.user.user.id}`, t.admin, { name: 'Outro nome' });
    await expectAlive(t.user, sock, t.companyId);
    sock.socket.close();
  });
});

it('deleting a user closes their sockets', async () => {
  const t = await createTenant(server);
  const sock = await live(t.user);
  expect((await server.call('DELETE', `/users/${t.user.user.id}`, t.admin)).statusCode).toBe(200);
  await expectEnded(t.user, sock, t.companyId);
});

describe('a company that may no longer log in', () => {
  const superSession = () => login(server, SUPER.email, SUPER.password);

  it('deactivated: every session of its members ends at once', async () => {
    const t = await createTenant(server);
    const [userSock, adminSock] = [await live(t.user), await live(t.admin)];
    const su = await superSession();
    const res = await server.call('PUT', `/companies/${t.companyId}`, su, { status: false });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(t.user, userSock, t.companyId);
    await expectEnded(t.admin, adminSock, t.companyId);
    expect((await me(su)).statusCode).toBe(200);
  });

  it('a due date moved to yesterday ends its sessions; today still lets them in', async () => {
    const t = await createTenant(server);
    const sock = await live(t.user);
    const su = await superSession();
    await server.call('PUT', `/companies/${t.companyId}`, su, { dueDate: daysFromToday(0) });
    await expectAlive(t.user, sock, t.companyId);
    await server.call('PUT', `/companies/${t.companyId}`, su, { dueDate: daysFromToday(-1) });
    await expectEnded(t.user, sock, t.companyId);
  });

  it('a due date that passes: requests are refused at once, the periodic job closes the sockets', async () => {
    const t = await createTenant(server, { dueDate: daysFromToday(1) });
    const other = await createTenant(server, { dueDate: daysFromToday(1) });
    const sock = await live(t.user);
    const otherSock = await live(other.user);
    // Time passes: the stored date becomes yesterday's without any call to the API.
    const db = server.deps.database.db;
    await db
      .update(companies)
      .set({ dueDate: daysFromToday(-1) })
      .where(eq(companies.id, t.companyId));
    // (A cached session learns of the write from the database's notification, milliseconds later;
    // a date that passes with the clock is checked on every request.)
    await vi.waitFor(async () => expect((await me(t.user)).statusCode).toBe(401), { timeout: 1000, interval: 5 });
    expect(sock.socket.connected).toBe(true);

    const ended = await endRefusedSessions({ db, realtime: server.deps.realtime });
    expect(ended.length).toBeGreaterThanOrEqual(2);
    await expectEnded(t.user, sock, t.companyId);
    await expectAlive(other.user, otherSock, other.companyId);
    otherSock.socket.close();
  });

  it('deactivated behind the API’s back: requests and handshakes are refused once the database tells', async () => {
    const t = await createTenant(server);
    expect((await me(t.admin)).statusCode).toBe(200);
    await server.deps.database.db.update(companies).set({ status: false }).where(eq(companies.id, t.companyId));
    // No API call forgets the cached session here: the trigger's notification does, milliseconds later.
    await vi.waitFor(async () => expect((await me(t.admin)).statusCode).toBe(401), { timeout: 1000, interval: 5 });
    await expect(connectSocket(server, t.admin.token)).rejects.toThrow('ERR_SESSION_EXPIRED');
  });

  it('deleted: its sockets close', async () => {
    const t = await createTenant(server);
    const sock = await live(t.admin);
    expect((await server.call('DELETE', `/companies/${t.companyId}`, await superSession())).statusCode).toBe(200);
    expect(await sock.closed).toBe('io server disconnect');
  });
});
