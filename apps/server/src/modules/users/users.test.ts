import { companyEvent } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  recordEvents,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { queues } from '../queues/queues.schema.js';

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

const call: TestServer['call'] = (...args) => server.call(...args);

let seq = 0;
const newUser = (extra: Record<string, unknown> = {}) => {
  seq += 1;
  return { name: `Person ${seq}`, email: `person-${seq}@users.test`, password: 'secret-5', ...extra };
};

const addQueue = async (companyId: number, name: string, color: string) => {
  const [row] = await server.deps.database.db
    .insert(queues)
    .values({ companyId, name, color })
    .returning({ id: queues.id, name: queues.name, color: queues.color });
  return row;
};

describe('validation', () => {
  const invalid = async (payload: object) => {
    const res = await call('POST', '/users', a.admin, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('ERR_VALIDATION');
    return body.fields as { path: string; message: string }[];
  };

  it('answers the spec messages for a short, long or missing name', async () => {
    expect(await invalid(newUser({ name: 'A' }))).toContainEqual({ path: 'name', message: 'Muito curto!' });
    expect(await invalid(newUser({ name: 'x'.repeat(51) }))).toContainEqual({ path: 'name', message: 'Muito longo!' });
    const { name: _name, ...nameless } = newUser();
    expect(await invalid(nameless)).toContainEqual({ path: 'name', message: 'Obrigatório' });
  });

  it('refuses a bad e-mail and a 4-character password', async () => {
    expect(await invalid(newUser({ email: 'not-an-email' }))).toContainEqual({
      path: 'email',
      message: 'E-mail inválido',
    });
    const fields = await invalid(newUser({ password: '1234' }));
    expect(fields.map((f) => f.path)).toContain('password');
  });

  it('applies the same rules on update', async () => {
    const res = await call('PUT', `/users/${a.user.user.id}`, a.admin, { name: 'B' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: [{ path: 'name', message: 'Muito curto!' }] });
  });
});

describe('admin CRUD', () => {
  it('creates, reads, updates and deletes a user of the own company', async () => {
    const input = newUser({ email: 'Mixed.Case@Users.Test', profile: 'user', limitAttendance: 3 });
    const created = await call('POST', '/users', a.admin, input);
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({
      name: input.name,
      email: 'mixed.case@users.test',
      profile: 'user',
      super: false,
      companyId: a.companyId,
      limitAttendance: 3,
      online: false,
      queues: [],
    });
    expect(user).not.toHaveProperty('password');
    expect(user).not.toHaveProperty('passwordHash');

    const got = await call('GET', `/users/${user.id}`, a.admin);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(user);

    const updated = await call('PUT', `/users/${user.id}`, a.admin, {
      name: 'Renamed Person',
      profile: 'admin',
      password: 'another-pass',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: user.id, name: 'Renamed Person', profile: 'admin' });
    const session = await login(server, 'mixed.case@users.test', 'another-pass');
    expect(session.user.profile).toBe('admin');

    const deleted = await call('DELETE', `/users/${user.id}`, a.admin);
    expect(deleted.statusCode).toBe(200);
    const gone = await call('GET', `/users/${user.id}`, a.admin);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_USER_FOUND');
    // The deleted user can neither log in nor keep using an open session.
    const relogin = await call('POST', '/auth/login', undefined, { email: input.email, password: 'another-pass' });
    expect(relogin.statusCode).toBe(401);
    expect(relogin.json().error).toBe('ERR_INVALID_CREDENTIALS');
    expect((await call('GET', '/auth/me', session)).statusCode).toBe(401);
  });

  it('refuses a duplicated e-mail, in any case, on create and on update', async () => {
    const dup = await call('POST', '/users', a.admin, newUser({ email: a.user.user.email.toUpperCase() }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_DUPLICATED_EMAIL');
    // E-mails are unique across the platform: another company's user counts too.
    const cross = await call('POST', '/users', a.admin, newUser({ email: b.user.user.email }));
    expect(cross.statusCode).toBe(409);
    const upd = await call('PUT', `/users/${a.user.user.id}`, a.admin, { email: a.admin.user.email });
    expect(upd.statusCode).toBe(409);
    expect(upd.json().error).toBe('ERR_DUPLICATED_EMAIL');
  });

  it('does not let an admin delete their own account', async () => {
    const res = await call('DELETE', `/users/${a.admin.user.id}`, a.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_CANNOT_DELETE_SELF');
    expect((await call('GET', `/users/${a.admin.user.id}`, a.admin)).statusCode).toBe(200);
  });

  it('ignores a companyId (and a super flag) in the body: the user lands in the admin’s own company', async () => {
    const input = newUser({ companyId: b.companyId, super: true });
    const res = await call('POST', '/users', a.admin, input);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ companyId: a.companyId, super: false });
    const upd = await call('PUT', `/users/${res.json().id}`, a.admin, { companyId: b.companyId, super: true });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ companyId: a.companyId, super: false });
    const inB = await call('GET', `/users?searchParam=${encodeURIComponent(input.email)}`, b.admin);
    expect(inB.json()).toMatchObject({ users: [], count: 0 });
    const inA = await call('GET', `/users?searchParam=${encodeURIComponent(input.email)}`, a.admin);
    expect(inA.json().count).toBe(1);
  });
});

