import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { defaultCompanySchedules } from '../modules/companies/companies.service.js';
import { messages } from '../modules/messages/messages.schema.js';
import { closedThroughout, isOpen } from './business-hours.js';

/** Business hours of DOMAIN §3: the pure schedule check, then the out-of-hours step seen from the phone. */

const SP = 'America/Sao_Paulo'; // UTC-3 all year
const at = (iso: string) => new Date(iso);

describe('isOpen', () => {
  const week = defaultCompanySchedules;

  it('weekdays 08:00–18:00: start inclusive, end exclusive, in the company time zone', () => {
    // Monday 2026-11-23 in São Paulo.
    expect(isOpen(week, at('2026-11-23T10:59:00Z'), SP)).toBe(false); // 07:59
    expect(isOpen(week, at('2026-11-23T11:00:00Z'), SP)).toBe(true); // 08:00
    expect(isOpen(week, at('2026-11-23T20:59:59Z'), SP)).toBe(true); // 17:59:59
    expect(isOpen(week, at('2026-11-23T21:00:00Z'), SP)).toBe(false); // 18:00
  });

  it('Saturday 08:00–12:00 and the 00:00–00:00 Sunday closed all day', () => {
    expect(isOpen(week, at('2026-11-21T14:59:00Z'), SP)).toBe(true); // Sat 11:59
    expect(isOpen(week, at('2026-11-21T15:00:00Z'), SP)).toBe(false); // Sat 12:00
    expect(isOpen(week, at('2026-11-22T03:00:00Z'), SP)).toBe(false); // Sun 00:00
    expect(isOpen(week, at('2026-11-22T15:00:00Z'), SP)).toBe(false); // Sun 12:00
    expect(isOpen(week, at('2026-11-23T02:59:00Z'), SP)).toBe(false); // Sun 23:59
  });

  it('the weekday and hour come from the zone, not UTC', () => {
    // 2026-11-22T23:00Z is Sunday 20:00 in São Paulo but Monday 08:00 in Tokyo.
    expect(isOpen(week, at('2026-11-22T23:00:00Z'), SP)).toBe(false);
    expect(isOpen(week, at('2026-11-22T23:00:00Z'), 'Asia/Tokyo')).toBe(true);
    expect(isOpen(week, at('2026-11-22T22:59:00Z'), 'Asia/Tokyo')).toBe(false); // Mon 07:59 JST
    // An unknown zone falls back to São Paulo.
    expect(isOpen(week, at('2026-11-22T23:00:00Z'), 'Nowhere/Town')).toBe(false);
  });

  it('empty times mean open all day; no schedule or no entry for the day means open', () => {
    const open = week.map((d) => (d.weekdayEn === 'sunday' ? { ...d, startTime: '', endTime: '' } : d));
    expect(isOpen(open, at('2026-11-22T03:00:00Z'), SP)).toBe(true); // Sun 00:00
    expect(isOpen(open, at('2026-11-23T02:59:00Z'), SP)).toBe(true); // Sun 23:59
    expect(isOpen([], at('2026-11-22T15:00:00Z'), SP)).toBe(true);
    expect(isOpen(null, at('2026-11-22T15:00:00Z'), SP)).toBe(true);
    expect(isOpen(week.slice(0, 6), at('2026-11-22T15:00:00Z'), SP)).toBe(true);
  });

  it('an end before the start runs to midnight and from midnight of the same weekday', () => {
    const night = week.map((d) => (d.weekdayEn === 'monday' ? { ...d, startTime: '22:00', endTime: '06:00' } : d));
    expect(isOpen(night, at('2026-11-23T08:59:00Z'), SP)).toBe(true); // Mon 05:59
    expect(isOpen(night, at('2026-11-23T09:00:00Z'), SP)).toBe(false); // Mon 06:00
    expect(isOpen(night, at('2026-11-24T01:00:00Z'), SP)).toBe(true); // Mon 22:00
  });

  it('closedThroughout: true only while no open minute has passed since the notification', () => {
    const monNight = at('2026-11-23T22:00:00Z'); // Mon 19:00
    expect(closedThroughout(week, monNight, at('2026-11-24T10:59:00Z'), SP)).toBe(true); // Tue 07:59
    expect(closedThroughout(week, monNight, at('2026-11-24T21:30:00Z'), SP)).toBe(false); // Tue 18:30
    // Saturday noon to Monday 07:59 is one closed period (44 hours).
    expect(closedThroughout(week, at('2026-11-21T15:00:00Z'), at('2026-11-23T10:59:00Z'), SP)).toBe(true);
    expect(closedThroughout(week, at('2026-11-21T15:00:00Z'), at('2026-11-23T11:00:00Z'), SP)).toBe(false);
  });
});

let server: TestServer;
let t: Tenant;
let clock = at('2026-11-24T01:00:00Z'); // Monday 22:00 in São Paulo
let seq = 0;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true, now: () => clock });
  t = await createTenant(server, { plan: { queues: 20, connections: 10 } });
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function setScheduleType(value: 'disabled' | 'company' | 'queue') {
  const res = await call(t.admin, 'PUT', '/settings/scheduleType', { value });
  expect(res.statusCode, res.body).toBe(200);
}

