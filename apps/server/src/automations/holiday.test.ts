import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { messages } from '../modules/messages/messages.schema.js';
import { inHoliday } from './holiday.js';

/** The connection's holiday message, seen from the phone (São Paulo is UTC-3 all year). */

const at = (iso: string) => new Date(iso);

describe('inHoliday', () => {
  it('inclusive period; no end is a single day; no start is never', () => {
    expect(inHoliday('2026-12-24', '2026-12-24', '2026-12-25')).toBe(true);
    expect(inHoliday('2026-12-25', '2026-12-24', '2026-12-25')).toBe(true);
    expect(inHoliday('2026-12-26', '2026-12-24', '2026-12-25')).toBe(false);
    expect(inHoliday('2026-12-23', '2026-12-24', '2026-12-25')).toBe(false);
    expect(inHoliday('2026-12-31', '2026-12-31', null)).toBe(true);
    expect(inHoliday('2027-01-01', '2026-12-31', null)).toBe(false);
    expect(inHoliday('2026-12-31', null, null)).toBe(false);
  });
});

let server: TestServer;
let t: Tenant;
let clock = at('2026-12-24T15:00:00Z');
let seq = 0;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true, now: () => clock });
  t = await createTenant(server, { plan: { queues: 20, connections: 10 } });
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function queue(tenant: Tenant, name: string): Promise<number> {
  const color = `#${(0x300000 + ++seq).toString(16)}`;
  const res = await call(tenant.admin, 'POST', '/queue', { name, color, greetingMessage: '', orderQueue: seq });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A connection with two queues (so the menu would answer) and the given holiday. */
async function holidayConnection(tenant: Tenant, holiday: Record<string, unknown>) {
  const ids = [await queue(tenant, `Vendas ${seq}`), await queue(tenant, `Suporte ${seq}`)];
  return connectedSandbox(server, tenant.admin, { greetingMessage: 'Escolha:', queueIds: ids, ...holiday });
}

async function automaticCount(tenant: Tenant, number: string): Promise<number> {
  const res = await call(tenant.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`);
  const [ticket] = res.json().tickets as { id: number }[];
  const rows = await server.deps.database.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.ticketId, ticket.id), eq(messages.isAutomatic, true)));
  return rows.length;
}

/** The contact writes; resolves with what the phone received because of it. */
function phone(tenant: Tenant, whatsappId: number, number: string) {
  let seen = 0;
  return async (body: string, expected: number): Promise<string[]> => {
    await contactWrites(server, tenant.admin, whatsappId, { number, name: 'Ana Maria', body });
    const got = await waitUntil(
      () => phoneOf(server, tenant.admin, whatsappId, number),
      (list) => list.length >= seen + expected,
    );
    const fresh = got.slice(seen).map((m) => m.body);
    seen = got.length;
    return fresh;
  };
}

const isMenu = (bodies: string[]) => bodies.length === 1 && bodies[0].startsWith('Escolha:\n\n*[ 1 ]*');

describe('holiday step', () => {
  it('inside the period: the holiday message once and no menu; the day after, the menu', async () => {
    const w = await holidayConnection(t, {
      queueHolidayMessage: 'Feriado, {{firstName}}! Voltamos dia 26.',
      queueHolidayDate: '2026-12-24',
      queueHolidayEnd: '2026-12-25',
    });
    const number = '5511920000001';
    const say = phone(t, w, number);
    clock = at('2026-12-24T15:00:00Z'); // 24th 12:00
    expect(await say('oi', 1)).toEqual(['Feriado, Ana! Voltamos dia 26.']);
    clock = at('2026-12-25T18:00:00Z'); // 25th 15:00, the same period
    await say('alguém?', 0);
    expect(await automaticCount(t, number)).toBe(1);
    expect(await phoneOf(server, t.admin, w, number)).toHaveLength(1);

    clock = at('2026-12-26T13:00:00Z'); // 26th 10:00
    expect(isMenu(await say('bom dia', 1))).toBe(true);
  });

  it('no end: a single day, until midnight in the company zone', async () => {
    const w = await holidayConnection(t, { queueHolidayMessage: 'Réveillon.', queueHolidayDate: '2026-12-31' });
    clock = at('2027-01-01T02:59:00Z'); // 31st 23:59 in São Paulo, already Jan 1st in UTC
    expect(await phone(t, w, '5511920000002')('oi', 1)).toEqual(['Réveillon.']);
    clock = at('2027-01-01T03:00:00Z'); // Jan 1st 00:00
    expect(isMenu(await phone(t, w, '5511920000003')('oi', 1))).toBe(true);
  });

  it("the day comes from the company's time zone, not UTC", async () => {
    const w = await holidayConnection(t, { queueHolidayMessage: 'Natal.', queueHolidayDate: '2026-12-25' });
    clock = at('2026-12-25T01:00:00Z'); // UTC 25th, São Paulo 24th 22:00
    expect(isMenu(await phone(t, w, '5511920000004')('oi', 1))).toBe(true);
    clock = at('2026-12-26T01:00:00Z'); // UTC 26th, São Paulo 25th 22:00
    expect(await phone(t, w, '5511920000005')('oi', 1)).toEqual(['Natal.']);

    // Setting `timezone`: Tokyo (UTC+9) is on the 25th from 2026-12-24T15:00Z.
    const tokyo = await createTenant(server, { plan: { queues: 20, connections: 10 } });
    const res = await call(tokyo.admin, 'PUT', '/settings/timezone', { value: 'Asia/Tokyo' });
    expect(res.statusCode, res.body).toBe(200);
    const wt = await holidayConnection(tokyo, { queueHolidayMessage: 'Natal.', queueHolidayDate: '2026-12-25' });
    clock = at('2026-12-24T16:00:00Z'); // São Paulo 24th 13:00, Tokyo 25th 01:00
    expect(await phone(tokyo, wt, '5511920000006')('oi', 1)).toEqual(['Natal.']);
  });

  it('an empty message does nothing: the menu runs', async () => {
    const w = await holidayConnection(t, { queueHolidayMessage: '  ', queueHolidayDate: '2026-12-25' });
    clock = at('2026-12-25T15:00:00Z');
    expect(isMenu(await phone(t, w, '5511920000007')('oi', 1))).toBe(true);
  });
});
