import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { ticketTraking, userRatings } from '../modules/tickets/tickets.schema.js';
import { expireInactiveTickets } from './expiry.js';
import { RATING_PROMPT } from './rating.js';

/** The closing automations of DOMAIN §4, seen from the contact's phone and the API (jobs on). */

let server: TestServer;
let seq = 0;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
});
afterAll(() => server.close());

const GREETING = /^(Bom dia|Boa tarde|Boa noite)/;

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function setting(t: Tenant, key: string, value: string) {
  const res = await call(t.admin, 'PUT', `/settings/${key}`, { value });
  expect(res.statusCode, res.body).toBe(200);
}

async function put(session: Session, id: number, payload: object) {
  const res = await call(session, 'PUT', `/tickets/${id}`, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function ticket(t: Tenant, id: number) {
  const res = await call(t.admin, 'GET', `/tickets/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; status: string; userId: number | null; queueId: number | null };
}

/** A tenant with a connection (no queues: no menu) and a contact whose first message made a pending ticket. */
async function scene(connection: Record<string, unknown> = {}) {
  const t = await createTenant(server, { plan: { queues: 10 } });
  const w = await connectedSandbox(server, t.admin, connection);
  const number = `55119${String(++seq).padStart(8, '0')}`;
  let seen = 0;
  /** What the phone got since the last look, waiting for `expected` new messages. */
  const received = async (expected: number) => {
    const list = await waitUntil(
      () => phoneOf(server, t.admin, w, number),
      (l) => l.length >= seen + expected,
    );
    const fresh = list.slice(seen).map((m) => m.body);
    seen = list.length;
    return fresh;
  };
  const writes = (body: string) => contactWrites(server, t.admin, w, { number, name: 'Carla Dias', body });
  await writes('oi');
  const list = await call(t.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`);
  const id = list.json().tickets[0].id as number;
  return { t, w, number, id, received, writes };
}

/** Nothing more reaches the phone for a moment. */
async function quiet(s: { t: Tenant; w: number; number: string }, count: number) {
  await new Promise((r) => setTimeout(r, 400));
  expect(await phoneOf(server, s.t.admin, s.w, s.number)).toHaveLength(count);
}

describe('closing with a rating (DOMAIN §4)', () => {
  it('close sends the rating prompt; the answer 4 is recorded, completion sent, ticket stays closed', async () => {
    const s = await scene({ ratingMessage: 'Obrigado, {{firstName}}!', complationMessage: 'Até logo, {{firstName}}.' });
    await setting(s.t, 'userRating', 'enabled');
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    expect(await put(s.t.admin, s.id, { status: 'closed', userId: s.t.admin.user.id })).toMatchObject({
      status: 'closed',
    });
    expect(await s.received(1)).toEqual([`Obrigado, Carla!\n\n${RATING_PROMPT}`]);

    await s.writes('4');
    expect(await s.received(1)).toEqual(['Até logo, Carla.']);
    expect(await ticket(s.t, s.id)).toMatchObject({ status: 'closed' });
    const db = server.deps.database.db;
    expect(
      await db
        .select({ rate: userRatings.rate, userId: userRatings.userId, companyId: userRatings.companyId })
        .from(userRatings)
        .where(eq(userRatings.ticketId, s.id)),
    ).toEqual([{ rate: 4, userId: s.t.admin.user.id, companyId: s.t.companyId }]);
    const cycles = await db
      .select({ rated: ticketTraking.rated, ratingAt: ticketTraking.ratingAt })
      .from(ticketTraking)
      .where(eq(ticketTraking.ticketId, s.id));
    expect(cycles.at(-1)).toMatchObject({ rated: true, ratingAt: expect.any(Date) });

    // Only one rating: a second digit is a new conversation.
    await s.writes('5');
    expect(await ticket(s.t, s.id)).toMatchObject({ status: 'pending', userId: null });
    expect(await db.select().from(userRatings).where(eq(userRatings.ticketId, s.id))).toHaveLength(1);
  });

  it('any other answer reopens the ticket as pending with that message, without a rating', async () => {
    const s = await scene({ ratingMessage: 'Avalie, por favor.', complationMessage: 'Tchau.' });
    await setting(s.t, 'userRating', 'enabled');
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    await put(s.t.admin, s.id, { status: 'closed', userId: s.t.admin.user.id });
    expect(await s.received(1)).toEqual([`Avalie, por favor.\n\n${RATING_PROMPT}`]);

    await s.writes('obrigado');
    expect(await ticket(s.t, s.id)).toMatchObject({ status: 'pending', userId: null });
    const msgs = await call(s.t.admin, 'GET', `/messages/${s.id}`);
    expect(msgs.json().messages.map((m: { body: string }) => m.body)).toContain('obrigado');
    const db = server.deps.database.db;
    expect(await db.select().from(userRatings).where(eq(userRatings.ticketId, s.id))).toEqual([]);
    await quiet(s, 1);
  });

  it('without the setting, close sends the completion message at once', async () => {
    const s = await scene({ ratingMessage: 'Avalie', complationMessage: 'Atendimento encerrado, {{firstName}}.' });
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    await put(s.t.admin, s.id, { status: 'closed', userId: s.t.admin.user.id });
    expect(await s.received(1)).toEqual(['Atendimento encerrado, Carla.']);
    // The next message is a new conversation, as always.
    await s.writes('1');
    expect(await ticket(s.t, s.id)).toMatchObject({ status: 'pending' });
  });
});

describe('accept greeting and transfer notice (DOMAIN §4, spec §4)', () => {
  it('accepting a pending ticket posts the greeting with the agent name when enabled', async () => {
    const s = await scene();
    await setting(s.t, 'sendGreetingAccepted', 'enabled');
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    const [text] = await s.received(1);
    expect(text).toMatch(GREETING);
    expect(text.replace(GREETING, '')).toBe(
      ` *Carla Dias*, meu nome é *${s.t.admin.user.name}* e agora vou prosseguir com seu atendimento!`,
    );
    // Not on a transfer back to pending or a second acceptance by the same agent.
    await put(s.t.admin, s.id, { status: 'pending' });
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    await s.received(1);
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    await quiet(s, 2);
  });

  it('disabled by default: accepting sends nothing', async () => {
    const s = await scene();
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    await quiet(s, 0);
  });

  it('a transfer names the new queue and/or user when enabled', async () => {
    const s = await scene();
    const q = await call(s.t.admin, 'POST', '/queue', { name: 'Financeiro', color: '#123456', greetingMessage: '' });
    expect(q.statusCode, q.body).toBe(201);
    const queueId = q.json().id as number;
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    await quiet(s, 0);
    await setting(s.t, 'sendMsgTransfTicket', 'enabled');

    const agent = s.t.user.user;
    expect(await put(s.t.admin, s.id, { queueId, userId: agent.id })).toMatchObject({
      status: 'open',
      userId: agent.id,
    });
    expect(await s.received(1)).toEqual([
      `Seu atendimento foi transferido para o setor *Financeiro* e será continuado por *${agent.name}*.`,
    ]);
    // To the admin again, same queue: the user only.
    await put(s.t.user, s.id, { userId: s.t.admin.user.id });
    expect(await s.received(1)).toEqual([`Seu atendimento foi transferido para *${s.t.admin.user.name}*.`]);
    // To a queue without a user: pending, the queue only.
    const q2 = await call(s.t.admin, 'POST', '/queue', { name: 'Vendas', color: '#654321', greetingMessage: '' });
    expect(await put(s.t.admin, s.id, { queueId: q2.json().id })).toMatchObject({ status: 'pending', userId: null });
    expect(await s.received(1)).toEqual(['Seu atendimento foi transferido para o setor *Vendas*.']);
  });
});

describe('inactivity expiry (DOMAIN §4)', () => {
  it('closes only open, non-group tickets whose last message was ours and older than expiresTicket, once', async () => {
    const s = await scene({ expiresTicket: 30, expiresInactiveMessage: 'Encerrado por inatividade, {{firstName}}.' });
    const deps = { db: server.deps.database.db, realtime: server.deps.realtime, jobs: server.deps.jobs };
    // Eligible: accepted, and the agent spoke last.
    await put(s.t.admin, s.id, { status: 'open', userId: s.t.admin.user.id });
    expect((await call(s.t.admin, 'POST', `/messages/${s.id}`, { body: 'Posso ajudar?' })).statusCode).toBe(201);
    await s.received(1);
    // Not eligible: the contact spoke last.
    const number2 = `55119${String(++seq).padStart(8, '0')}`;
    await contactWrites(server, s.t.admin, s.w, { number: number2, name: 'Bruno', body: 'oi' });
    const other = (await call(s.t.admin, 'GET', `/tickets?showAll=true&searchParam=${number2}`)).json().tickets[0];
    await put(s.t.admin, other.id, { status: 'open', userId: s.t.admin.user.id });
    await call(s.t.admin, 'POST', `/messages/${other.id}`, { body: 'Olá' });
    await contactWrites(server, s.t.admin, s.w, { number: number2, name: 'Bruno', body: 'ainda aqui' });
    // Not eligible: pending, waiting for an agent.
    const number3 = `55119${String(++seq).padStart(8, '0')}`;
    await contactWrites(server, s.t.admin, s.w, { number: number3, name: 'Dora', body: 'oi' });
    const pending = (await call(s.t.admin, 'GET', `/tickets?showAll=true&searchParam=${number3}`)).json().tickets[0];
    // Not eligible: a group.
    await setting(s.t, 'CheckMsgIsGroup', 'disabled');
    const group = `1203630${String(++seq).padStart(8, '0')}`;
    await contactWrites(server, s.t.admin, s.w, {
      number: group,
      name: 'Grupo',
      body: 'oi',
      isGroup: true,
      groupName: 'Grupo',
      participant: '5511999990000',
    });
    const groupTicket = (await call(s.t.admin, 'GET', `/tickets?showAll=true&searchParam=${group}`)).json().tickets[0];
    await put(s.t.admin, groupTicket.id, { status: 'open', userId: s.t.admin.user.id });
    await call(s.t.admin, 'POST', `/messages/${groupTicket.id}`, { body: 'Olá grupo' });
    await waitUntil(
      () => phoneOf(server, s.t.admin, s.w, group),
      (l) => l.length >= 1,
    );

    const minutes = (n: number) => new Date(Date.now() + n * 60_000);
    expect(await expireInactiveTickets(deps, minutes(10))).toBe(0);
    expect(await ticket(s.t, s.id)).toMatchObject({ status: 'open' });

    expect(await expireInactiveTickets(deps, minutes(31))).toBe(1);
    expect(await s.received(1)).toEqual(['Encerrado por inatividade, Carla.']);
    expect(await ticket(s.t, s.id)).toMatchObject({ status: 'closed' });
    expect(await ticket(s.t, other.id)).toMatchObject({ status: 'open' });
    expect(await ticket(s.t, pending.id)).toMatchObject({ status: 'pending' });
    expect(await ticket(s.t, groupTicket.id)).toMatchObject({ status: 'open' });

    // Idempotent: the next run (the expiry message is ours, but the ticket is closed) closes nothing.
    expect(await expireInactiveTickets(deps, minutes(120))).toBe(0);
    await quiet(s, 2);
  });
});
