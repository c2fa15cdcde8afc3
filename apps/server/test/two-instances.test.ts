import { randomBytes } from 'node:crypto';
import { companyEvent, type Schedule } from '@balcao/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { messages } from '../src/modules/messages/messages.schema.js';
import { SCHEDULE_QUEUE, singletonOf } from '../src/modules/schedules/schedules.jobs.js';
import { type LocalS3, startS3 } from './fakes/s3.js';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  openTestDatabase,
  type Session,
  type Tenant,
  type TestServer,
} from './harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from './sandbox-helpers.js';

/**
 * One deployment, two instances (issue 16, "More than one machine"): the same PostgreSQL, the same
 * Redis and the same S3 bucket (a local s3rver), each instance with its own data folder, both
 * running the jobs' workers. What one instance does, the other sees; what must happen once does.
 */
describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)('two instances', () => {
  let database: Database;
  let s3: LocalS3;
  let a: TestServer;
  let b: TestServer;
  let t: Tenant;
  let agent: Session;
  let whatsappId: number;
  const open: Socket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    s3 = await startS3();
    const redisKey = randomBytes(4).toString('hex');
    const env = { ...s3.env, LOGIN_LIMIT_IP: '1000', LOGIN_LIMIT_EMAIL: '3' };
    a = await createTestServer(env, { database, redisKey, jobs: true });
    b = await createTestServer(env, { database, redisKey, jobs: true });
    await a.listen();
    await b.listen();
    // The Redis adapters subscribe in the background: wait until each instance hears the other.
    for (const [from, to] of [
      [a, b],
      [b, a],
    ]) {
      to.deps.realtime.onInstances('test:ready', () => true);
      await waitUntil(
        () => from.deps.realtime.askInstances('test:ready', null),
        (answers) => answers.length > 0,
        30_000,
      );
    }
    t = await createTenant(a);
    // An agent who sees the tickets without a queue (the sandbox's inbound lands there).
    const email = `agent-${randomBytes(3).toString('hex')}@two.test`;
    const created = await a.call('POST', '/users', t.admin, {
      name: 'Agente',
      email,
      password: 'user-pass',
      profile: 'user',
      queueIds: [],
      allTicket: 'enable',
    });
    expect(created.statusCode, created.body).toBe(201);
    agent = await login(a, email, 'user-pass');
    // Connected on B; A holds it too, as each instance's boot restore leaves a sandbox connection.
    whatsappId = await connectedSandbox(b, t.admin);
    await a.deps.channels.restore(t.companyId, whatsappId);
  });
  afterAll(async () => {
    for (const socket of open) socket.close();
    await a?.close();
    await b?.close();
    await database?.close();
    await s3?.close();
  });

  it('an agent connected to A receives, live, the inbound message stored by B', async () => {
    const socket = await connectSocket(a, agent.token);
    open.push(socket);
    const live = eventWhere<{ action: string; message: { body: string; fromMe: boolean } }>(
      socket,
      companyEvent.appMessage(t.companyId),
      (e) => e.action === 'create' && e.message.body === 'Olá, vim pelo B',
      10_000,
    );
    await contactWrites(b, t.admin, whatsappId, { number: '5511966600001', name: 'Bruna', body: 'Olá, vim pelo B' });
    expect((await live).message).toMatchObject({ body: 'Olá, vim pelo B', fromMe: false });
  });

  it('a file uploaded through A is downloaded through B', async () => {
    await contactWrites(b, t.admin, whatsappId, { number: '5511966600002', name: 'Caio', body: 'Manda o contrato' });
    const tickets = await b.call('GET', '/tickets?searchParam=5511966600002&status=pending', t.admin);
    const ticketId = tickets.json().tickets[0].id as number;

    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(300 * 1024)]);
    const form = new FormData();
    form.append('body', 'Segue o contrato');
    form.append('medias', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'contrato.pdf');
    const request = new Request('http://local/', { method: 'POST', body: form });
    const sent = await a.app.inject({
      method: 'POST',
      url: `/messages/${ticketId}`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { ...t.admin.headers, 'content-type': request.headers.get('content-type') as string },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [message] = sent.json() as { mediaUrl: string }[];
    expect(message.mediaUrl).toMatch(new RegExp(`^/media/${t.companyId}/[0-9a-f-]{36}\\.pdf$`));

    // Neither instance's data folder has it: B reads the bucket.
    const download = await b.call('GET', message.mediaUrl, agent);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe(String(pdf.length));
    expect(download.rawPayload.equals(pdf)).toBe(true);

    // The copy the phone received was stored by whichever instance sent it: both read it.
    const [onPhone] = await waitUntil(
      () => phoneOf(a, t.admin, whatsappId, '5511966600002'),
      (list) => list.some((m) => m.media),
    );
    const url = (onPhone.media as unknown as { url: string }).url;
    for (const server of [a, b]) expect((await server.call('GET', url, t.admin)).rawPayload.equals(pdf)).toBe(true);
  });

  it('a scheduled message due now is sent once, by one of the two instances', async () => {
    const numbers = ['5511966600011', '5511966600012', '5511966600013'];
    const ids: number[] = [];
    for (const [i, number] of numbers.entries()) {
      const contact = await a.call('POST', '/contacts', t.admin, { name: `Lembrete ${i}`, number });
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      const created = await (i % 2 ? b : a).call('POST', '/schedules', t.admin, {
        body: `Lembrete ${i}`,
        contactId: contact.json().id,
        whatsappId,
        sendAt,
      });
      expect(created.statusCode, created.body).toBe(201);
      ids.push((created.json() as Schedule).id);
    }
    // Due now, as if the hour had passed: both instances' workers poll the same queue.
    await database.db.execute(sql`update schedules set send_at = now() where id in ${ids}`);
    await database.db.execute(
      sql`update pgboss.job set start_after = now() where name = ${SCHEDULE_QUEUE} and state = 'created'
        and singleton_key in ${ids.map(singletonOf)}`,
    );
    for (const [i, number] of numbers.entries()) {
      const phone = await waitUntil(
        () => phoneOf(b, t.admin, whatsappId, number),
        (list) => list.length > 0,
        20_000,
      );
      expect(phone.map((m) => ({ body: m.body, sends: m.sends }))).toEqual([{ body: `Lembrete ${i}`, sends: 1 }]);
    }
    // Each row is marked sent once its send returns, a moment after the phone has the message.
    for (const id of ids) {
      const schedule = await waitUntil(
        async () => (await a.call('GET', `/schedules/${id}`, t.admin)).json() as Schedule,
        (s) => s.status !== 'ENVIANDO',
        5_000,
      );
      expect(schedule).toMatchObject({ status: 'ENVIADA', attempts: 1 });
    }
    // Nothing more arrives afterwards (a second worker, a sweep).
    await new Promise((r) => setTimeout(r, 1500));
    for (const number of numbers) {
      expect((await phoneOf(a, t.admin, whatsappId, number)).map((m) => m.sends)).toEqual([1]);
    }
  });

  it('replies written on A to a connection only B holds are sent at once by B, on their first attempt', async () => {
    // Started through B only: A has no live channel for it, as with a Baileys connection held by B.
    const onlyB = await connectedSandbox(b, t.admin);
    const numbers = ['5511966600021', '5511966600022', '5511966600023', '5511966600024'];
    const ticketIds: number[] = [];
    for (const number of numbers) {
      await contactWrites(b, t.admin, onlyB, { number, body: 'Oi' });
      const found = await a.call('GET', `/tickets?searchParam=${number}&status=pending`, t.admin);
      ticketIds.push(found.json().tickets[0].id as number);
    }
    // Each wake-up job goes to either instance: those A's worker takes are handed to B.
    for (const [i, ticketId] of ticketIds.entries()) {
      const sent = await a.call('POST', `/messages/${ticketId}`, t.admin, { body: `Resposta ${i}` });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    for (const [i, number] of numbers.entries()) {
      const phone = await waitUntil(
        () => phoneOf(b, t.admin, onlyB, number),
        (list) => list.length > 0,
        10_000,
      );
      expect(phone.map((m) => ({ body: m.body, sends: m.sends }))).toEqual([{ body: `Resposta ${i}`, sends: 1 }]);
    }
    const replies = await database.db
      .select({ sendStatus: messages.sendStatus, sendAttempts: messages.sendAttempts, sendError: messages.sendError })
      .from(messages)
      .where(and(inArray(messages.ticketId, ticketIds), eq(messages.fromMe, true)));
    expect(replies).toEqual(ticketIds.map(() => ({ sendStatus: 'sent', sendAttempts: 1, sendError: null })));
  });

  it('the login rate limit counts the failures of both instances', async () => {
    const attempt = (server: TestServer, password: string) =>
      server.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: agent.user.email, password },
        remoteAddress: '10.9.9.9',
      });
    // Three failures (LOGIN_LIMIT_EMAIL), none of the instances seeing more than two.
    for (const server of [a, b, a]) expect((await attempt(server, 'wrong-pass')).statusCode).toBe(401);
    const blocked = await attempt(b, 'user-pass');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    expect((await attempt(a, 'user-pass')).statusCode).toBe(429);
  });
});
