import { companyEvent } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let queueA: number;
let queueB: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
  for (const tenant of [t, other]) {
    const conn = await call(tenant.admin, 'POST', '/whatsapp', { name: 'Principal', provider: 'sandbox' });
    expect(conn.statusCode).toBe(201);
  }
  queueA = (await call(t.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
  queueB = (await call(t.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [queueA] });
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Tag = { id: number; name: string; color: string; kanban: number; ticketsCount?: number };
const createTag = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/tags', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Tag;
};
let seq = 0;
const ticketOf = async (tenant: Tenant, queueId: number | null) => {
  const n = ++seq;
  const contact = await call(tenant.admin, 'POST', '/contacts', { name: `Cliente ${n}`, number: `55119100000${n}` });
  const res = await call(tenant.admin, 'POST', '/tickets', { contactId: contact.json().id, queueId, status: 'open' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};

describe('tags', () => {
  it('validate the name ("Mensagem muito curta") and refuse a duplicate name in any case', async () => {
    const short = await call(t.user, 'POST', '/tags', { name: 'ab' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toContainEqual({ path: 'name', message: 'Mensagem muito curta' });
    const tag = await createTag(t.user, { name: 'Urgente', color: '#FF0000' });
    expect(tag).toMatchObject({ name: 'Urgente', color: '#FF0000', kanban: 0 });
    const dup = await call(t.user, 'POST', '/tags', { name: 'URGENTE' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_TAG_NAME_ALREADY_EXISTS');
    // Another company may use the same name.
    await createTag(other.admin, { name: 'Urgente' });
  });

  it('a partial update keeps colour and kanban', async () => {
    const tag = await createTag(t.admin, { name: 'Kanban', color: '#00FF00', kanban: 1 });
    const res = await call(t.user, 'PUT', `/tags/${tag.id}`, { name: 'Kanban 2' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Kanban 2', color: '#00FF00', kanban: 1 });
    const rename = await call(t.user, 'PUT', `/tags/${tag.id}`, { name: 'urgente' });
    expect(rename.json().error).toBe('ERR_TAG_NAME_ALREADY_EXISTS');
  });

  it('the kanban flag is set by admins only; a plain user may send it back unchanged (DOMAIN §13)', async () => {
    const lane = await call(t.user, 'POST', '/tags', { name: 'Raia do agente', kanban: 1 });
    expect(lane.statusCode).toBe(403);
    expect(lane.json().error).toBe('ERR_NO_PERMISSION');
    const plain = await createTag(t.user, { name: 'Comum', kanban: 0 });
    const promote = await call(t.user, 'PUT', `/tags/${plain.id}`, { kanban: 1 });
    expect(promote.json().error).toBe('ERR_NO_PERMISSION');
    const admins = await createTag(t.admin, { name: 'Raia do admin', kanban: 1 });
    const demote = await call(t.user, 'PUT', `/tags/${admins.id}`, { name: 'Raia renomeada', kanban: 0 });
    expect(demote.json().error).toBe('ERR_NO_PERMISSION');
    // The client sends the flag it read: a rename keeps it and is allowed.
    const rename = await call(t.user, 'PUT', `/tags/${admins.id}`, { name: 'Raia renomeada', kanban: 1 });
    expect(rename.json()).toMatchObject({ name: 'Raia renomeada', kanban: 1 });
    expect((await call(t.admin, 'PUT', `/tags/${plain.id}`, { kanban: 1 })).json().kanban).toBe(1);
  });

  it('list with search, pages and the number of tickets per tag', async () => {
    const tenant = await createTenant(server);
    await call(tenant.admin, 'POST', '/whatsapp', { name: 'Conexão', provider: 'sandbox' });
    const made: Tag[] = [];
    for (let i = 0; i < 22; i++)
      made.push(await createTag(tenant.admin, { name: `Etiqueta ${String(i).padStart(2, '0')}` }));
    const ticket = await ticketOf(tenant, null);
    await call(tenant.admin, 'POST', '/tags/sync', {
      ticketId: ticket,
      tags: [{ id: made[0].id }, { id: made[1].id }],
    });

    const one = (await call(tenant.user, 'GET', '/tags')).json();
    expect(one).toMatchObject({ count: 22, hasMore: true });
    expect(one.tags).toHaveLength(20);
    expect(one.tags.slice(0, 3).map((x: Tag) => [x.name, x.ticketsCount])).toEqual([
      ['Etiqueta 00', 1],
      ['Etiqueta 01', 1],
      ['Etiqueta 02', 0],
    ]);
    const two = (await call(tenant.user, 'GET', '/tags?pageNumber=2')).json();
    expect(two.tags.map((x: Tag) => x.name)).toEqual(['Etiqueta 20', 'Etiqueta 21']);
    expect(two.hasMore).toBe(false);
    const search = (await call(tenant.user, 'GET', '/tags?searchParam=QUETA%2021')).json();
    expect(search.tags.map((x: Tag) => x.name)).toEqual(['Etiqueta 21']);
    expect((await call(tenant.user, 'GET', '/tags/list')).json()).toHaveLength(22);
    expect((await call(tenant.user, 'GET', `/tags/${made[0].id}`)).json().ticketsCount).toBe(1);
  });

  it('sync replaces the tags of a ticket and tells who sees the ticket', async () => {
    const a = await createTag(t.admin, { name: 'Sync A' });
    const b = await createTag(t.admin, { name: 'Sync B' });
    const ticket = await ticketOf(t, queueA);
    const socket = await connectSocket(server, t.user.token);
    try {
      const live = eventWhere<{ action: string; ticket: { id: number; tags: Tag[] } }>(
        socket,
        companyEvent.ticket(t.companyId),
        (e) => e.ticket?.id === ticket && e.ticket.tags.length === 2,
      );
      const first = await call(t.user, 'POST', '/tags/sync', { ticketId: ticket, tags: [{ id: a.id }, { id: b.id }] });
      expect(first.statusCode).toBe(200);
      expect(first.json().tags.map((x: Tag) => x.name)).toEqual(['Sync A', 'Sync B']);
      expect((await live).ticket.tags.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    } finally {
      socket.close();
    }
    const second = await call(t.user, 'POST', '/tags/sync', { ticketId: ticket, tags: [{ id: b.id }] });
    expect(second.json().tags.map((x: Tag) => x.name)).toEqual(['Sync B']);
    expect((await call(t.user, 'GET', `/tickets/${ticket}`)).json().tags.map((x: Tag) => x.id)).toEqual([b.id]);
    const none = await call(t.user, 'POST', '/tags/sync', { ticketId: ticket, tags: [] });
    expect(none.json().tags).toEqual([]);
  });

  it("sync refuses another company's tag or ticket, and a ticket outside the user's queues", async () => {
    const mine = await createTag(t.admin, { name: 'Minha' });
    const theirs = await createTag(other.admin, { name: 'Alheia' });
    const ticket = await ticketOf(t, queueA);
    const foreignTag = await call(t.user, 'POST', '/tags/sync', { ticketId: ticket, tags: [{ id: theirs.id }] });
    expect(foreignTag.statusCode).toBe(404);
    expect(foreignTag.json().error).toBe('ERR_NO_TAG_FOUND');
    expect((await call(t.admin, 'GET', `/tickets/${ticket}`)).json().tags).toEqual([]);

    const theirTicket = await ticketOf(other, null);
    const foreignTicket = await call(t.admin, 'POST', '/tags/sync', { ticketId: theirTicket, tags: [{ id: mine.id }] });
    expect(foreignTicket.statusCode).toBe(404);
    expect(foreignTicket.json().error).toBe('ERR_NO_TICKET_FOUND');

    const otherQueue = await ticketOf(t, queueB);
    const outside = await call(t.user, 'POST', '/tags/sync', { ticketId: otherQueue, tags: [{ id: mine.id }] });
    expect(outside.statusCode).toBe(403);
    expect((await call(t.admin, 'GET', `/tickets/${otherQueue}`)).json().tags).toEqual([]);
  });

  it('are deleted by admins only, and a deleted tag leaves the tickets', async () => {
    const tag = await createTag(t.user, { name: 'Temporária' });
    const ticket = await ticketOf(t, queueA);
    await call(t.admin, 'POST', '/tags/sync', { ticketId: ticket, tags: [{ id: tag.id }] });
    const denied = await call(t.user, 'DELETE', `/tags/${tag.id}`);
    expect(denied.statusCode).toBe(403);
    expect((await call(t.admin, 'DELETE', `/tags/${tag.id}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/tags/${tag.id}`)).json().error).toBe('ERR_NO_TAG_FOUND');
    expect((await call(t.admin, 'GET', `/tickets/${ticket}`)).json().tags).toEqual([]);
  });

  it("cannot reach another company's tag", async () => {
    const theirs = await createTag(other.admin, { name: 'Só deles' });
    for (const res of [
      await call(t.admin, 'GET', `/tags/${theirs.id}`),
      await call(t.admin, 'PUT', `/tags/${theirs.id}`, { name: 'Invadida' }),
      await call(t.admin, 'DELETE', `/tags/${theirs.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_TAG_FOUND');
    }
    expect((await call(t.admin, 'GET', '/tags/list')).body).not.toContain('Só deles');
    expect((await call(other.admin, 'GET', `/tags/${theirs.id}`)).json().name).toBe('Só deles');
  });
});

describe('GET /tags/kanban (plan flag useKanban)', () => {
  it("lists the company's kanban lanes only", async () => {
    const lane = await createTag(t.admin, { name: 'Raia Kanban Lista', kanban: 1 });
    const plain = await createTag(t.admin, { name: 'Sem Raia Lista', kanban: 0 });
    await createTag(other.admin, { name: 'Raia da Outra', kanban: 1 });
    const res = await call(t.user, 'GET', '/tags/kanban');
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().lista.map((tag: Tag) => tag.id);
    expect(ids).toContain(lane.id);
    expect(ids).not.toContain(plain.id);
    expect(res.json().lista.every((tag: Tag) => tag.kanban === 1)).toBe(true);
    expect(res.body).not.toContain('Raia da Outra');
  });

  it('is refused to every member of a company whose plan lacks useKanban; the tags page is not', async () => {
    const off = await createTenant(server, { plan: { useKanban: false } });
    for (const session of [off.admin, off.user]) {
      const res = await call(session, 'GET', '/tags/kanban');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useKanban' });
      expect((await call(session, 'GET', '/tags')).statusCode).toBe(200);
    }
  });

  it('follows the plan as the super user edits it', async () => {
    const tenant = await createTenant(server);
    const planId = tenant.admin.user.company.plan?.id;
    const su = await login(server, SUPER.email, SUPER.password);
    expect((await call(tenant.admin, 'GET', '/tags/kanban')).statusCode).toBe(200);
    expect((await call(su, 'PUT', `/plans/${planId}`, { useKanban: false })).statusCode).toBe(200);
    expect((await call(tenant.admin, 'GET', '/tags/kanban')).statusCode).toBe(403);
    expect((await call(su, 'PUT', `/plans/${planId}`, { useKanban: true })).statusCode).toBe(200);
    expect((await call(tenant.admin, 'GET', '/tags/kanban')).statusCode).toBe(200);
  });
});