describe('queues of a user', () => {
  it('accepts own queues and returns them; refuses another company’s queue', async () => {
    const sales = await addQueue(a.companyId, 'Vendas', '#112233');
    const support = await addQueue(a.companyId, 'Suporte', '#445566');
    const foreign = await addQueue(b.companyId, 'Fila B', '#778899');

    const ok = await call('POST', '/users', a.admin, newUser({ queueIds: [sales.id, support.id] }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().queues).toEqual([sales, support]);

    const input = newUser({ queueIds: [sales.id, foreign.id] });
    const bad = await call('POST', '/users', a.admin, input);
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error).toBe('ERR_NO_QUEUE_FOUND');
    expect(JSON.stringify(bad.json())).not.toContain('Fila B');
    const listed = await call('GET', `/users?searchParam=${encodeURIComponent(input.email)}`, a.admin);
    expect(listed.json().count).toBe(0);

    const upd = await call('PUT', `/users/${ok.json().id}`, a.admin, { queueIds: [foreign.id] });
    expect(upd.statusCode).toBe(404);
    expect((await call('GET', `/users/${ok.json().id}`, a.admin)).json().queues).toEqual([sales, support]);

    const narrowed = await call('PUT', `/users/${ok.json().id}`, a.admin, { queueIds: [support.id] });
    expect(narrowed.json().queues).toEqual([support]);
  });
});

describe('list', () => {
  it('searches name and e-mail case-insensitively, and treats % literally', async () => {
    const t = await createTenant(server);
    for (const u of [
      { name: 'Zuleica Marques', email: 'zuleica@search.test' },
      { name: 'Otto Lima', email: 'Otto.Mail@Search.Test' },
      { name: '100% Oferta', email: 'pct@search.test' },
      { name: '1000 Ofertas', email: 'thousand@search.test' },
    ]) {
      expect((await call('POST', '/users', t.admin, { ...u, password: 'secret-5' })).statusCode).toBe(201);
    }
    const search = async (term: string) => {
      const res = await call('GET', `/users?searchParam=${encodeURIComponent(term)}`, t.admin);
      expect(res.statusCode).toBe(200);
      return res.json() as { users: { name: string }[]; count: number; hasMore: boolean };
    };
    expect((await search('zuLEICA')).users.map((u) => u.name)).toEqual(['Zuleica Marques']);
    expect((await search('MAIL@SEARCH')).users.map((u) => u.name)).toEqual(['Otto Lima']);
    const pct = await search('100%');
    expect(pct).toMatchObject({ count: 1, hasMore: false });
    expect(pct.users.map((u) => u.name)).toEqual(['100% Oferta']);
    expect((await search('0_ Of')).count).toBe(0);
    expect((await search('no-such-person')).users).toEqual([]);
  });

  it('pages by 20 with count and hasMore', async () => {
    const t = await createTenant(server, { plan: { users: 30 } });
    const created = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        call('POST', '/users', t.admin, {
          name: `Pager ${String(i).padStart(2, '0')}`,
          email: `pager-${i}-${t.companyId}@users.test`,
          password: 'secret-5',
        }),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(21).fill(201));

    const page1 = (await call('GET', '/users?pageNumber=1', t.admin)).json();
    const page2 = (await call('GET', '/users?pageNumber=2', t.admin)).json();
    expect(page1.users).toHaveLength(20);
    expect(page1).toMatchObject({ count: 23, hasMore: true });
    expect(page2.users).toHaveLength(3);
    expect(page2).toMatchObject({ count: 23, hasMore: false });
    const ids = [...page1.users, ...page2.users].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(23);
    const names = [...page1.users, ...page2.users].map((u: { name: string }) => u.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(ids.every((id) => id !== a.admin.user.id && id !== b.admin.user.id)).toBe(true);

    const searched1 = (await call('GET', '/users?searchParam=pager&pageNumber=1', t.admin)).json();
    const searched2 = (await call('GET', '/users?searchParam=pager&pageNumber=2', t.admin)).json();
    expect(searched1).toMatchObject({ count: 21, hasMore: true });
    expect(searched2).toMatchObject({ count: 21, hasMore: false });
    expect(searched2.users.map((u: { name: string }) => u.name)).toEqual(['Pager 20']);
  });

  it('/users/list gives any member the short list of their own company only', async () => {
    const res = await call('GET', '/users/list', a.user);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list.map((u) => u.id)).toEqual(expect.arrayContaining([a.admin.user.id, a.user.user.id]));
    expect(list.map((u) => u.id)).not.toContain(b.admin.user.id);
    expect(list.map((u) => u.id)).not.toContain(b.user.user.id);
    for (const u of list) expect(Object.keys(u).sort()).toEqual(['id', 'name', 'online', 'profile', 'queueIds']);
  });
});

