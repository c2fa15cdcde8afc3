import { companyEvent } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  login,
  nextEvent,
  SUPER,
  type TestServer,
} from '../../../test/harness.js';
import { users } from '../users/users.schema.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000', LOGIN_LIMIT_EMAIL: '3' });
  await server.listen();
});
afterAll(() => server.close());

const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'POST', url, payload, headers });

describe('POST /auth/login', () => {
  it('returns a token, the user with company, plan and settings, and an httpOnly refresh cookie', async () => {
    const res = await post('/auth/login', { email: SUPER.email, password: SUPER.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({ email: SUPER.email, super: true, profile: 'admin', companyId: 1 });
    expect(body.user.company.plan).toMatchObject({ useCampaigns: true, useExternalApi: true });
    expect(body.user.company.settings).toContainEqual({ key: 'userRating', value: 'disabled' });
    expect(body.user).not.toHaveProperty('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.httpOnly).toBe(true);
  });

  it('accepts the e-mail in any case', async () => {
    const res = await post('/auth/login', { email: SUPER.email.toUpperCase(), password: SUPER.password });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown e-mail with the same code', async () => {
    const wrong = await post('/auth/login', { email: SUPER.email, password: 'nope-nope' });
    const unknown = await post('/auth/login', { email: 'ghost@test.local', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('ERR_INVALID_CREDENTIALS');
    expect(unknown.json().error).toBe('ERR_INVALID_CREDENTIALS');
  });

  it('stores passwords as argon2id hashes', async () => {
    const [row] = await server.deps.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.email, SUPER.email));
    expect(row.hash).toMatch(/^\$argon2id\$/);
    expect(row.hash).not.toContain(SUPER.password);
  });

  it('refuses a company past its due date with the date in the spec message', async () => {
    const tenant = await createTenant(server);
    await server.app.inject({
      method: 'PUT',
      url: `/companies/${tenant.companyId}`,
      headers: (await login(server, SUPER.email, SUPER.password)).headers,
      payload: { dueDate: '2020-03-05' },
    });
    const res = await post('/auth/login', { email: tenant.admin.user.email, password: 'admin-pass' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      error: 'ERR_SUBSCRIPTION_EXPIRED',
      dueDate: '2020-03-05',
      message: 'Opss! Sua assinatura venceu 05/03/2020. Entre em contato com o Suporte para mais informações!',
    });
    // The refresh token of a session opened before the due date no longer works either.
    const refreshed = await post('/auth/refresh_token', undefined, { cookie: tenant.admin.cookie });
    expect(refreshed.statusCode).toBe(401);
  });

  it('lets a company whose due date is today log in', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tenant = await createTenant(server, { dueDate: today });
    expect(tenant.admin.user.company.dueDate).toBe(today);
  });

  it('rejects a malformed body with ERR_VALIDATION, never a 500', async () => {
    const res = await post('/auth/login', { email: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });
});

describe('rate limit', () => {
  it('blocks an e-mail after repeated failures, even with the right password', async () => {
    const tenant = await createTenant(server);
    const email = tenant.user.user.email;
    for (let i = 0; i < 3; i++) {
      expect((await post('/auth/login', { email, password: 'bad-bad' })).statusCode).toBe(401);
    }
    const blocked = await post('/auth/login', { email, password: tenant.userPassword });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('ERR_TOO_MANY_REQUESTS');
  });

  it('blocks an IP after too many attempts', async () => {
    const limited = await createTestServer({ LOGIN_LIMIT_IP: '2' });
    try {
      const attempt = (ip: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'a@b.c', password: 'x' },
          remoteAddress: ip,
        });
      expect((await attempt('10.1.1.1')).statusCode).toBe(401);
      expect((await attempt('10.1.1.1')).statusCode).toBe(401);
      expect((await attempt('10.1.1.1')).statusCode).toBe(429);
      expect((await attempt('10.1.1.2')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  it('refreshes with the cookie and answers 401 without it', async () => {
    const s = await login(server, SUPER.email, SUPER.password);
    const ok = await post('/auth/refresh_token', undefined, { cookie: s.cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.id).toBe(s.user.id);
    const me = await server.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${ok.json().token}` },
    });
    expect(me.json().email).toBe(SUPER.email);
    const none = await post('/auth/refresh_token');
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('ERR_SESSION_EXPIRED');
  });

  it('answers 401 without a token, and 403 to a forged or expired one so the client refreshes once', async () => {
    const missing = await server.app.inject({ method: 'GET', url: '/auth/me' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('ERR_SESSION_EXPIRED');
    const s = await login(server, SUPER.email, SUPER.password);
    const forged = `${s.token.slice(0, -4)}AAAA`;
    const res = await server.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(res.statusCode).toBe(403);

    // Two seconds: the expiry is counted in whole seconds from the second the token was signed in.
    const shortLived = await createTestServer({ ACCESS_TOKEN_TTL: '2s' });
    try {
      const t = await login(shortLived, SUPER.email, SUPER.password);
      // Used while valid, so the server has it as verified: that memory must not outlive the token.
      const fresh = await shortLived.app.inject({ method: 'GET', url: '/auth/me', headers: t.headers });
      expect(fresh.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 3100));
      const expired = await shortLived.app.inject({ method: 'GET', url: '/auth/me', headers: t.headers });
      expect(expired.statusCode).toBe(403);
      const refreshed = await shortLived.app.inject({
        method: 'POST',
        url: '/auth/refresh_token',
        headers: { cookie: t.cookie },
      });
      expect(refreshed.statusCode).toBe(200);
    } finally {
      await shortLived.close();
    }
  });

  it('logout revokes the access token and the refresh cookie', async () => {
    const s = await login(server, SUPER.email, SUPER.password);
    const out = await server.app.inject({ method: 'DELETE', url: '/auth/logout', headers: s.headers });
    expect(out.statusCode).toBe(200);
    const me = await server.app.inject({ method: 'GET', url: '/auth/me', headers: s.headers });
    expect(me.statusCode).toBe(401);
    expect((await post('/auth/refresh_token', undefined, { cookie: s.cookie })).statusCode).toBe(401);
  });

  it('a new login revokes the older session and tells only the older browser to log out', async () => {
    const tenant = await createTenant(server);
    const first = tenant.user;
    const oldSocket = await connectSocket(server, first.token);
    const loggedOut = nextEvent<{ action: string; user: { id: number } }>(
      oldSocket,
      companyEvent.auth(tenant.companyId),
    );
    const second = await login(server, first.user.email, tenant.userPassword);
    const newSocket = await connectSocket(server, second.token);
    let newSocketTold = false;
    newSocket.on(companyEvent.auth(tenant.companyId), () => {
      newSocketTold = true;
    });

    expect(await loggedOut).toMatchObject({ action: 'logout', user: { id: first.user.id } });
    const old = await server.app.inject({ method: 'GET', url: '/auth/me', headers: first.headers });
    expect(old.statusCode).toBe(401);
    expect((await post('/auth/refresh_token', undefined, { cookie: first.cookie })).statusCode).toBe(401);
    const current = await server.app.inject({ method: 'GET', url: '/auth/me', headers: second.headers });
    expect(current.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(newSocketTold).toBe(false);
    oldSocket.close();
    newSocket.close();
  });
});
