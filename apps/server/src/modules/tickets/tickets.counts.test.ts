import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { ownConnections } from '../../../test/own-connections.js';
import { connectedSandbox, contactWrites } from '../../../test/sandbox-helpers.js';
import { rowsOf } from '../../db/rows.js';

/**
 * Issue 16: the ticket lists and kanban lanes count on `ticket_counts` (migration 0024), kept by
 * triggers in the transaction that writes the tickets. Whatever writes a ticket — an inbound
 * message, an agent, a kanban move, a queue, user, tag or company deleted — the counts stay those of
 * the tickets, and the lists' counts those of the tickets they filter.
 */
let server: TestServer;
let t: Tenant;
let other: Tenant;
let qa: number;
let qb: number;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  qa = (await call(t.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
  qb = (await call(t.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [qa] });
  whatsappId = await connectedSandbox(server, t.admin);
  const otherWhatsapp = await connectedSandbox(server, other.admin);
  for (const n of [1, 2, 3]) await contactWrites(server, other.admin, otherWhatsapp, { number: `55119700000${n}` });
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

const rows = async (text: string, values?: unknown[]) => (await server.deps.database.query(text, values)).rows;

/** The counts summed per key are the tickets grouped by key, row for row. */
async function expectCountsOfTickets() {
  const kept = await rows(`select company_id, status, queue_id, user_id, lane_tag_id, sum(count)::int n
    from ticket_counts group by 1, 2, 3, 4, 5 having sum(count) <> 0 order by 1, 2, 3, 4, 5`);
  const tickets = await rows(`select company_id, status, queue_id, user_id, lane_tag_id, count(*)::int n
    from tickets group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`);
  expect(tickets.length).toBeGreaterThan(0);
  expect(kept).toEqual(tickets);
}

let seq = 0;
async function ticket(body: Record<string, unknown>) {
  const n = ++seq;
  const contact = await call(t.admin, 'POST', '/contacts', { name: `Contato ${n}`, number: `5511930${n}000` });
  expect(contact.statusCode, contact.body).toBe(201);
  const res = await call(t.admin, 'POST', '/tickets', { contactId: contact.json().id, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function put(session: Session, id: number, body: Record<string, unknown>) {
  const res = await call(session, 'PUT', `/tickets/${id}`, body);
  expect(res.statusCode, res.body).toBe(200);
}

describe('ticket counts', () => {
  it('follow every write of a ticket: inbound, accept, transfer, close, reopen, delete', async () => {
    for (const n of [1, 2, 3]) await contactWrites(server, t.admin, whatsappId, { number: `55119800000${n}` });
    await expectCountsOfTickets();
    const a = await ticket({ queueId: qa, status: 'pending' });
    const b = await ticket({ queueId: qb, status: 'open' });
    await expectCountsOfTickets();
    await put(t.user, a, { status: 'open', userId: t.user.user.id });
    await put(t.admin, b, { queueId: qa });
    await expectCountsOfTickets();
    await put(t.user, a, { status: 'closed' });
    await put(t.user, a, { status: 'open', userId: t.user.user.id });
    await put(t.admin, b, { status: 'closed' });
    await expectCountsOfTickets();
    expect((await call(t.admin, 'DELETE', `/tickets/${b}`)).statusCode).toBe(200);
    await expectCountsOfTickets();
  });

  it('follow a queue or a user deleted: their tickets are counted with no queue or no user', async () => {
    const queue = (await call(t.admin, 'POST', '/queue', { name: 'Fila C', color: '#0000C0' })).json().id;
    const created = await call(t.admin, 'POST', '/users', {
      name: 'Carla',
      email: 'carla@counts.test',
      password: 'carla-pass',
      queueIds: [queue],
    });
    expect(created.statusCode, created.body).toBe(201);
    const carla = await login(server, 'carla@counts.test', 'carla-pass');
    const id = await ticket({ queueId: queue, status: 'pending' });
    await put(carla, id, { status: 'open', userId: carla.user.id });
    await expectCountsOfTickets();
    expect((await call(t.admin, 'DELETE', `/queue/${queue}`)).statusCode).toBe(200);
    await expectCountsOfTickets();
    expect((await call(t.admin, 'DELETE', `/users/${carla.user.id}`)).statusCode).toBe(200);
    await expectCountsOfTickets();
    expect(await rows('select queue_id, user_id from tickets where id = $1', [id])).toEqual([
      { queue_id: null, user_id: null },
    ]);
  });

  it("are the lists' counts, for admins and agents, with and without show-all", async () => {
    await ticket({ queueId: qa, status: 'pending' });
    await ticket({ queueId: qb, status: 'pending' });
    await ticket({ queueId: qa, status: 'open' });
    const counted = async (session: Session, query: string) => {
      const res = await call(session, 'GET', `/tickets?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().count as number;
    };
    const of = async (where: string, values: unknown[] = []) =>
      (
        await rows(`select count(*)::int n from tickets where company_id = $1 and ${where}`, [t.companyId, ...values])
      )[0].n as number;
    const me = t.user.user.id;
    const cases: [Session, string, string, unknown[]][] = [
      [t.admin, 'status=pending&showAll=true', `status = 'pending'`, []],
      // An admin's queue filter keeps the tickets in no queue.
      [t.admin, `status=pending&queueIds=[${qb}]`, `status = 'pending' and (queue_id = $2 or queue_id is null)`, [qb]],
      [t.admin, 'status=open&showAll=true', `status = 'open'`, []],
      [t.admin, 'status=open', `status = 'open' and user_id = $2`, [t.admin.user.id]],
      [t.admin, 'status=closed&showAll=true', `status = 'closed'`, []],
      [t.user, 'status=pending', `status = 'pending' and (queue_id = $2 or user_id = $3)`, [qa, me]],
      [t.user, `status=pending&queueIds=[${qa}]`, `status = 'pending' and queue_id = $2`, [qa]],
      [t.user, 'status=open', `status = 'open' and user_id = $2`, [me]],
      [t.user, 'showAll=true', `(queue_id = $2 or user_id = $3) and (user_id = $3 or status <> 'open')`, [qa, me]],
    ];
    for (const [session, query, where, values] of cases) {
      const expected = await of(where, values);
      expect(await counted(session, query), query).toBe(expected);
    }
    expect(await of(`status = 'pending'`)).toBeGreaterThan(1);
  });

  it("follow kanban moves and a lane deleted, and are the lanes' counts", async () => {
    const lane = async (name: string) =>
      (await call(t.admin, 'POST', '/tags', { name, color: '#AA0000', kanban: 1 })).json().id as number;
    const [talking, closing] = [await lane('Em conversa'), await lane('Fechando')];
    const [x, y] = [await ticket({ queueId: qa, status: 'open' }), await ticket({ queueId: qa, status: 'pending' })];
    for (const [id, tag] of [
      [x, talking],
      [y, talking],
      [y, closing],
    ])
      expect((await call(t.admin, 'PUT', `/ticket-tags/${id}/${tag}`)).statusCode).toBe(200);
    await expectCountsOfTickets();
    const laneCount = async (session: Session, query: string) => {
      const res = await call(session, 'GET', `/ticket/kanban?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().count as number;
    };
    const active = `company_id = $1 and status in ('open', 'pending')`;
    const of = async (where: string, values: unknown[] = []) =>
      (await rows(`select count(*)::int n from tickets where ${active} and ${where}`, [t.companyId, ...values]))[0]
        .n as number;
    expect(await laneCount(t.admin, `tagId=${talking}`)).toBe(1);
    expect(await laneCount(t.admin, `tagId=${closing}`)).toBe(1);
    expect(await laneCount(t.admin, 'lane=open')).toBe(await of('lane_tag_id is null'));
    expect(await laneCount(t.admin, '')).toBe(await of('true'));
    expect(await laneCount(t.user, `queueIds=[${qa}]&lane=open`)).toBe(
      await of('lane_tag_id is null and queue_id = $2', [qa]),
    );
    expect((await call(t.admin, 'DELETE', `/ticket-tags/${y}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'DELETE', `/tags/${talking}`)).statusCode).toBe(200);
    await expectCountsOfTickets();
    expect(await laneCount(t.admin, 'lane=open')).toBe(await of('lane_tag_id is null'));
  });

  it("go with a deleted company's tickets, and the deletion goes through", async () => {
    const doomed = await createTenant(server);
    const wa = await connectedSandbox(server, doomed.admin);
    await contactWrites(server, doomed.admin, wa, { number: '5511960000001' });
    expect(await rows('select 1 from ticket_counts where company_id = $1', [doomed.companyId])).not.toHaveLength(0);
    const su = await login(server, SUPER.email, SUPER.password);
    const res = await call(su, 'DELETE', `/companies/${doomed.companyId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows('select 1 from ticket_counts where company_id = $1', [doomed.companyId])).toHaveLength(0);
    await expectCountsOfTickets();
  });

  it('a statement writing many tickets writes each key it touches once', async () => {
    /** The tickets a statement wrote, and the rows of ticket_counts it wrote (read before and after it). */
    const written = (statement: string) =>
      server.deps.database.db.transaction(async (tx) => {
        const countsWritten = async () =>
          rowsOf<{ n: number }>(
            await tx.execute(sql`select (pg_stat_get_xact_tuples_inserted('ticket_counts'::regclass)
              + pg_stat_get_xact_tuples_updated('ticket_counts'::regclass))::int n`),
          )[0].n;
        const before = await countsWritten();
        const tickets = rowsOf(await tx.execute(sql.raw(statement))).length;
        return { tickets, counts: (await countsWritten()) - before };
      });
    // 300 new pending tickets in no queue (one key), then the same 300 moved to queue A (two keys).
    expect(
      await written(`with c as (insert into contacts (company_id, name, number)
          select ${t.companyId}, 'Lote ' || g, '5511940' || lpad(g::text, 6, '0') from generate_series(1, 300) g
          returning id)
        insert into tickets (company_id, contact_id, whatsapp_id, status)
        select ${t.companyId}, id, ${whatsappId}, 'pending' from c returning id`),
    ).toEqual({ tickets: 300, counts: 1 });
    expect(
      await written(`update tickets set queue_id = ${qa} where company_id = ${t.companyId}
        and contact_id in (select id from contacts where name like 'Lote %') returning id`),
    ).toEqual({ tickets: 300, counts: 2 });
    await expectCountsOfTickets();
  });

  it('two writers of one key never wait for each other, and their counts add up', async ({ skip }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite has one connection');
    const [first, second] = await ownConnections(server.deps.database, 2);
    const key = [t.companyId, 'pending', qb];
    const insert = (client: pg.Client, n: number) =>
      client.query(
        `with c as (insert into contacts (company_id, name, number) values ($1, 'Concorrente', $4) returning id)
         insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status) select $1, c.id, $5, $3, $2 from c`,
        [...key, `551195000000${n}`, whatsappId],
      );
    const keyRows = async () =>
      (
        await rows(
          `select count(*)::int n from ticket_counts where company_id = $1 and status = $2 and queue_id = $3 and user_id is null`,
          key,
        )
      )[0].n as number;
    try {
      expect(await keyRows()).toBe(1);
      await first.query('begin');
      await insert(first, 1);
      // The first writer holds the key's row until it commits: the second takes a row of its own.
      await second.query(`set lock_timeout = '2s'`);
      await insert(second, 2);
      expect(await keyRows()).toBe(2);
      await first.query('commit');
      await expectCountsOfTickets();
      // With no one holding them, a third write reuses a row.
      await insert(second, 3);
      expect(await keyRows()).toBe(2);
      await expectCountsOfTickets();
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});
