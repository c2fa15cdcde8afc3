import type { DashboardQuery, DashboardReply } from '@balcao/shared';
import { asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../test/count-statements.js';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, waitUntil } from '../../../test/sandbox-helpers.js';
import type { Db } from '../../db/client.js';
import { storeInbound } from '../../inbound/store-inbound.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { contacts } from '../contacts/contacts.schema.js';
import { tickets, ticketTraking, userRatings } from '../tickets/tickets.schema.js';
import { users } from '../users/users.schema.js';
import { getDashboard } from './dashboard.service.js';

/**
 * The dashboard of DOMAIN §9: every counter from hand-built tracking records, read in the company's
 * time zone with one period predicate, never counting another company's rows; then the tracking
 * records the product writes for it (first reply, transfers) and the route's rules.
 */

let server: TestServer;
let db: Db;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  db = server.deps.database.db;
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

/** A company of its own, in a time zone, with a connection and two more attendants. */
interface Company {
  tenant: Tenant;
  whatsappId: number;
  /** Attendants: the tenant's plain user, Ulisses and Vera. */
  u1: number;
  u2: number;
  u3: number;
}

let seq = 0;
async function company(timezone = 'America/Sao_Paulo'): Promise<Company> {
  const tenant = await createTenant(server);
  const whatsappId = await connectedSandbox(server, tenant.admin);
  const set = await call(tenant.admin, 'PUT', '/settings/timezone', { value: timezone });
  expect(set.statusCode, set.body).toBe(200);
  const [u2, u3] = await db
    .insert(users)
    .values(
      ['Ulisses', 'Vera'].map((name) => ({
        companyId: tenant.companyId,
        name,
        email: `${name.toLowerCase()}-${++seq}@dashboard.test`,
        passwordHash: 'x',
      })),
    )
    .returning({ id: users.id });
  return { tenant, whatsappId, u1: tenant.user.user.id, u2: u2.id, u3: u3.id };
}

const ctxOf = (c: Company): ServiceContext => ({
  companyId: c.tenant.companyId,
  userId: c.tenant.admin.user.id,
  profile: 'admin',
  isSuper: false,
  sessionId: 'test',
  db,
  realtime: server.deps.realtime,
  jobs: server.deps.jobs,
});

const at = (iso: string) => new Date(iso);

/** A new contact of the company. */
async function contact(c: Company) {
  const [row] = await db
    .insert(contacts)
    .values({ companyId: c.tenant.companyId, name: `Contato ${++seq}`, number: `55119${String(seq).padStart(8, '0')}` })
    .returning({ id: contacts.id });
  return row.id;
}

/** A ticket created at `createdAt` (closed unless told), for a new contact unless one is given. */
async function ticket(
  c: Company,
  createdAt: string,
  opts: { contactId?: number; status?: 'pending' | 'open' | 'closed' } = {},
) {
  const [row] = await db
    .insert(tickets)
    .values({
      companyId: c.tenant.companyId,
      contactId: opts.contactId ?? (await contact(c)),
      whatsappId: c.whatsappId,
      status: opts.status ?? 'closed',
      createdAt: at(createdAt),
      updatedAt: at(createdAt),
    })
    .returning({ id: tickets.id });
  return row.id;
}

interface CycleTimes {
  userId?: number | null;
  /** The cycle opened its contact's first ticket ever. */
  lead?: boolean;
  queuedAt?: string;
  startedAt?: string;
  firstReplyAt?: string;
  finishedAt?: string;
}

/** Whole seconds between two of the times, as tickets.tracking stores them; null when one is missing. */
const seconds = (from?: string, to?: string) =>
  from && to ? Math.round((at(to).getTime() - at(from).getTime()) / 1000) : null;

/** A service cycle of a new closed ticket (created when the cycle was queued), with its stored durations. */
async function cycle(c: Company, times: CycleTimes, ticketId?: number) {
  const created = times.queuedAt ?? times.startedAt ?? times.finishedAt ?? '2030-01-01T00:00:00Z';
  const id = ticketId ?? (await ticket(c, created, { status: times.finishedAt ? 'closed' : 'open' }));
  const [row] = await db
    .insert(ticketTraking)
    .values({
      companyId: c.tenant.companyId,
      ticketId: id,
      whatsappId: c.whatsappId,
      userId: times.userId ?? null,
      queuedAt: times.queuedAt ? at(times.queuedAt) : null,
      startedAt: times.startedAt ? at(times.startedAt) : null,
      firstReplyAt: times.firstReplyAt ? at(times.firstReplyAt) : null,
      finishedAt: times.finishedAt ? at(times.finishedAt) : null,
      waitSeconds: seconds(times.queuedAt, times.startedAt),
      firstReplySeconds: seconds(times.queuedAt, times.firstReplyAt),
      supportSeconds: seconds(times.startedAt, times.finishedAt),
      lead: times.lead ?? false,
      createdAt: at(created),
    })
    .returning({ id: ticketTraking.id });
  return { cycleId: row.id, ticketId: id };
}

/** A rating of a rated cycle, as the rating automation records it. */
async function rate(c: Company, ticketId: number, userId: number, value: number, when: string) {
  await db
    .insert(userRatings)
    .values({ companyId: c.tenant.companyId, ticketId, userId, rate: value, createdAt: at(when) });
}

const dashboard = (c: Company, q: DashboardQuery, now: string) => getDashboard(ctxOf(c), q, at(now));
const day = (d: string) => ({ date_from: d, date_to: d });

describe('the period: whole days in the company’s time zone', () => {
  let c: Company;
  beforeAll(async () => {
    c = await company('America/Sao_Paulo');
    // 23:59 and 00:00 local (UTC−3) on either side of midnight of 10 May.
    await cycle(c, { startedAt: '2030-05-10T23:29:00-03:00', finishedAt: '2030-05-10T23:59:00-03:00' });
    await cycle(c, { startedAt: '2030-05-10T23:50:00-03:00', finishedAt: '2030-05-11T00:00:00-03:00' });
  });
  const NOW = '2030-05-20T12:00:00-03:00';

  it('a cycle closed at 23:59 local time belongs to that day, one closed at 00:00 to the next', async () => {
    const tenth = await dashboard(c, day('2030-05-10'), NOW);
    expect(tenth.counters).toMatchObject({ supportFinished: 1, avgSupportTime: 30, medianSupportTime: 30 });
    expect(tenth.period).toEqual({ from: '2030-05-10', to: '2030-05-10', timezone: 'America/Sao_Paulo' });
    const eleventh = await dashboard(c, day('2030-05-11'), NOW);
    expect(eleventh.counters).toMatchObject({ supportFinished: 1, avgSupportTime: 10 });
    const both = await dashboard(c, { date_from: '2030-05-09', date_to: '2030-05-11' }, NOW);
    expect(both.counters).toMatchObject({ supportFinished: 2, avgSupportTime: 20, medianSupportTime: 20 });
  });

  it('the same instants fall on other days in another time zone', async () => {
    await call(c.tenant.admin, 'PUT', '/settings/timezone', { value: 'Asia/Tokyo' });
    try {
      // 11:59 and 12:00 of 11 May in Tokyo (UTC+9).
      expect((await dashboard(c, day('2030-05-10'), NOW)).counters.supportFinished).toBe(0);
      expect((await dashboard(c, day('2030-05-11'), NOW)).counters).toMatchObject({
        supportFinished: 2,
        avgSupportTime: 20,
      });
      await call(c.tenant.admin, 'PUT', '/settings/timezone', { value: 'UTC' });
      // 02:59 and 03:00 UTC of 11 May.
      expect((await dashboard(c, day('2030-05-11'), NOW)).counters.supportFinished).toBe(2);
    } finally {
      await call(c.tenant.admin, 'PUT', '/settings/timezone', { value: 'America/Sao_Paulo' });
    }
  });

  it('days=N is the last N calendar days up to today, starting at local midnight', async () => {
    const d = await company('America/Sao_Paulo');
    await cycle(d, { finishedAt: '2030-05-13T23:59:59-03:00' });
    await cycle(d, { finishedAt: '2030-05-14T00:00:00-03:00' });
    await cycle(d, { finishedAt: '2030-05-20T09:00:00-03:00' });
    const now = '2030-05-20T10:00:00-03:00';
    expect((await dashboard(d, { days: 1 }, now)).counters.supportFinished).toBe(1);
    const week = await dashboard(d, { days: 7 }, now);
    expect(week.period).toMatchObject({ from: '2030-05-14', to: '2030-05-20' });
    expect(week.counters.supportFinished).toBe(2);
    expect((await dashboard(d, { days: 8 }, now)).counters.supportFinished).toBe(3);
    // "Today" is the company's: 01:00 UTC of the 21st is still the 20th in São Paulo.
    expect((await dashboard(d, { days: 1 }, '2030-05-21T01:00:00Z')).period.to).toBe('2030-05-20');
  });

  it('without dates: the current month up to today; a lone end date: from the first day of its month', async () => {
    const now = '2030-05-20T10:00:00-03:00';
    expect((await dashboard(c, {}, now)).period).toMatchObject({ from: '2030-05-01', to: '2030-05-20' });
    expect((await dashboard(c, { date_to: '2030-04-12' }, now)).period).toMatchObject({
      from: '2030-04-01',
      to: '2030-04-12',
    });
    expect((await dashboard(c, { date_from: '2030-05-10' }, now)).counters.supportFinished).toBe(2);
  });

  it('a time zone setting that names no zone falls back to the default one', async () => {
    const d = await company('Mars/Olympus_Mons');
    const reply = await dashboard(d, { days: 1 }, '2030-05-20T10:00:00Z');
    expect(reply.period.timezone).toBe('America/Sao_Paulo');
  });
});

describe('the counters', () => {
  let c: Company;
  let reply: DashboardReply;
  const NOW = '2030-06-10T18:00:00-03:00';

  /** The same story in any company: what A must show, and what B adds that A must never count. */
  async function story(x: Company) {
    // Closed in the period: support 10, 20, 60 min; waits 5, 15, 1; first replies after 7, 20, 3.
    await cycle(x, {
      userId: x.u1,
      queuedAt: '2030-06-10T10:00:00-03:00',
      startedAt: '2030-06-10T10:05:00-03:00',
      firstReplyAt: '2030-06-10T10:07:00-03:00',
      finishedAt: '2030-06-10T10:15:00-03:00',
    });
    await cycle(x, {
      userId: x.u1,
      queuedAt: '2030-06-10T11:00:00-03:00',
      startedAt: '2030-06-10T11:15:00-03:00',
      firstReplyAt: '2030-06-10T11:20:00-03:00',
      finishedAt: '2030-06-10T11:35:00-03:00',
    });
    await cycle(x, {
      userId: x.u2,
      queuedAt: '2030-06-10T12:00:00-03:00',
      startedAt: '2030-06-10T12:01:00-03:00',
      firstReplyAt: '2030-06-10T12:03:00-03:00',
      finishedAt: '2030-06-10T13:01:00-03:00',
    });
    // Closed while still pending: a finished cycle without a support time.
    await cycle(x, { queuedAt: '2030-06-10T13:00:00-03:00', finishedAt: '2030-06-10T13:30:00-03:00' });
    // Accepted in the period, still open: counts for the wait (30 min), not as finished.
    await cycle(x, { userId: x.u3, queuedAt: '2030-06-10T14:00:00-03:00', startedAt: '2030-06-10T14:30:00-03:00' });
    // Closed before the period: counted nowhere.
    await cycle(x, {
      userId: x.u1,
      queuedAt: '2030-06-08T10:00:00-03:00',
      startedAt: '2030-06-08T10:30:00-03:00',
      firstReplyAt: '2030-06-08T10:40:00-03:00',
      finishedAt: '2030-06-08T12:00:00-03:00',
    });
    // Waiting now, years ago: the live snapshots ignore the period.
    await ticket(x, '2020-01-01T10:00:00Z', { status: 'pending' });
    await ticket(x, '2020-01-01T10:00:00Z', { status: 'pending' });
  }

  beforeAll(async () => {
    c = await company('America/Sao_Paulo');
    const other = await company('America/Sao_Paulo');
    await story(c);
    // The other company has the same story twice, and more ratings: none of it reaches A.
    await story(other);
    await story(other);
    const { ticketId } = await cycle(other, {
      userId: other.u1,
      queuedAt: '2030-06-10T07:00:00-03:00',
      startedAt: '2030-06-10T09:00:00-03:00',
      firstReplyAt: '2030-06-10T09:30:00-03:00',
      finishedAt: '2030-06-10T11:00:00-03:00',
    });
    await rate(other, ticketId, other.u1, 1, '2030-06-10T11:02:00-03:00');
    reply = await dashboard(c, day('2030-06-10'), NOW);
  });

  it('supportPending and supportHappening are live snapshots of the tickets, whatever the period', async () => {
    expect(reply.counters).toMatchObject({ supportPending: 2, supportHappening: 1 });
    const longAgo = await dashboard(c, day('2001-01-01'), NOW);
    expect(longAgo.counters).toMatchObject({ supportPending: 2, supportHappening: 1, supportFinished: 0 });
    // Summed from the kept counts, not counted over the tickets.
    const sent = await recordStatements(db, () => dashboard(c, day('2030-06-10'), NOW));
    expect(sent.filter((s) => s.text.includes('"ticket_counts"'))).toHaveLength(1);
    expect(sent.filter((s) => /count\(\*\) filter/.test(s.text))).toHaveLength(0);
  });

  it('supportFinished counts the cycles closed in the period, with or without an acceptance', () => {
    expect(reply.counters.supportFinished).toBe(4);
  });

  it('avgSupportTime = closed − accepted, with its median, in minutes', () => {
    expect(reply.counters).toMatchObject({ avgSupportTime: 30, medianSupportTime: 20 });
  });

  it('avgWaitTime = accepted − queued over the cycles accepted in the period, with its median', () => {
    // 5, 15, 1 and 30 minutes.
    expect(reply.counters).toMatchObject({ avgWaitTime: 12.75, medianWaitTime: 10 });
  });

  it('first response time = first agent message − queued, with its median', () => {
    expect(reply.counters).toMatchObject({ firstResponseTime: 10, medianFirstResponseTime: 7 });
  });

  it('an empty period has no durations (null), not zeros', async () => {
    const empty = await dashboard(c, day('2030-06-09'), NOW);
    expect(empty.counters).toMatchObject({
      supportFinished: 0,
      leads: 0,
      avgSupportTime: null,
      medianSupportTime: null,
      avgWaitTime: null,
      firstResponseTime: null,
    });
  });

  it('attendants: every user of the company with the cycles they closed in the period', () => {
    const byName = Object.fromEntries(reply.attendants.map((a) => [a.name, a]));
    expect(Object.keys(byName).sort()).toEqual(
      [c.tenant.admin.user.name, c.tenant.user.user.name, 'Ulisses', 'Vera'].sort(),
    );
    expect(byName[c.tenant.user.user.name]).toMatchObject({
      id: c.u1,
      avgSupportTime: 15,
      supportFinished: 2,
      rating: null,
      online: false,
    });
    expect(byName.Ulisses).toMatchObject({ id: c.u2, avgSupportTime: 60, supportFinished: 1 });
    expect(byName.Vera).toMatchObject({ avgSupportTime: null, supportFinished: 0, rating: null });
  });
});

describe('leads: contacts whose first ticket ever falls in the period', () => {
  it('counts the cycles that opened a contact’s first ticket, queued within the period', async () => {
    const c = await company('America/Sao_Paulo');
    const other = await company('America/Sao_Paulo');
    const lead = (x: Company, queuedAt: string) => cycle(x, { lead: true, queuedAt });
    await lead(c, '2030-05-12T10:00:00-03:00');
    await lead(c, '2030-05-15T23:59:00-03:00'); // the last minute of the period
    await lead(c, '2030-05-10T00:00:00-03:00'); // its first minute
    await lead(c, '2030-05-09T23:59:59-03:00'); // the second before it
    await lead(c, '2030-05-16T00:00:00-03:00'); // the day after
    // A returning contact's new ticket, and the later cycles of a lead's ticket, are no leads.
    await cycle(c, { queuedAt: '2030-05-12T11:00:00-03:00' });
    const first = await lead(c, '2030-05-13T09:00:00-03:00');
    await cycle(c, { queuedAt: '2030-05-14T09:00:00-03:00' }, first.ticketId);
    for (let i = 0; i < 3; i++) await lead(other, '2030-05-12T10:00:00-03:00');
    const reply = await dashboard(c, { date_from: '2030-05-10', date_to: '2030-05-15' }, '2030-05-20T10:00:00-03:00');
    expect(reply.counters.leads).toBe(4);
  });
});

describe('ratings: averaged per rated cycle', () => {
  it('averages the ratings given in the period; a cycle without rating and other days change nothing', async () => {
    const c = await company('America/Sao_Paulo');
    const other = await company('America/Sao_Paulo');
    const closed = (x: Company, userId: number, hour: number) =>
      cycle(x, {
        userId,
        startedAt: `2030-07-01T${hour}:00:00-03:00`,
        finishedAt: `2030-07-01T${hour}:30:00-03:00`,
      });
    // Three cycles of the user on one day, two of them rated 5 and 4, one not rated.
    const r5 = await closed(c, c.u1, 10);
    const r4 = await closed(c, c.u1, 11);
    await closed(c, c.u1, 12);
    await rate(c, r5.ticketId, c.u1, 5, '2030-07-01T10:31:00-03:00');
    await rate(c, r4.ticketId, c.u1, 4, '2030-07-01T11:31:00-03:00');
    // Ulisses was rated, but the day before.
    const old = await cycle(c, {
      userId: c.u2,
      startedAt: '2030-06-30T10:00:00-03:00',
      finishedAt: '2030-06-30T10:10:00-03:00',
    });
    await rate(c, old.ticketId, c.u2, 1, '2030-06-30T10:11:00-03:00');
    // Another company rates its own attendant 1; and rows of its own that name A's user (which the
    // product never writes) stay its own: each sub-query is scoped by company, not only by user.
    const theirs = await closed(other, other.u1, 10);
    await rate(other, theirs.ticketId, other.u1, 1, '2030-07-01T10:31:00-03:00');
    const stray = await closed(other, c.u1, 13);
    await rate(other, stray.ticketId, c.u1, 1, '2030-07-01T13:31:00-03:00');

    const reply = await dashboard(c, day('2030-07-01'), '2030-07-02T10:00:00-03:00');
    const byId = new Map(reply.attendants.map((a) => [a.id, a]));
    expect(byId.get(c.u1)).toMatchObject({ rating: 4.5, ratings: 2, supportFinished: 3, avgSupportTime: 30 });
    expect(byId.get(c.u2)).toMatchObject({ rating: null, ratings: 0 });
    expect(byId.get(c.u3)).toMatchObject({ rating: null });
    expect(reply.attendants.map((a) => a.id)).not.toContain(other.u1);
  });
});

describe('hourly: today’s tickets by local hour', () => {
  it('24 buckets from local midnight to midnight, nothing of yesterday, tomorrow or another company', async () => {
    const c = await company('America/Sao_Paulo');
    const other = await company('America/Sao_Paulo');
    for (const when of [
      '2030-05-20T00:00:00-03:00',
      '2030-05-20T09:10:00-03:00',
      '2030-05-20T09:50:00-03:00',
      '2030-05-20T23:59:00-03:00',
      '2030-05-19T23:59:00-03:00',
      '2030-05-21T00:00:00-03:00',
    ])
      await ticket(c, when);
    await ticket(other, '2030-05-20T09:30:00-03:00');
    const reply = await dashboard(c, { days: 30 }, '2030-05-20T15:00:00-03:00');
    expect(reply.hourly).toHaveLength(24);
    expect(reply.hourly.map((h) => h.hour)).toEqual([...Array(24).keys()]);
    const counts = Object.fromEntries(reply.hourly.filter((h) => h.count).map((h) => [h.hour, h.count]));
    expect(counts).toEqual({ 0: 1, 9: 2, 23: 1 });
  });
});

describe('the tracking records the product writes', () => {
  let c: Company;
  let qa: number;
  let qb: number;
  /** Whole seconds between two stored times, as the tracking rounds them. */
  const spanOf = (from: Date | null, to: Date | null) =>
    from && to ? Math.round((to.getTime() - from.getTime()) / 1000) : null;
  const cycles = (ticketId: number) =>
    db.select().from(ticketTraking).where(eq(ticketTraking.ticketId, ticketId)).orderBy(asc(ticketTraking.id));
  beforeAll(async () => {
    c = await company('America/Sao_Paulo');
    qa = (await call(c.tenant.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A1' })).json().id;
    qb = (await call(c.tenant.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B1' })).json().id;
    await call(c.tenant.admin, 'PUT', `/users/${c.u1}`, { queueIds: [qb] });
  });

  const pendingTicketOf = async (number: string) => {
    await contactWrites(server, c.tenant.admin, c.whatsappId, { number, name: `Cliente ${number}`, body: 'oi' });
    const list = (await call(c.tenant.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`)).json().tickets;
    expect(list).toHaveLength(1);
    return list[0] as { id: number; contactId: number };
  };

  it('a ticket transferred twice keeps one cycle that counts both transfers, and is finished once', async () => {
    const before = await dashboard(c, { days: 1 }, new Date().toISOString());
    const contactId = (
      await call(c.tenant.admin, 'POST', '/contacts', { name: 'Transferido', number: '5511977700001' })
    ).json().id;
    const opened = (await call(c.tenant.admin, 'POST', '/tickets', { contactId, status: 'open' })).json();
    expect((await cycles(opened.id))[0]).toMatchObject({ transfers: 0, transferredAt: null });
    expect((await call(c.tenant.admin, 'PUT', `/tickets/${opened.id}`, { queueId: qa })).statusCode).toBe(200);
    const second = await call(c.tenant.admin, 'PUT', `/tickets/${opened.id}`, { queueId: qb, userId: c.u1 });
    expect(second.json()).toMatchObject({ status: 'open', userId: c.u1 });
    const [transferred] = await cycles(opened.id);
    expect(transferred).toMatchObject({ transfers: 2, userId: c.u1, finishedAt: null });
    expect(transferred.transferredAt).toBeInstanceOf(Date);
    expect((await call(c.tenant.admin, 'PUT', `/tickets/${opened.id}`, { status: 'closed' })).statusCode).toBe(200);
    const [closed] = await cycles(opened.id);
    expect(closed).toMatchObject({
      transfers: 2,
      waitSeconds: 0,
      supportSeconds: spanOf(closed.startedAt, closed.finishedAt),
    });
    expect(await cycles(opened.id)).toHaveLength(1);
    const after = await dashboard(c, { days: 1 }, new Date().toISOString());
    expect(after.counters.supportFinished).toBe(before.counters.supportFinished + 1);
    expect(after.attendants.find((a) => a.id === c.u1)?.supportFinished).toBe(1);
  });

  it('closing and reopening is no transfer, and accepting one’s own pending ticket neither', async () => {
    const t = await pendingTicketOf('5511977700002');
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'open' });
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'closed' });
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'open' });
    expect((await cycles(t.id)).map((x) => x.transfers)).toEqual([0, 0]);
  });

  it('each transition stores its duration in seconds: the wait on acceptance, the support time on closing', async () => {
    const t = await pendingTicketOf('5511977700007');
    const [queued] = await cycles(t.id);
    expect(queued).toMatchObject({ waitSeconds: null, supportSeconds: null, firstReplySeconds: null });
    // Queued a while ago: the stored wait is the epoch difference, not the time of the request.
    await db
      .update(ticketTraking)
      .set({ queuedAt: new Date(Date.now() - 125_000) })
      .where(eq(ticketTraking.id, queued.id));
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'open' });
    const [accepted] = await cycles(t.id);
    expect(accepted.waitSeconds).toBe(spanOf(accepted.queuedAt, accepted.startedAt));
    expect(accepted.waitSeconds).toBeGreaterThanOrEqual(125);
    // Accepting again (another agent takes it) keeps the first wait.
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { userId: c.u1 });
    expect((await cycles(t.id))[0].waitSeconds).toBe(accepted.waitSeconds);
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'closed' });
    const [closed] = await cycles(t.id);
    expect(closed.supportSeconds).toBe(spanOf(closed.startedAt, closed.finishedAt));
  });

  it('a ticket closed while pending has no support time', async () => {
    const t = await pendingTicketOf('5511977700008');
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'closed' });
    const [closed] = await cycles(t.id);
    expect(closed.finishedAt).toBeInstanceOf(Date);
    expect(closed).toMatchObject({ startedAt: null, supportSeconds: null });
  });

  it('the first agent message of a cycle sets firstReplyAt once; the automatic greeting does not', async () => {
    await call(c.tenant.admin, 'PUT', '/settings/sendGreetingAccepted', { value: 'enabled' });
    const t = await pendingTicketOf('5511977700003');
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'open' });
    // The greeting went out automatically on acceptance.
    await waitUntil(
      async () => (await call(c.tenant.admin, 'GET', `/messages/${t.id}`)).json().messages as { fromMe: boolean }[],
      (messages) => messages.some((m) => m.fromMe),
    );
    expect((await cycles(t.id))[0].firstReplyAt).toBeNull();
    expect((await call(c.tenant.admin, 'POST', `/messages/${t.id}`, { body: 'Olá!' })).statusCode).toBe(201);
    const [first] = await cycles(t.id);
    expect(first.firstReplyAt).toBeInstanceOf(Date);
    expect(first.firstReplySeconds).toBe(spanOf(first.queuedAt, first.firstReplyAt));
    expect((await call(c.tenant.admin, 'POST', `/messages/${t.id}`, { body: 'Mais uma' })).statusCode).toBe(201);
    expect((await cycles(t.id))[0].firstReplyAt).toEqual(first.firstReplyAt);
    await call(c.tenant.admin, 'PUT', '/settings/sendGreetingAccepted', { value: 'disabled' });
    const reply = await dashboard(c, { days: 1 }, new Date().toISOString());
    expect(reply.counters.firstResponseTime).not.toBeNull();
  });

  it('a message written on the phone answers the contact; one that starts a conversation does not', async () => {
    const t = await pendingTicketOf('5511977700004');
    const phone = (number: string, providerId: string) => ({
      message: {
        companyId: c.tenant.companyId,
        whatsappId: c.whatsappId,
        providerId,
        number,
        pushName: 'Cliente',
        fromMe: true,
        body: 'respondido pelo celular',
        mediaType: 'chat' as const,
      },
    });
    const log = pino({ level: 'silent' });
    await (await storeInbound({ db, realtime: server.deps.realtime, log }, [phone('5511977700004', 'PHONE-1')]))
      .announced;
    expect((await cycles(t.id))[0].firstReplyAt).toBeInstanceOf(Date);
    const { results, announced } = await storeInbound({ db, realtime: server.deps.realtime, log }, [
      phone('5511977700005', 'PHONE-2'),
    ]);
    await announced;
    const started = results[0];
    if ('skipped' in started) throw new Error('skipped');
    expect((await cycles(started.ticketId))[0].firstReplyAt).toBeNull();
  });

  it('a contact’s first ticket ever opens a lead; its later cycles and tickets do not', async () => {
    const lead = async (ticketId: number) => (await cycles(ticketId)).map((x) => x.lead);
    const before = (await dashboard(c, { days: 1 }, new Date().toISOString())).counters.leads;
    // A stranger writes: a new contact, a new ticket, a lead.
    const first = await pendingTicketOf('5511977700009');
    expect(await lead(first.id)).toEqual([true]);
    // Closed, then the contact writes again: the same ticket reopens in a new cycle, no new lead.
    await call(c.tenant.admin, 'PUT', `/tickets/${first.id}`, { status: 'closed' });
    await contactWrites(server, c.tenant.admin, c.whatsappId, { number: '5511977700009', body: 'de novo' });
    expect(await lead(first.id)).toEqual([true, false]);
    // The same contact on another connection: a second ticket, still no new lead.
    await call(c.tenant.admin, 'PUT', `/tickets/${first.id}`, { status: 'closed' });
    const second = await connectedSandbox(server, c.tenant.admin);
    const opened = await call(c.tenant.admin, 'POST', '/tickets', {
      contactId: first.contactId,
      whatsappId: second,
      status: 'open',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(await lead(opened.json().id)).toEqual([false]);
    // An agent starting a conversation with a contact who never had a ticket: a lead.
    const fresh = (await call(c.tenant.admin, 'POST', '/contacts', { name: 'Novo', number: '5511977700010' })).json();
    const started = (await call(c.tenant.admin, 'POST', '/tickets', { contactId: fresh.id, status: 'open' })).json();
    expect(await lead(started.id)).toEqual([true]);
    expect((await dashboard(c, { days: 1 }, new Date().toISOString())).counters.leads).toBe(before + 2);
  });

  it('accepting and closing move the live counters without any period', async () => {
    const now = () => new Date().toISOString();
    const t = await pendingTicketOf('5511977700006');
    const before = (await dashboard(c, { days: 1 }, now())).counters;
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'open' });
    const accepted = (await dashboard(c, { days: 1 }, now())).counters;
    expect(accepted.supportPending).toBe(before.supportPending - 1);
    expect(accepted.supportHappening).toBe(before.supportHappening + 1);
    await call(c.tenant.admin, 'PUT', `/tickets/${t.id}`, { status: 'closed' });
    const closed = (await dashboard(c, { days: 1 }, now())).counters;
    expect(closed.supportHappening).toBe(before.supportHappening);
    expect(closed.supportFinished).toBe(before.supportFinished + 1);
  });
});

describe('GET /dashboard', () => {
  let c: Company;
  beforeAll(async () => {
    c = await company('America/Sao_Paulo');
  });

  it('answers the admin with counters, attendants and 24 hourly buckets', async () => {
    const res = await call(c.tenant.admin, 'GET', '/dashboard?days=7');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as DashboardReply;
    expect(body.counters).toMatchObject({ supportPending: 0, supportHappening: 0, supportFinished: 0, leads: 0 });
    expect(body.hourly).toHaveLength(24);
    expect(body.attendants.map((a) => a.id)).toContain(c.tenant.admin.user.id);
    expect(body.attendants[0]).toEqual(
      expect.objectContaining({ name: expect.any(String), avatar: null, online: expect.any(Boolean) }),
    );
  });

  it('refuses a plain user (ERR_NO_PERMISSION) before reading the query', async () => {
    for (const url of ['/dashboard', '/dashboard?days=abc']) {
      const res = await call(c.tenant.user, 'GET', url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
  });

  it.each([
    ['days and dates together', '/dashboard?days=7&date_from=2030-01-01'],
    ['a start after the end', '/dashboard?date_from=2030-01-02&date_to=2030-01-01'],
    ['a day that does not exist', '/dashboard?date_from=2030-02-30'],
    ['year zero', '/dashboard?date_to=0000-01-01'],
    ['zero days', '/dashboard?days=0'],
  ])('refuses %s with 400 ERR_VALIDATION', async (_, url) => {
    const res = await call(c.tenant.admin, 'GET', url);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });
});
