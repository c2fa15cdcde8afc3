import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../../test/sandbox-helpers.js';
import { ticketTraking } from './tickets.schema.js';

/** Ticket rules of spec §4 and §6: transitions, visibility, filters. */

let server: TestServer;
let t: Tenant;
let other: Tenant;
let qa: number;
let qb: number;
/** A second plain user, in queue B only. */
let userB: Session;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  qa = (await call(t.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
  qb = (await call(t.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [qa] });
  const created = await call(t.admin, 'POST', '/users', {
    name: 'Bianca',
    email: 'bianca@tickets.test',
    password: 'bianca-pass',
    queueIds: [qb],
  });
  expect(created.statusCode, created.body).toBe(201);
  userB = await login(server, 'bianca@tickets.test', 'bianca-pass');
  whatsappId = await connectedSandbox(server, t.admin);
  await connectedSandbox(server, other.admin);
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Ticket = {
  id: number;
  uuid: string;
  status: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number;
  unreadMessages: number;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string } | null;
  contact: { name: string };
};

let seq = 0;
const contact = async (tenant: Tenant = t, name?: string) => {
  const n = ++seq;
  const res = await call(tenant.admin, 'POST', '/contacts', {
    name: name ?? `Contato ${n}`,
    number: `5511920${String(n).padStart(6, '0')}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; number: string };
};
const open = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/tickets', { status: 'open', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Ticket;
};
const put = async (session: Session, id: number, body: Record<string, unknown>) => {
  const res = await call(session, 'PUT', `/tickets/${id}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Ticket;
};
const cycles = (ticketId: number) =>
  server.deps.database.db
    .select()
    .from(ticketTraking)
    .where(eq(ticketTraking.ticketId, ticketId))
    .orderBy(asc(ticketTraking.id));

describe('creating a ticket', () => {
  it('opens it for the current user on the default connection, with a started service cycle', async () => {
    const c = await contact();
    const ticket = await open(t.admin, { contactId: c.id, queueId: null });
    expect(ticket).toMatchObject({
      status: 'open',
      userId: t.admin.user.id,
      user: { id: t.admin.user.id },
      queue: null,
      whatsappId,
    });
    const [cycle] = await cycles(ticket.id);
    expect(cycle).toMatchObject({ userId: t.admin.user.id, finishedAt: null });
    expect(cycle.queuedAt).toBeInstanceOf(Date);
    expect(cycle.startedAt).toBeInstanceOf(Date);
  });

  it('a plain user must choose a queue (ERR_QUEUE_REQUIRED), and one of their own (403)', async () => {
    const c = await contact();
    const none = await call(t.user, 'POST', '/tickets', { contactId: c.id, status: 'open' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'ERR_QUEUE_REQUIRED', message: 'Selecione uma fila' });
    const notMine = await call(t.user, 'POST', '/tickets', { contactId: c.id, queueId: qb, status: 'open' });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().error).toBe('ERR_NO_PERMISSION');
    const mine = await open(t.user, { contactId: c.id, queueId: qa });
    expect(mine).toMatchObject({ status: 'open', user: { id: t.user.user.id }, queue: { id: qa, name: 'Fila A' } });
  });

  it('a plain user cannot open a ticket in the name of someone else', async () => {
    const c = await contact();
    const ticket = await open(t.user, { contactId: c.id, queueId: qa, userId: t.admin.user.id });
    expect(ticket.userId).toBe(t.user.user.id);
  });

  it("refuses another company's contact, queue or connection", async () => {
    const theirs = await contact(other);
    const res = await call(t.admin, 'POST', '/tickets', { contactId: theirs.id, status: 'open' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_CONTACT_FOUND');
    const c = await contact();
    const theirQueue = (await call(other.admin, 'POST', '/queue', { name: 'Deles', color: '#DEDEDE' })).json().id;
    const q = await call(t.admin, 'POST', '/tickets', { contactId: c.id, queueId: theirQueue, status: 'open' });
    expect(q.statusCode).toBe(404);
    const theirConn = (await call(other.admin, 'GET', '/whatsapp')).json()[0].id;
    const w = await call(t.admin, 'POST', '/tickets', { contactId: c.id, whatsappId: theirConn, status: 'open' });
    expect(w.statusCode).toBe(404);
    expect(w.json().error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('a second ticket for the same contact and connection answers 409 naming who holds it', async () => {
    const c = await contact();
    const first = await open(t.user, { contactId: c.id, queueId: qa });
    const again = await call(t.admin, 'POST', '/tickets', { contactId: c.id, queueId: qb, status: 'open' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticketId: first.id,
      ticketUuid: first.uuid,
      userId: t.user.user.id,
      userName: t.user.user.name,
      queueName: 'Fila A',
    });
    // Once it is closed, a new ticket may be opened.
    await put(t.user, first.id, { status: 'closed' });
    const next = await open(t.admin, { contactId: c.id, queueId: qb });
    expect(next.id).not.toBe(first.id);
  });
});

describe('transitions (spec §4)', () => {
  it('accept, return, accept again, resolve, reopen: users and service cycles follow', async () => {
    const c = await contact();
    const pending = await open(t.admin, { contactId: c.id, queueId: qa, status: 'pending' });
    expect(pending).toMatchObject({ status: 'pending', userId: null });
    const [queued] = await cycles(pending.id);
    expect(queued.startedAt).toBeNull();

    const accepted = await put(t.user, pending.id, { status: 'open', userId: t.user.user.id });
    expect(accepted).toMatchObject({ status: 'open', user: { id: t.user.user.id, name: t.user.user.name } });
    const [started] = await cycles(pending.id);
    expect(started.startedAt).toBeInstanceOf(Date);
    expect(started.userId).toBe(t.user.user.id);

    const returned = await put(t.user, pending.id, { status: 'pending' });
    expect(returned).toMatchObject({ status: 'pending', userId: null, user: null, queueId: qa });

    await put(t.user, pending.id, { status: 'open', userId: t.user.user.id });
    const [again] = await cycles(pending.id);
    expect(again.startedAt).toEqual(started.startedAt);

    const closed = await put(t.user, pending.id, {
      status: 'closed',
      userId: t.user.user.id,
      useIntegration: false,
      promptId: false,
      integrationId: false,
    });
    expect(closed.status).toBe('closed');
    const [finished] = await cycles(pending.id);
    expect(finished.finishedAt).toBeInstanceOf(Date);

    const reopened = await put(t.user, pending.id, { status: 'open', userId: t.user.user.id });
    expect(reopened).toMatchObject({ status: 'open', user: { id: t.user.user.id } });
    const all = await cycles(pending.id);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ userId: t.user.user.id, finishedAt: null });
    expect(all[1].startedAt).toBeInstanceOf(Date);
  });

  it('reopening is refused while the contact has another ticket on that connection', async () => {
    const c = await contact();
    const first = await open(t.admin, { contactId: c.id });
    await put(t.admin, first.id, { status: 'closed' });
    const second = await open(t.admin, { contactId: c.id });
    const res = await call(t.admin, 'PUT', `/tickets/${first.id}`, { status: 'open', userId: t.admin.user.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: second.id });
    expect((await call(t.admin, 'GET', `/tickets/${first.id}`)).json().status).toBe('closed');
  });

  it('transfer to a queue without a user → pending with no user; with a user → open for that user', async () => {
    const c = await contact();
    const ticket = await open(t.user, { contactId: c.id, queueId: qa });
    const toQueue = await put(t.user, ticket.id, { queueId: qb });
    expect(toQueue).toMatchObject({ status: 'pending', userId: null, user: null, queue: { id: qb, name: 'Fila B' } });
    // Now outside the first user's queues: they lose it, B's user sees it.
    expect((await call(t.user, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(403);
    expect((await call(userB, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(200);

    const toUser = await put(userB, ticket.id, { queueId: qa, userId: t.user.user.id });
    expect(toUser).toMatchObject({ status: 'open', user: { id: t.user.user.id }, queue: { id: qa } });
    expect((await call(t.user, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(200);
  });
});

describe('who sees a ticket (spec §6)', () => {
  it('a plain user gets 403 outside their queues, 404 for another company, 200 when assigned', async () => {
    const c = await contact();
    const inB = await open(t.admin, { contactId: c.id, queueId: qb });
    for (const url of [`/tickets/${inB.id}`, `/tickets/u/${inB.uuid}`]) {
      const res = await call(t.user, 'GET', url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
      expect(res.body).not.toContain(c.number);
    }
    const acceptB = await call(t.user, 'PUT', `/tickets/${inB.id}`, { status: 'open', userId: t.user.user.id });
    expect(acceptB.statusCode).toBe(403);
    expect((await call(t.admin, 'GET', `/tickets/${inB.id}`)).json().userId).toBe(t.admin.user.id);
    expect((await call(userB, 'GET', `/tickets/u/${inB.uuid}`)).json().id).toBe(inB.id);

    const assigned = await open(t.admin, { contactId: (await contact()).id, queueId: qb, userId: t.user.user.id });
    expect(assigned.userId).toBe(t.user.user.id);
    expect((await call(t.user, 'GET', `/tickets/${assigned.id}`)).statusCode).toBe(200);

    const theirs = await open(other.admin, { contactId: (await contact(other)).id });
    for (const url of [`/tickets/${theirs.id}`, `/tickets/u/${theirs.uuid}`]) {
      const res = await call(t.admin, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
    }
    expect((await call(t.admin, 'GET', '/tickets/u/not-a-uuid')).statusCode).toBe(400);
  });

  it('only admins delete tickets', async () => {
    const ticket = await open(t.user, { contactId: (await contact()).id, queueId: qa });
    const denied = await call(t.user, 'DELETE', `/tickets/${ticket.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(t.admin, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(404);
  });
});

describe('the ticket list', () => {
  let L: Tenant;
  let q1: number;
  let q2: number;
  const ids: Record<string, number> = {};
  const names = async (session: Session, query: string) => {
    const res = await call(session, 'GET', `/tickets?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().tickets as Ticket[]).map((x) => x.contact.name).sort();
  };

  beforeAll(async () => {
    L = await createTenant(server);
    q1 = (await call(L.admin, 'POST', '/queue', { name: 'Q1', color: '#100001' })).json().id;
    q2 = (await call(L.admin, 'POST', '/queue', { name: 'Q2', color: '#100002' })).json().id;
    await call(L.admin, 'PUT', `/users/${L.user.user.id}`, { queueIds: [q1] });
    const w = await connectedSandbox(server, L.admin);
    // Ana and Bruno write in: pending, no queue, one unread message each.
    await contactWrites(server, L.admin, w, { number: '5521000000001', name: 'Ana', body: 'Quero uma PIZZA grande' });
    await contactWrites(server, L.admin, w, { number: '5521000000002', name: 'Bruno', body: 'boleto atrasado' });
    const pending = (await call(L.admin, 'GET', '/tickets?status=pending')).json().tickets as Ticket[];
    for (const x of pending) ids[x.contact.name] = x.id;
    await put(L.admin, ids.Bruno, { queueId: q1 });
    const mk = async (name: string, body: Record<string, unknown>) => {
      ids[name] = (await open(L.admin, { contactId: (await contact(L, name)).id, ...body })).id;
    };
    await mk('Carla', { queueId: q2 });
    await mk('Davi', { queueId: q1, userId: L.user.user.id });
    await mk('Eva', { queueId: q1 });
    await put(L.admin, ids.Eva, { status: 'closed' });
    await mk('Fábio', { queueId: q2, status: 'pending' });
    const vip = (await call(L.admin, 'POST', '/tags', { name: 'VIP' })).json().id;
    await call(L.admin, 'POST', '/tags/sync', { ticketId: ids.Davi, tags: [{ id: vip }] });
    ids.vip = vip;
  });

  it('filters by status; the open list is the caller’s own unless an admin asks for all', async () => {
    expect(await names(L.admin, 'status=pending')).toEqual(['Ana', 'Bruno', 'Fábio']);
    expect(await names(L.admin, 'status=open')).toEqual(['Carla']);
    expect(await names(L.admin, 'status=open&showAll=true')).toEqual(['Carla', 'Davi']);
    expect(await names(L.admin, 'status=closed&showAll=true')).toEqual(['Eva']);
    expect(await names(L.user, 'status=open')).toEqual(['Davi']);
  });

  it('a plain user never sees other queues, nor tickets without a queue, even with showAll', async () => {
    expect(await names(L.user, 'status=pending&showAll=true')).toEqual(['Bruno']);
    expect(await names(L.user, 'status=open&showAll=true')).toEqual(['Davi']);
    expect(await names(L.user, 'showAll=true')).toEqual(['Bruno', 'Davi', 'Eva']);
    expect(await names(L.user, `showAll=true&queueIds=${JSON.stringify([q2])}`)).toEqual([]);
    expect(await names(L.user, 'searchParam=carla&showAll=true')).toEqual([]);
    // With allTicket the tickets without a queue appear too.
    await call(L.admin, 'PUT', `/users/${L.user.user.id}`, { allTicket: 'enable' });
    expect(await names(L.user, 'status=pending&showAll=true')).toEqual(['Ana', 'Bruno']);
    await call(L.admin, 'PUT', `/users/${L.user.user.id}`, { allTicket: 'disable' });
  });

  it('a plain user filtering by another queue sees there only the tickets assigned to them', async () => {
    const gil = await open(L.admin, { contactId: (await contact(L, 'Gil')).id, queueId: q2, userId: L.user.user.id });
    try {
      expect(await names(L.user, `status=open&queueIds=${JSON.stringify([q2])}`)).toEqual(['Gil']);
      expect(await names(L.user, `showAll=true&queueIds=${JSON.stringify([q1, q2])}`)).toEqual([
        'Bruno',
        'Davi',
        'Eva',
        'Gil',
      ]);
      expect(await names(L.user, `status=pending&queueIds=${JSON.stringify([q2])}`)).toEqual([]);
    } finally {
      await call(L.admin, 'DELETE', `/tickets/${gil.id}`);
    }
  });

  it('filters by queues, tags, users and unread messages', async () => {
    expect(await names(L.admin, `status=pending&queueIds=${JSON.stringify([q2])}`)).toEqual(['Ana', 'Fábio']);
    expect(await names(L.admin, `status=pending&queueIds=${JSON.stringify([q1])}`)).toEqual(['Ana', 'Bruno']);
    expect(await names(L.user, `status=pending&queueIds=${JSON.stringify([q1])}`)).toEqual(['Bruno']);
    expect(await names(L.admin, `showAll=true&tags=${JSON.stringify([ids.vip])}`)).toEqual(['Davi']);
    expect(await names(L.admin, `showAll=true&users=${JSON.stringify([L.user.user.id])}`)).toEqual(['Davi']);
    expect(await names(L.admin, 'showAll=true&withUnreadMessages=true')).toEqual(['Ana', 'Bruno']);
    const bad = await call(L.admin, 'GET', '/tickets?queueIds=not-json');
    expect(bad.statusCode).toBe(400);
  });

  it('searches the contact name, the number and the message text, in any case', async () => {
    expect(await names(L.admin, 'showAll=true&searchParam=ANA')).toEqual(['Ana']);
    expect(await names(L.admin, 'showAll=true&searchParam=21000000002')).toEqual(['Bruno']);
    expect(await names(L.admin, 'showAll=true&searchParam=pizza')).toEqual(['Ana']);
    expect(await names(L.admin, 'showAll=true&searchParam=f%C3%A1bio')).toEqual(['Fábio']);
    expect(await names(L.admin, 'showAll=true&searchParam=ningu%C3%A9m')).toEqual([]);
  });

  it('puts the latest update first and pages by 20 with the total count', async () => {
    const list = (await call(L.admin, 'GET', '/tickets?status=pending')).json();
    expect(list.tickets[0].contact.name).toBe('Fábio');
    for (let i = 0; i < 21; i++) {
      await open(L.admin, { contactId: (await contact(L, `Extra ${i}`)).id, queueId: q2, status: 'pending' });
    }
    const one = (await call(L.admin, 'GET', '/tickets?status=pending')).json();
    expect(one).toMatchObject({ count: 24, hasMore: true });
    expect(one.tickets).toHaveLength(20);
    expect(one.tickets[0].contact.name).toBe('Extra 20');
    const two = (await call(L.admin, 'GET', '/tickets?status=pending&pageNumber=2')).json();
    expect(two).toMatchObject({ count: 24, hasMore: false });
    expect(two.tickets).toHaveLength(4);
    const seen = new Set([...one.tickets, ...two.tickets].map((x: Ticket) => x.id));
    expect(seen.size).toBe(24);
    // The plain user's count covers their queue only.
    expect((await call(L.user, 'GET', '/tickets?status=pending')).json()).toMatchObject({ count: 1, hasMore: false });
  });
});