async function queue(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const color = `#${(0x200000 + ++seq).toString(16)}`;
  const res = await call(t.admin, 'POST', '/queue', { name, color, greetingMessage: '', ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Automatic messages stored on the contact's ticket. */
async function automaticCount(number: string): Promise<number> {
  const res = await call(t.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`);
  const [ticket] = res.json().tickets as { id: number }[];
  const rows = await server.deps.database.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.ticketId, ticket.id), eq(messages.isAutomatic, true)));
  return rows.length;
}

/** The contact writes; resolves with what the phone received because of it (in order). */
function phone(whatsappId: number, number: string, name = 'Ana Maria') {
  let seen = 0;
  return async (body: string, expected: number): Promise<string[]> => {
    await contactWrites(server, t.admin, whatsappId, { number, name, body });
    const got = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, number),
      (list) => list.length >= seen + expected,
    );
    const fresh = got.slice(seen).map((m) => m.body);
    seen = got.length;
    return fresh;
  };
}

describe('out-of-hours step (DOMAIN §3)', () => {
  it('company mode: at night the message is sent once per closed period and the menu does not run', async () => {
    await setScheduleType('company');
    const put = await call(t.admin, 'PUT', `/companies/${t.companyId}/schedules`, {
      schedules: defaultCompanySchedules,
    });
    expect(put.statusCode, put.body).toBe(200);
    const [a, b] = [await queue('Vendas', { orderQueue: 1 }), await queue('Suporte', { orderQueue: 2 })];
    const w = await connectedSandbox(server, t.admin, {
      greetingMessage: 'Escolha:',
      outOfHoursMessage: 'Estamos fechados, {{firstName}}. Voltamos às 08:00.',
      queueIds: [a, b],
    });
    const number = '5511910000001';
    const say = phone(w, number);

    clock = at('2026-11-24T01:00:00Z'); // Monday 22:00
    expect(await say('oi', 1)).toEqual(['Estamos fechados, Ana. Voltamos às 08:00.']);
    clock = at('2026-11-24T09:30:00Z'); // Tuesday 06:30, the same closed period
    await say('alguém aí?', 0);
    expect(await automaticCount(number)).toBe(1);
    expect(await phoneOf(server, t.admin, w, number)).toHaveLength(1);

    // Open: the greeting and menu flow runs.
    clock = at('2026-11-24T13:00:00Z'); // Tuesday 10:00
    expect(await say('bom dia', 1)).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);

    // A new closed period notifies again.
    clock = at('2026-11-25T00:00:00Z'); // Tuesday 21:00
    expect(await say('ainda aí?', 1)).toEqual(['Estamos fechados, Ana. Voltamos às 08:00.']);
    expect(await automaticCount(number)).toBe(3);
  });

  it('company mode during the day: the menu runs and nothing is said about hours', async () => {
    await setScheduleType('company');
    const [a, b] = [await queue('Dia A', { orderQueue: 1 }), await queue('Dia B', { orderQueue: 2 })];
    const w = await connectedSandbox(server, t.admin, {
      greetingMessage: 'Olá!',
      outOfHoursMessage: 'Fechado.',
      queueIds: [a, b],
    });
    clock = at('2026-11-23T15:00:00Z'); // Monday 12:00
    const say = phone(w, '5511910000002');
    expect(await say('oi', 1)).toEqual(['Olá!\n\n*[ 1 ]* - Dia A\n*[ 2 ]* - Dia B']);
  });

  it("queue mode: the ticket's queue hours and message decide, not the company's", async () => {
    await setScheduleType('queue');
    const nineToTen = defaultCompanySchedules.map((d) => ({ ...d, startTime: '09:00', endTime: '10:00' }));
    const q = await queue('Plantão', {
      greetingMessage: 'Bem-vindo ao plantão.',
      outOfHoursMessage: 'O plantão atende das 09:00 às 10:00, {{firstName}}.',
      schedules: nineToTen,
    });
    const w = await connectedSandbox(server, t.admin, { outOfHoursMessage: 'Conexão fechada.', queueIds: [q] });
    const number = '5511910000003';
    const say = phone(w, number);

    clock = at('2026-11-23T15:00:00Z'); // Monday 12:00: company open, queue closed
    // No queue yet: the menu runs and assigns the only queue.
    expect(await say('oi', 1)).toEqual(['Bem-vindo ao plantão.']);
    expect(await say('preciso de ajuda', 1)).toEqual(['O plantão atende das 09:00 às 10:00, Ana.']);
    await say('olá?', 0);
    expect(await automaticCount(number)).toBe(2);

    // Within the queue's hours nothing is said about hours.
    clock = at('2026-11-24T12:30:00Z'); // Tuesday 09:30
    await say('e agora?', 0);
    expect(await automaticCount(number)).toBe(2);
  });

  it("queue mode: a queue without a message falls back to the connection's", async () => {
    await setScheduleType('queue');
    const closed = defaultCompanySchedules.map((d) => ({ ...d, startTime: '00:00', endTime: '00:00' }));
    const q = await queue('Sem texto', { greetingMessage: 'Oi.', schedules: closed });
    const w = await connectedSandbox(server, t.admin, { outOfHoursMessage: 'Conexão fechada.', queueIds: [q] });
    clock = at('2026-11-23T15:00:00Z');
    const say = phone(w, '5511910000004');
    expect(await say('oi', 1)).toEqual(['Oi.']);
    expect(await say('alô', 1)).toEqual(['Conexão fechada.']);
  });
});
