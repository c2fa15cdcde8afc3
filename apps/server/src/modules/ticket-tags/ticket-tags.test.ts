import { companyEvent, type Ticket, type TicketTagEvent } from '@balcao/shared';
import { and, eq } from 'drizzle-orm';
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
import { connectedSandbox } from '../../../test/sandbox-helpers.js';
import { rooms } from '../../platform/realtime/realtime.js';
import { ticketTags } from '../tags/tags.schema.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let queueA: number;
let queueB: number;
/** A plain user of queue B only. */
let bia: Session;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
  await connectedSandbox(server, t.admin);
  await connectedSandbox(server, other.admin);
  queueA = (await call(t.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
  queueB = (await call(t.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [queueA] });
  const res = await call(t.admin, 'POST', '/users', {
    name: 'Bia',
    email: 'bia@kanban.test',
    password: 'user-pass',
    queueIds: [queueB],
  });
  expect(res.statusCode, res.body).toBe(201);
  bia = await login(server, 'bia@kanban.test', 'user-pass');
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

let seq = 0;
async function tag(tenant: Tenant, name: string, kanban = 1) {
  const res = await call(tenant.admin, 'POST', '/tags', { name: `${name} ${++seq}`, kanban, color: '#123456' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
async function ticket(tenant: Tenant, queueId: number | null, status: 'open' | 'pending' = 'open') {
  const n = ++seq;
  const contact = await call(tenant.admin, 'POST', '/contacts', {
    name: `Cliente ${n}`,
    number: `5511930${String(n).padStart(6, '0')}`,
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const res = await call(tenant.admin, 'POST', '/tickets', { contactId: contact.json().id, queueId, status });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const rowsOf = (ticketId: number) =>
  server.deps.database.db.select().from(ticketTags).where(eq(ticketTags.ticketId, ticketId));
const tagIdsOf = async (ticketId: number) => (await rowsOf(ticketId)).map((r) => r.tagId).sort((x, y) => x - y);
const move = (s: Session, ticketId: number, tagId: number) => call(s, 'PUT', `/ticket-tags/${ticketId}/${tagId}`);
const toOpen = (s: Session, ticketId: number) => call(s, 'DELETE', `/ticket-tags/${ticketId}`);
const board = async (s: Session, query = '') => {
  const res = await call(s, 'GET', `/ticket/kanban${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { tickets: Ticket[]; count: number; hasMore: boolean };
};
const idsOf = (page: { tickets: Ticket[] }) => page.tickets.map((x) => x.id);

describe('PUT /ticket-tags/{ticketId}/{tagId} and DELETE /ticket-tags/{ticketId}', () => {
  it('a ticket sits in one lane; a plain tag stays; adding twice changes nothing', async () => {
    const [lane1, lane2, plain] = [await tag(t, 'Raia'), await tag(t, 'Raia'), await tag(t, 'Comum', 0)];
    const id = await ticket(t, queueA);
    expect((await move(t.admin, id, plain)).json()).toEqual({ ticketId: id, tagIds: [plain], laneTagId: null });
    const first = await move(t.user, id, lane1);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ ticketId: id, laneTagId: lane1 });
    const second = await move(t.user, id, lane2);
    expect(second.json()).toMatchObject({ ticketId: id, laneTagId: lane2 });
    expect(second.json().tagIds.sort()).toEqual([lane2, plain].sort());
    expect(await tagIdsOf(id)).toEqual([lane2, plain].sort((x, y) => x - y));
    const again = await move(t.user, id, lane2);
    expect(again.statusCode).toBe(200);
    expect(await rowsOf(id)).toHaveLength(2);
    // The ticket's own view carries the tags too.
    expect(
      (await call(t.user, 'GET', `/tickets/${id}`))
        .json()
        .tags.map((x: { id: number }) => x.id)
        .sort(),
    ).toEqual([lane2, plain].sort());
  });

  it('DELETE removes the kanban tags only, and is harmless on a ticket already in "Em aberto"', async () => {
    const [lane, plain] = [await tag(t, 'Raia'), await tag(t, 'Comum', 0)];
    const id = await ticket(t, queueA);
    await move(t.admin, id, plain);
    await move(t.admin, id, lane);
    const res = await toOpen(t.user, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ticketId: id, tagIds: [plain], laneTagId: null });
    expect(await tagIdsOf(id)).toEqual([plain]);
    expect((await toOpen(t.user, id)).json()).toEqual({ ticketId: id, tagIds: [plain], laneTagId: null });
  });

  it('ten concurrent drags to different lanes leave the ticket in exactly one of them', async () => {
    const lanes: number[] = [];
    for (let i = 0; i < 10; i++) lanes.push(await tag(t, 'Corrida'));
    const id = await ticket(t, queueA);
    const replies = await Promise.all(lanes.map((lane, i) => move(i % 2 ? t.user : t.admin, id, lane)));
    for (const r of replies) expect(r.statusCode, r.body).toBe(200);
    const left = await tagIdsOf(id);
    expect(left).toHaveLength(1);
    expect(lanes).toContain(left[0]);
    // A drag mixing DELETE and PUT calls ends in one lane at most as well.
    await Promise.all(lanes.flatMap((lane) => [move(t.admin, id, lane), toOpen(t.admin, id)]));
    expect((await tagIdsOf(id)).length).toBeLessThanOrEqual(1);
  });

  it('POST /tags/sync keeps one lane: the newest kanban tag named wins, the plain tags all stay, boards hear it', async () => {
    const [lane1, lane2, lane3, plain] = [
      await tag(t, 'Raia'),
      await tag(t, 'Raia'),
      await tag(t, 'Raia'),
      await tag(t, 'Comum', 0),
    ];
    const id = await ticket(t, queueA);
    const sync = async (tagIds: number[]) => {
      const res = await call(t.admin, 'POST', '/tags/sync', { ticketId: id, tags: tagIds.map((x) => ({ id: x })) });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().tags as { id: number }[]).map((x) => x.id).sort((x, y) => x - y);
    };
    const byId = (...ids: number[]) => ids.sort((x, y) => x - y);
    expect(await sync([plain, lane1, lane2])).toEqual(byId(plain, lane2));
    expect(await tagIdsOf(id)).toEqual(byId(plain, lane2));
    // The picker sends the lane it has plus a new one: the ticket moves to the new one.
    const agent = await connectSocket(server, t.user.token);
    try {
      const heard = eventWhere<TicketTagEvent>(
        agent,
        companyEvent.ticketTag(t.companyId),
        (e) => e.ticketId === id && e.laneTagId === lane3,
      );
      expect(await sync([lane3, lane2, plain])).toEqual(byId(plain, lane3));
      await heard;
    } finally {
      agent.close();
    }
    // Naming only the lane it has keeps it; naming none leaves "Em aberto".
    expect(await sync([lane3])).toEqual([lane3]);
    expect(await sync([plain])).toEqual([plain]);
  });
  it("a plain user moves the tickets of their queues and their own, not another queue's", async () => {
    const lane = await tag(t, 'Raia');
    const other = await ticket(t, queueB);
    for (const res of [await move(t.user, other, lane), await toOpen(t.user, other)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect(await tagIdsOf(other)).toEqual([]);
    expect((await move(bia, other, lane)).statusCode).toBe(200);
    // Assigned to the user, a ticket of queue B is theirs to move.
    await call(t.admin, 'PUT', `/tickets/${other}`, { userId: t.user.user.id, status: 'open' });
    expect((await toOpen(t.user, other)).statusCode).toBe(200);
    expect(await tagIdsOf(other)).toEqual([]);
  });

  it("another company's ticket or tag is not found, and nothing changes", async () => {
    const [mine, theirs] = [await tag(t, 'Minha'), await tag(other, 'Alheia')];
    const [myTicket, theirTicket] = [await ticket(t, queueA), await ticket(other, null)];
    await move(other.admin, theirTicket, theirs);
    const foreignTag = await move(t.admin, myTicket, theirs);
    expect(foreignTag.statusCode).toBe(404);
    expect(foreignTag.json().error).toBe('ERR_NO_TAG_FOUND');
    for (const res of [await move(t.admin, theirTicket, mine), await toOpen(t.admin, theirTicket)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
    }
    const foreignLane = await call(t.admin, 'GET', `/ticket/kanban?tagId=${theirs}`);
    expect(foreignLane.json().error).toBe('ERR_NO_TAG_FOUND');
    expect(await tagIdsOf(myTicket)).toEqual([]);
    expect(await tagIdsOf(theirTicket)).toEqual([theirs]);
    expect(
      await server.deps.database.db
        .select()
        .from(ticketTags)
        .where(and(eq(ticketTags.ticketId, myTicket), eq(ticketTags.tagId, theirs))),
    ).toEqual([]);
  });

  it('tells the ticket’s audience after the commit: admins and queue members, not another queue or company', async () => {
    const lane = await tag(t, 'Ao vivo');
    const id = await ticket(t, queueA);
    const event = companyEvent.ticketTag(t.companyId);
    const [admin, agent, outsider, foreign] = await Promise.all(
      [t.admin, t.user, bia, other.admin].map((s) => connectSocket(server, s.token)),
    );
    const outsiderSaw = recordEvents(outsider);
    const foreignSaw = recordEvents(foreign);
    try {
      const about = (p: TicketTagEvent) => p.ticketId === id && p.laneTagId === lane;
      const arrivals = [admin, agent].map((s) => eventWhere<TicketTagEvent>(s, event, about));
      expect((await move(t.admin, id, lane)).statusCode).toBe(200);
      for (const got of await Promise.all(arrivals)) {
        expect(got).toEqual({ action: 'update', ticketId: id, tagIds: [lane], laneTagId: lane });
      }
      const back = eventWhere<TicketTagEvent>(agent, event, (p) => p.ticketId === id && p.laneTagId === null);
      await toOpen(t.admin, id);
      expect(await back).toEqual({ action: 'update', ticketId: id, tagIds: [], laneTagId: null });
      // One server delivers in order: once the barrier arrived, so had anything emitted before it.
      const barrier = [outsider, foreign].map((s) => eventWhere(s, 'test:barrier', () => true));
      server.deps.realtime.toRooms([rooms.company(t.companyId), rooms.company(other.companyId)], 'test:barrier', 1);
      await Promise.all(barrier);
      expect(outsiderSaw.filter((e) => e.event === event)).toEqual([]);
      expect(foreignSaw.filter((e) => e.event.includes('ticketTag'))).toEqual([]);
    } finally {
      for (const s of [admin, agent, outsider, foreign]) s.close();
    }
  });
});

describe('GET /ticket/kanban', () => {
  it('open and pending tickets the caller may see, with their tags, newest activity first, per lane', async () => {
    const tenant = await createTenant(server);
    await connectedSandbox(server, tenant.admin);
    const qa = (await call(tenant.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
    const qb = (await call(tenant.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
    await call(tenant.admin, 'PUT', `/users/${tenant.user.user.id}`, { queueIds: [qa] });
    const [lane, plain] = [await tag(tenant, 'Raia'), await tag(tenant, 'Comum', 0)];
    const inA = await ticket(tenant, qa);
    const pendingA = await ticket(tenant, qa, 'pending');
    const inB = await ticket(tenant, qb);
    const closed = await ticket(tenant, qa);
    await call(tenant.admin, 'PUT', `/tickets/${closed}`, { status: 'closed' });
    await move(tenant.admin, inA, lane);
    await move(tenant.admin, pendingA, plain);
    await move(tenant.admin, inB, lane);

    const all = await board(tenant.admin);
    expect(idsOf(all)).toEqual([inB, pendingA, inA]);
    expect(all.count).toBe(3);
    expect(all.tickets.find((x) => x.id === inA)?.tags.map((g) => g.id)).toEqual([lane]);
    expect(all.tickets[0]).toMatchObject({ contact: { name: expect.any(String) }, queue: { id: qb } });
    expect(idsOf(await board(tenant.admin, '?lane=open'))).toEqual([pendingA]);
    expect(idsOf(await board(tenant.admin, `?tagId=${lane}`))).toEqual([inB, inA]);
    expect(idsOf(await board(tenant.admin, `?tagId=${lane}&queueIds=${encodeURIComponent(`[${qa}]`)}`))).toEqual([inA]);
    expect(idsOf(await board(tenant.admin, `?queueIds=${qb}`))).toEqual([inB]);
    // The plain user of queue A sees none of queue B's, whatever the filter.
    expect(idsOf(await board(tenant.user))).toEqual([pendingA, inA]);
    expect(idsOf(await board(tenant.user, `?tagId=${lane}&queueIds=[${qb}]`))).toEqual([]);
    expect((await call(tenant.user, 'GET', '/ticket/kanban?queueIds=abc')).statusCode).toBe(400);
  });

  it('lanes follow the tag: turned off, on again or deleted; a move keeps the ticket’s place in the lists', async () => {
    const [lane, other, plain] = [await tag(t, 'Raia'), await tag(t, 'Raia'), await tag(t, 'Comum', 0)];
    const [a, b] = [await ticket(t, queueA), await ticket(t, queueA)];
    const before = (await call(t.admin, 'GET', `/tickets/${a}`)).json().updatedAt;
    await move(t.admin, a, lane);
    await move(t.admin, b, plain);
    expect((await call(t.admin, 'GET', `/tickets/${a}`)).json().updatedAt).toBe(before);
    const inLane = async (tagId: number) => idsOf(await board(t.admin, `?tagId=${tagId}`));
    const inOpen = async () => idsOf(await board(t.admin, '?lane=open'));
    expect(await inLane(lane)).toEqual([a]);
    // The plain tag becomes a lane: b, which carries it, moves in; off again, b is back in "Em aberto".
    expect((await call(t.admin, 'PUT', `/tags/${plain}`, { kanban: 1 })).statusCode).toBe(200);
    expect(await inLane(plain)).toEqual([b]);
    expect(await inOpen()).not.toContain(b);
    expect((await call(t.admin, 'PUT', `/tags/${plain}`, { kanban: 0 })).statusCode).toBe(200);
    expect(await inLane(plain)).toEqual([]);
    expect(await inOpen()).toContain(b);
    // The lane's tag deleted: its ticket is back in "Em aberto", and nothing is left in another lane.
    expect((await call(t.admin, 'DELETE', `/tags/${lane}`)).statusCode).toBe(200);
    expect(await inOpen()).toContain(a);
    expect(await inLane(other)).toEqual([]);
  });

  it('pages a lane with its count', async () => {
    const tenant = await createTenant(server);
    await connectedSandbox(server, tenant.admin);
    const lane = await tag(tenant, 'Cheia');
    const made: number[] = [];
    for (let i = 0; i < 22; i++) {
      made.push(await ticket(tenant, null));
      await move(tenant.admin, made[i], lane);
    }
    const one = await board(tenant.admin, `?tagId=${lane}`);
    expect(one).toMatchObject({ count: 22, hasMore: true });
    expect(idsOf(one)).toEqual(made.slice(2).reverse());
    const two = await board(tenant.admin, `?tagId=${lane}&pageNumber=2`);
    expect(two).toMatchObject({ count: 22, hasMore: false });
    expect(idsOf(two)).toEqual([made[1], made[0]]);
    expect(await board(tenant.admin, '?lane=open')).toMatchObject({ count: 0, tickets: [], hasMore: false });
  });
});

describe('GET /tags with includeTickets / includeTicketTag', () => {
  it('adds the open and pending tickets of each tag that the caller may see', async () => {
    const lane = await tag(t, 'Com tickets');
    const [inA, inB, closed] = [await ticket(t, queueA), await ticket(t, queueB), await ticket(t, queueA)];
    for (const id of [inA, inB, closed]) await move(t.admin, id, lane);
    await call(t.admin, 'PUT', `/tickets/${closed}`, { status: 'closed' });
    const name = encodeURIComponent('Com tickets');
    const tagOf = async (s: Session, flags: string) => {
      const res = await call(s, 'GET', `/tags?searchParam=${name}&${flags}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().tags.find((x: { id: number }) => x.id === lane);
    };
    const admin = await tagOf(t.admin, 'includeTickets=true&includeTicketTag=true');
    expect(admin.tickets.map((x: { id: number }) => x.id)).toEqual([inB, inA]);
    expect(admin.tickets[0]).toEqual({ id: inB, uuid: expect.any(String), status: 'open' });
    expect(admin.ticketTags).toEqual([
      { ticketId: inB, tagId: lane },
      { ticketId: inA, tagId: lane },
    ]);
    const agent = await tagOf(t.user, 'includeTickets=true');
    expect(agent.tickets.map((x: { id: number }) => x.id)).toEqual([inA]);
    expect(agent.ticketTags).toBeUndefined();
    const plain = await tagOf(t.user, 'includeTickets=false');
    expect(plain.tickets).toBeUndefined();
    expect(plain.ticketsCount).toBe(3);
  });
});

describe('plan flag useKanban', () => {
  it('off: every kanban route answers 403 before looking at the ids', async () => {
    const tenant = await createTenant(server, { plan: { useKanban: false } });
    for (const [method, url] of [
      ['GET', '/ticket/kanban'],
      ['GET', '/tags/kanban'],
      ['PUT', '/ticket-tags/1/1'],
      ['DELETE', '/ticket-tags/1'],
      ['PUT', '/ticket-tags/x/y'],
    ] as const) {
      for (const s of [tenant.admin, tenant.user]) {
        const res = await call(s, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
      }
    }
  });
});