describe('a plain user', () => {
  it('cannot list, create or delete users, nor read another user', async () => {
    const list = await call('GET', '/users', a.user);
    expect(list.statusCode).toBe(403);
    expect(list.json().error).toBe('ERR_NO_PERMISSION');
    const input = newUser();
    const create = await call('POST', '/users', a.user, input);
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call('GET', `/users?searchParam=${input.email}`, a.admin)).json().count).toBe(0);
    const del = await call('DELETE', `/users/${a.admin.user.id}`, a.user);
    expect(del.statusCode).toBe(403);
    expect(del.json().error).toBe('ERR_NO_PERMISSION');
    const other = await call('GET', `/users/${a.admin.user.id}`, a.user);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain(a.admin.user.email);
    const self = await call('GET', `/users/${a.user.user.id}`, a.user);
    expect(self.statusCode).toBe(200);
    expect(self.json().email).toBe(a.user.user.email);
  });

  it('may rename themselves but not promote themselves nor edit others', async () => {
    const renamed = await call('PUT', `/users/${a.user.user.id}`, a.user, { name: 'Agent Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Agent Renamed', profile: 'user' });

    // An empty password means "keep the current one": a valid update, not a server error.
    const keep = await call('PUT', `/users/${a.user.user.id}`, a.user, { password: '' });
    expect(keep.statusCode).toBe(200);
    expect(keep.json().name).toBe('Agent Renamed');

    const promote = await call('PUT', `/users/${a.user.user.id}`, a.user, { profile: 'admin' });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call('GET', `/users/${a.user.user.id}`, a.user)).json().profile).toBe('user');
    // Still refused with the admin-only field next to an allowed one.
    const sneaky = await call('PUT', `/users/${a.user.user.id}`, a.user, { name: 'Sneaky', profile: 'admin' });
    expect(sneaky.statusCode).toBe(403);
    expect((await call('GET', `/users/${a.user.user.id}`, a.user)).json()).toMatchObject({
      name: 'Agent Renamed',
      profile: 'user',
    });
    // And the stored profile is what the server enforces: admin routes stay closed.
    expect((await call('GET', '/users', a.user)).statusCode).toBe(403);

    const adminName = (await call('GET', `/users/${a.admin.user.id}`, a.admin)).json().name;
    const other = await call('PUT', `/users/${a.admin.user.id}`, a.user, { name: 'Hijacked' });
    expect(other.statusCode).toBe(403);
    expect((await call('GET', `/users/${a.admin.user.id}`, a.admin)).json().name).toBe(adminName);
  });
});

describe('plan user limit', () => {
  it('refuses the user past the plan limit', async () => {
    // createTenant already makes an admin and a plain user: the plan is full.
    const t = await createTenant(server, { plan: { users: 2 } });
    const res = await call('POST', '/users', t.admin, newUser());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_PLAN_LIMIT_USERS', limit: 2 });
    expect((await call('GET', '/users', t.admin)).json().count).toBe(2);
  });

  it('lets only the allowed number of concurrent creations through', async () => {
    const t = await createTenant(server, { plan: { users: 4 } });
    const results = await Promise.all(Array.from({ length: 4 }, () => call('POST', '/users', t.admin, newUser())));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 403, 403]);
    for (const r of results.filter((r) => r.statusCode === 403)) expect(r.json().error).toBe('ERR_PLAN_LIMIT_USERS');
    expect((await call('GET', '/users', t.admin)).json().count).toBe(4);
  });
});

describe('live events', () => {
  let socketA: Socket;
  let socketB: Socket;
  beforeAll(async () => {
    socketA = await connectSocket(server, a.admin.token);
    socketB = await connectSocket(server, b.admin.token);
  });
  afterAll(() => {
    socketA.close();
    socketB.close();
  });

  it('sends company-{id}-user create, update and delete to the company only', async () => {
    const seenByB = recordEvents(socketB);
    const event = companyEvent.user(a.companyId);
    const input = newUser();

    const createdEvent = eventWhere<{ action: string; user: { email: string } }>(
      socketA,
      event,
      (p) => p.action === 'create' && p.user.email === input.email,
    );
    const created = await call('POST', '/users', a.admin, input);
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect((await createdEvent).user).toMatchObject({ id, name: input.name, companyId: a.companyId });

    const updatedEvent = eventWhere<{ action: string; user: { id: number; name: string } }>(
      socketA,
      event,
      (p) => p.action === 'update' && p.user.id === id,
    );
    await call('PUT', `/users/${id}`, a.admin, { name: 'Live Renamed' });
    expect((await updatedEvent).user.name).toBe('Live Renamed');

    const deletedEvent = eventWhere<{ action: string; userId: number }>(
      socketA,
      event,
      (p) => p.action === 'delete' && p.userId === id,
    );
    await call('DELETE', `/users/${id}`, a.admin);
    await deletedEvent;

    await new Promise((r) => setTimeout(r, 200));
    expect(seenByB.filter((e) => e.event.startsWith(`company-${a.companyId}-`))).toEqual([]);
    expect(JSON.stringify(seenByB)).not.toContain(input.email);
    expect(JSON.stringify(seenByB)).not.toContain('Live Renamed');
  });
});
