import type { Schedule } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf } from '../../../test/sandbox-helpers.js';
import type { ChannelManager } from '../../channels/manager.js';
import { AppError } from '../../platform/errors/app-error.js';
import { messages } from '../messages/messages.schema.js';
import { schedules } from './schedules.schema.js';
import {
  cancelOnReply,
  defaultSchedulePolicy,
  LATE_REASON,
  runSchedule,
  type SenderDeps,
  sweepSchedules,
} from './schedules.sender.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let whatsappId: number;
let deps: SenderDeps;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  server = await createTestServer();
  t = await createTenant(server);
  other = await createTenant(server);
  whatsappId = await connectedSandbox(server, t.admin);
  deps = { ...server.deps, db: server.deps.database.db, log: pino({ level: 'silent' }) };
});
afterAll(() => server.close());

const call = (s: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.call(method, url, s, payload);
let seq = 0;
async function contact(session: Session = t.admin) {
  const number = `55119${String(70000000 + ++seq).padStart(8, '0')}`;
  const res = await call(session, 'POST', '/contacts', { name: `Cliente ${seq}`, number });
  expect(res.statusCode, res.body).toBe(200 + (res.statusCode === 201 ? 1 : 0));
  return res.json() as { id: number; number: string; name: string };
}
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
async function schedule(session: Session, body: Record<string, unknown>) {
  const res = await call(session, 'POST', '/schedules', {
    body: 'Olá {{firstName}}, lembrete',
    sendAt: inAnHour(),
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Schedule;
}
/** Makes a schedule due `lateMs` ago, as if the server had been down. */
const dueAgo = (id: number, lateMs: number) =>
  deps.db
    .update(schedules)
    .set({ sendAt: new Date(Date.now() - lateMs) })
    .where(eq(schedules.id, id));
const rowOf = async (id: number) => (await deps.db.select().from(schedules).where(eq(schedules.id, id)))[0];

describe('CRUD and validation', () => {
  it('creates with the stored connection, lists, searches, edits and deletes', async () => {
    const c = await contact();
    const s = await schedule(t.admin, { contactId: c.id });
    expect(s).toMatchObject({ status: 'PENDENTE', contact: { name: c.name }, whatsappId, recurrence: 'none' });
    expect(s.whatsapp?.id).toBe(whatsappId);
    const list = await call(t.admin, 'GET', `/schedules/?search=${encodeURIComponent(c.name)}&page=1`);
    expect(list.json()).toMatchObject({ count: 1, hasMore: false });
    expect(list.json().schedules[0].id).toBe(s.id);
    const put = await call(t.admin, 'PUT', `/schedules/${s.id}`, { body: 'Texto novo e longo', recurrence: 'weekly' });
    expect(put.json()).toMatchObject({ body: 'Texto novo e longo', recurrence: 'weekly' });
    expect((await call(t.admin, 'DELETE', `/schedules/${s.id}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/schedules/${s.id}`)).statusCode).toBe(404);
  });

  it('refuses a short body, a missing contact or sendAt, and a time less than a minute ahead', async () => {
    const c = await contact();
    const short = await call(t.admin, 'POST', '/schedules', { body: 'oi', contactId: c.id, sendAt: inAnHour() });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Mensagem muito curta');
    expect((await call(t.admin, 'POST', '/schedules', { body: 'Olá mundo', sendAt: inAnHour() })).statusCode).toBe(400);
    expect((await call(t.admin, 'POST', '/schedules', { body: 'Olá mundo', contactId: c.id })).statusCode).toBe(400);
    const soon = await call(t.admin, 'POST', '/schedules', {
      body: 'Olá mundo',
      contactId: c.id,
      sendAt: new Date(Date.now() + 30_000).toISOString(),
    });
    expect(soon.json()).toMatchObject({ error: 'ERR_SCHEDULE_SEND_AT' });
  });

  it('reads a wall-clock sendAt in the company time zone (America/Sao_Paulo, UTC-3)', async () => {
    const c = await contact();
    const s = await schedule(t.admin, { contactId: c.id, sendAt: '2099-01-02 10:00:00' });
    expect(s.sendAt).toBe('2099-01-02T13:00:00.000Z');
  });

  it('takes a PNG or JPEG attachment by its bytes and removes it', async () => {
    const c = await contact();
    const s = await schedule(t.admin, { contactId: c.id });
    const form = (data: Buffer, name: string) => {
      const boundary = 'xBOUNDARYx';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return server.app.inject({
        method: 'POST',
        url: `/schedules/${s.id}/media-upload`,
        headers: { ...t.admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    };
    expect((await form(Buffer.from('not an image'), 'x.png')).json()).toMatchObject({ error: 'ERR_INVALID_IMAGE' });
    const ok = await form(PNG, 'foto.png');
    expect(ok.json()).toMatchObject({ mediaName: 'foto.png' });
    expect(ok.json().mediaPath).toMatch(/^\/media\//);
    const removed = await call(t.admin, 'DELETE', `/schedules/${s.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
  });
});

describe('roles, tenants and the plan', () => {
  it("an agent sees and edits their own schedules only; the admin all of the company's", async () => {
    const c = await contact();
    const mine = await schedule(t.user, { contactId: c.id });
    const admins = await schedule(t.admin, { contactId: c.id });
    const agentList = (await call(t.user, 'GET', '/schedules')).json().schedules.map((s: Schedule) => s.id);
    expect(agentList).toContain(mine.id);
    expect(agentList).not.toContain(admins.id);
    expect((await call(t.user, 'GET', `/schedules/${admins.id}`)).statusCode).toBe(404);
    expect((await call(t.user, 'PUT', `/schedules/${admins.id}`, { body: 'Tentativa de edição' })).statusCode).toBe(
      404,
    );
    expect((await call(t.user, 'DELETE', `/schedules/${admins.id}`)).statusCode).toBe(404);
    expect((await call(t.admin, 'GET', `/schedules/${mine.id}`)).statusCode).toBe(200);
  });

  it("another company's schedule, contact or connection is not found", async () => {
    const c = await contact();
    const s = await schedule(t.admin, { contactId: c.id });
    expect((await call(other.admin, 'GET', `/schedules/${s.id}`)).statusCode).toBe(404);
    expect((await call(other.admin, 'DELETE', `/schedules/${s.id}`)).statusCode).toBe(404);
    expect((await call(other.admin, 'GET', '/schedules')).json().count).toBe(0);
    const theirs = await call(other.admin, 'POST', '/schedules', {
      body: 'Olá mundo',
      contactId: c.id,
      sendAt: inAnHour(),
    });
    expect(theirs.json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    const c2 = await contact();
    const foreignWapp = await call(other.admin, 'POST', '/schedules', {
      body: 'Olá mundo',
      contactId: (await contact(other.admin)).id,
      sendAt: inAnHour(),
      whatsappId,
    });
    expect(foreignWapp.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect(c2.id).toBeGreaterThan(0);
  });

  it('is refused to every member of a company whose plan lacks useSchedules', async () => {
    const off = await createTenant(server, { plan: { useSchedules: false } });
    for (const session of [off.admin, off.user]) {
      for (const [method, url] of [
        ['GET', '/schedules'],
        ['GET', '/schedules/1'],
        ['POST', '/schedules'],
        ['PUT', '/schedules/1'],
        ['DELETE', '/schedules/1'],
        ['POST', '/schedules/1/media-upload'],
        ['DELETE', '/schedules/1/media-upload'],
      ] as const) {
        const res = await call(session, method, url, method === 'POST' || method === 'PUT' ? {} : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useSchedules' });
      }
    }
  });
});

describe('sending (DOMAIN §7)', () => {
  it('a job run twice sends once, into the ticket history as the creator, with templates rendered', async () => {
    const c = await contact();
    const s = await schedule(t.user, { contactId: c.id });
    await dueAgo(s.id, 1000);
    const [first, second] = await Promise.all([runSchedule(deps, s.id), runSchedule(deps, s.id)]);
    expect([first, second].sort()).toEqual(['sent', 'skipped']);
    expect(await runSchedule(deps, s.id)).toBe('skipped');
    const phone = await phoneOf(server, t.admin, whatsappId, c.number);
    expect(phone.map((m) => m.body)).toEqual([`Olá ${c.name.split(' ')[0]}, lembrete`]);
    const row = await rowOf(s.id);
    expect(row).toMatchObject({ status: 'ENVIADA', attempts: 1 });
    expect(row.sentAt).not.toBeNull();
    const [m] = await deps.db
      .select()
      .from(messages)
      .where(eq(messages.id, row.messageId as number));
    expect(m).toMatchObject({ userId: t.user.user.id, fromMe: true, sendStatus: 'sent', contactId: c.id });
    const history = await call(t.admin, 'GET', `/messages/${m.ticketId}`);
    expect(history.json().messages.map((x: { id: number }) => x.id)).toContain(m.id);
    expect(history.json().ticket.status).toBe('pending');
    expect(history.json().ticket.userId).toBeNull();
    // A sent schedule is not editable any more.
    expect((await call(t.user, 'PUT', `/schedules/${s.id}`, { body: 'Outro texto' })).json()).toMatchObject({
      error: 'ERR_SCHEDULE_SENT',
    });
  });

  it('the sweeper sends a schedule due while the server was down once (≤ 24 h); 25 h late becomes ERRO', async () => {
    const c = await contact();
    const late = await schedule(t.admin, { contactId: c.id, body: 'Atrasado demais' });
    const recent = await schedule(t.admin, { contactId: c.id, body: 'Atrasado 23h' });
    await dueAgo(late.id, 25 * 3_600_000);
    await dueAgo(recent.id, 23 * 3_600_000);
    await sweepSchedules(deps);
    await sweepSchedules(deps);
    expect(await rowOf(late.id)).toMatchObject({ status: 'ERRO', lastError: LATE_REASON });
    expect(await rowOf(recent.id)).toMatchObject({ status: 'ENVIADA' });
    const bodies = (await phoneOf(server, t.admin, whatsappId, c.number)).map((m) => m.body);
    expect(bodies).toEqual(['Atrasado 23h']);
  });

  it('classifies failures: transient ones retry with backoff up to 5 attempts, not on WhatsApp fails at once', async () => {
    const failing = (err: unknown) =>
      ({
        ...deps,
        channels: { get: () => ({ sendText: async () => Promise.reject(err) }) } as unknown as ChannelManager,
      }) as SenderDeps;
    const c = await contact();
    const s = await schedule(t.admin, { contactId: c.id });
    await dueAgo(s.id, 1000);
    const dropped = failing(new AppError('ERR_SENDING_WAPP_MSG'));
    for (let i = 1; i <= 4; i++) {
      expect(await runSchedule(dropped, s.id)).toBe('retry');
      expect(await rowOf(s.id)).toMatchObject({ status: 'PENDENTE', attempts: i, lastError: 'ERR_SENDING_WAPP_MSG' });
    }
    expect(await runSchedule(dropped, s.id)).toBe('failed');
    expect(await rowOf(s.id)).toMatchObject({ status: 'ERRO', attempts: 5 });
    expect(defaultSchedulePolicy.retryDelaysMs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3_600_000);

    const s2 = await schedule(t.admin, { contactId: c.id });
    await dueAgo(s2.id, 1000);
    expect(await runSchedule(failing(new AppError('ERR_WAPP_INVALID_CONTACT')), s2.id)).toBe('failed');
    expect(await rowOf(s2.id)).toMatchObject({ status: 'ERRO', attempts: 1, lastError: 'ERR_WAPP_INVALID_CONTACT' });
  });

  it('a recurring schedule creates its next occurrence when sent', async () => {
    const c = await contact();
    const s = await schedule(t.admin, { contactId: c.id, recurrence: 'daily' });
    await dueAgo(s.id, 1000);
    const sendAt = (await rowOf(s.id)).sendAt;
    expect(await runSchedule(deps, s.id)).toBe('sent');
    const rows = await deps.db.select().from(schedules).where(eq(schedules.contactId, c.id));
    const next = rows.find((r) => r.id !== s.id);
    expect(next).toMatchObject({ status: 'PENDENTE', recurrence: 'daily', body: s.body });
    expect(next?.sendAt.getTime()).toBe(sendAt.getTime() + 86_400_000);
  });

  it('a message from the contact before sendAt cancels a cancel-if-replied schedule, not the others', async () => {
    const c = await contact();
    const cancel = await schedule(t.admin, { contactId: c.id, cancelIfReplied: true });
    const keep = await schedule(t.admin, { contactId: c.id });
    await contactWrites(server, t.admin, whatsappId, { number: c.number, body: 'Oi, já resolvi' });
    await cancelOnReply(deps.db, deps.realtime, t.companyId, []);
    const deadline = Date.now() + 5000;
    while ((await rowOf(cancel.id)).status === 'PENDENTE' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await rowOf(cancel.id)).toMatchObject({ status: 'CANCELADA' });
    expect(await rowOf(keep.id)).toMatchObject({ status: 'PENDENTE' });
  });

  it('contacts whose messages are stored together each cancel their own cancel-if-replied schedule', async () => {
    const [a, b, quiet] = [await contact(), await contact(), await contact()];
    const ofA = await schedule(t.admin, { contactId: a.id, cancelIfReplied: true });
    const ofB = await schedule(t.admin, { contactId: b.id, cancelIfReplied: true });
    const ofQuiet = await schedule(t.admin, { contactId: quiet.id, cancelIfReplied: true });
    await Promise.all([
      contactWrites(server, t.admin, whatsappId, { number: a.number, body: 'Pode cancelar' }),
      contactWrites(server, t.admin, whatsappId, { number: b.number, body: 'Já vi, obrigado' }),
    ]);
    expect(await rowOf(ofA.id)).toMatchObject({ status: 'CANCELADA', lastError: 'respondido' });
    expect(await rowOf(ofB.id)).toMatchObject({ status: 'CANCELADA', lastError: 'respondido' });
    expect(await rowOf(ofQuiet.id)).toMatchObject({ status: 'PENDENTE' });
  });
});
