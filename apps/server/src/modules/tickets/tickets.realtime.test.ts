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
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../../test/sandbox-helpers.js';

/**
 * Live ticket events reach exactly who may see the ticket (spec §4, DOMAIN §11): admins all,
 * plain users their queues (and their own tickets), `allTicket` users also tickets without a queue.
 */

let server: TestServer;
let t: Tenant;
let qa: number;
let qb: number;
let qc: number;
let whatsappId: number;
let userB: Session;
let userC: Session;

type Who = 'admin' | 'a' | 'b' | 'c';
const sockets = {} as Record<Who, Socket>;
const seen = {} as Record<Who, { event: string; payload: unknown }[]>;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  qa = (await call(t.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
  qb = (await call(t.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
  qc = (await call(t.admin, 'POST', '/queue', { name: 'Fila C', color: '#0000C0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [qa] });
  const mk = async (name: string, body: Record<string, unknown>) => {
    const email = `${name.toLowerCase()}@realtime.test`;
    const res = await call(t.admin, 'POST', '/users', { name, email, password: 'user-pass', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return login(server, email, 'user-pass');
  };
  userB = await mk('Bia', { queueIds: [qb] });
  userC = await mk('Caio', { queueIds: [], allTicket: 'enable' });
  whatsappId = await connectedSandbox(server, t.admin);
  const sessions: Record<Who, Session> = { admin: t.admin, a: t.user, b: userB, c: userC };
  for (const who of Object.keys(sessions) as Who[]) {
    sockets[who] = await connectSocket(server, sessions[who].token);
    seen[who] = recordEvents(sockets[who]);
  }
});
afterAll(async () => {
  for (const s of Object.values(sockets)) s?.close();
  await server.close();
});

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type TicketPayload = {
  action: string;
  ticket?: { id: number; queueId: number | null; status: string };
  ticketId?: number;
};
const ticketEvent = () => companyEvent.ticket(t.companyId);

/** Ticket ids of the ticket and message events a socket has received so far. */
const ticketsSeenBy = (who: Who) =>
  new Set(
    seen[who].flatMap(({ event, payload }) => {
      const p = payload as TicketPayload & { message?: { ticketId: number } };
      if (event === ticketEvent()) return [p.ticket?.id ?? p.ticketId];
      if (event === companyEvent.appMessage(t.companyId)) return [p.message?.ticketId];
      return [];
    }),
  );

/** Waits until the socket has received an update of the ticket matching `match` (recorded, so never missed). */
async function updateOf(
  who: Who,
  ticketId: number,
  match: (tk: NonNullable<TicketPayload['ticket']>) => boolean = () => true,
) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const hit = seen[who].find(({ event, payload }) => {
      const p = payload as TicketPayload;
      return event === ticketEvent() && p.action === 'update' && p.ticket?.id === ticketId && match(p.ticket);
    });
    if (hit) return hit.payload as TicketPayload;
    if (Date.now() > deadline) throw new Error(`${who} got no matching update of ticket ${ticketId}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let barrierSeq = 0;
/**
 * Everything emitted before this call has reached every socket once the company-wide event
 * emitted after it has: events of one server reach a socket in order.
 */
async function barrier() {
  const name = `Barreira ${++barrierSeq}`;
  const arrived = (Object.keys(sockets) as Who[]).map((who) =>
    eventWhere<{ contact: { name: string } }>(
      sockets[who],
      companyEvent.contact(t.companyId),
      (e) => e.contact?.name === name,
    ),
  );
  const res = await call(t.admin, 'POST', '/contacts', { name, number: `55119${String(barrierSeq).padStart(8, '0')}` });
  expect(res.statusCode).toBe(201);
  await Promise.all(arrived);
}

let contactSeq = 0;
async function ticketIn(queueId: number | null, status: 'pending' | 'open' = 'pending') {
  const n = ++contactSeq;
  const contact = await call(t.admin, 'POST', '/contacts', {
    name: `Cliente ${n}`,
    number: `55219${String(n).padStart(8, '0')}`,
  });
  const res = await call(t.admin, 'POST', '/tickets', { contactId: contact.json().id, queueId, status });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

describe('ticket events follow the queues', () => {
  it("a ticket of queue A reaches A's members and admins, not B's nor the no-queue user", async () => {
    const id = await ticketIn(qa);
    const [forA, forAdmin] = await Promise.all([updateOf('a', id), updateOf('admin', id)]);
    expect(forA.ticket).toMatchObject({ id, queueId: qa, status: 'pending' });
    expect(forAdmin.ticket?.id).toBe(id);
    await barrier();
    expect(ticketsSeenBy('b').has(id)).toBe(false);
    expect(ticketsSeenBy('c').has(id)).toBe(false);
  });

  it('a transfer from A to B reaches A (to drop it) and B; later B-only events skip A', async () => {
    const id = await ticketIn(qa);
    await barrier();
    const toA = updateOf('a', id, (tk) => tk.queueId === qb);
    const toB = updateOf('b', id, (tk) => tk.queueId === qb);
    const toAdmin = updateOf('admin', id, (tk) => tk.queueId === qb);
    const res = await call(t.admin, 'PUT', `/tickets/${id}`, { queueId: qb });
    expect(res.json()).toMatchObject({ queueId: qb, status: 'pending' });
    await Promise.all([toA, toB, toAdmin]);

    const countForA = seen.a.length;
    const accepted = updateOf('b', id, (tk) => tk.status === 'open');
    await call(userB, 'PUT', `/tickets/${id}`, { status: 'open', userId: userB.user.id });
    await accepted;
    const message = eventWhere(sockets.b, companyEvent.appMessage(t.companyId), () => true);
    await call(userB, 'POST', `/messages/${id}`, { body: 'Olá, aqui é a Bia' });
    await message;
    await barrier();
    const laterForA = seen.a.slice(countForA).filter((e) => e.event !== companyEvent.contact(t.companyId));
    expect(laterForA).toEqual([]);
    expect(ticketsSeenBy('c').has(id)).toBe(false);
  });

  it('a ticket assigned to a user reaches that user even outside their queues', async () => {
    const id = await ticketIn(qb);
    await barrier();
    const toA = updateOf('a', id, (tk) => tk.status === 'open');
    await call(t.admin, 'PUT', `/tickets/${id}`, { status: 'open', userId: t.user.user.id });
    await toA;
  });

  it('tickets without a queue reach admins and allTicket users only, messages included', async () => {
    const toAdmin = eventWhere<TicketPayload>(sockets.admin, ticketEvent(), (e) => e.ticket?.queueId === null);
    const toC = eventWhere<TicketPayload>(sockets.c, ticketEvent(), (e) => e.ticket?.queueId === null);
    const messageToC = eventWhere(sockets.c, companyEvent.appMessage(t.companyId), () => true);
    await contactWrites(server, t.admin, whatsappId, { number: '5511987650001', name: 'Sem fila', body: 'Oi' });
    const id = (await toAdmin).ticket?.id as number;
    expect((await toC).ticket?.id).toBe(id);
    await messageToC;
    await barrier();
    expect(ticketsSeenBy('a').has(id)).toBe(false);
    expect(ticketsSeenBy('b').has(id)).toBe(false);

    // Deleting it tells the same people.
    const deletedForC = eventWhere<TicketPayload>(
      sockets.c,
      ticketEvent(),
      (e) => e.action === 'delete' && e.ticketId === id,
    );
    await call(t.admin, 'DELETE', `/tickets/${id}`);
    await deletedForC;
  });

  it('admins receive the events of every queue', async () => {
    const ids = [await ticketIn(qa), await ticketIn(qb), await ticketIn(qc), await ticketIn(null)];
    await barrier();
    for (const id of ids) expect(ticketsSeenBy('admin').has(id)).toBe(true);
    expect(ids.map((id) => ticketsSeenBy('a').has(id))).toEqual([true, false, false, false]);
    expect(ids.map((id) => ticketsSeenBy('b').has(id))).toEqual([false, true, false, false]);
    expect(ids.map((id) => ticketsSeenBy('c').has(id))).toEqual([false, false, false, true]);
  });

  it('a user whose queues change gets the new queue at once and loses the old one, without reconnecting', async () => {
    const res = await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [qc] });
    expect(res.statusCode).toBe(200);
    const idC = await ticketIn(qc);
    expect((await updateOf('a', idC)).ticket?.queueId).toBe(qc);
    const idA = await ticketIn(qa);
    await barrier();
    expect(ticketsSeenBy('a').has(idA)).toBe(false);
    expect(ticketsSeenBy('a').has(idC)).toBe(true);
    expect(sockets.a.connected).toBe(true);
  });
});
