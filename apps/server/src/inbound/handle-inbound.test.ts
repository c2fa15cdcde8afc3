import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../test/sandbox-helpers.js';
import { ticketTraking } from '../modules/tickets/tickets.schema.js';

/** The inbound pipeline of DOMAIN §1, driven through the sandbox phone. */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let a: Tenant;
let b: Tenant;
let wa: number;
let wb: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server);
  b = await createTenant(server);
  wa = await connectedSandbox(server, a.admin);
  wb = await connectedSandbox(server, b.admin);
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Ticket = {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  unreadMessages: number;
  lastMessage: string;
  isGroup: boolean;
  contact: { id: number; name: string; number: string; isGroup: boolean };
};
type Message = {
  id: number;
  body: string;
  mediaType: string;
  mediaUrl: string | null;
  mediaName: string | null;
  participant: string | null;
  quotedMsg: { id: number; body: string } | null;
};
const ticketsOf = async (tenant: Tenant, number: string) =>
  (await call(tenant.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`)).json().tickets as Ticket[];
const ticketOf = async (tenant: Tenant, number: string) => {
  const list = await ticketsOf(tenant, number);
  expect(list, `tickets of ${number}`).toHaveLength(1);
  return list[0];
};
const messagesOf = async (tenant: Tenant, ticketId: number) =>
  (await call(tenant.admin, 'GET', `/messages/${ticketId}`)).json().messages as Message[];

describe('inbound messages', () => {
  it('store media under a server key, never the sender’s file name, and serve it to the company', async () => {
    const number = '5511966600001';
    await contactWrites(server, a.admin, wa, {
      number,
      name: 'Foto',
      body: 'segue a foto',
      media: { fileName: '../../../etc/cron.d/evil name.PNG', mimetype: 'image/png', base64: PNG.toString('base64') },
    });
    const ticket = await ticketOf(a, number);
    const [message] = await messagesOf(a, ticket.id);
    expect(message).toMatchObject({
      mediaType: 'image',
      body: 'segue a foto',
      mediaName: '../../../etc/cron.d/evil name.PNG',
    });
    expect(message.mediaUrl).toMatch(new RegExp(`^/media/${a.companyId}/[0-9a-f-]{36}\\.png$`));

    const file = await server.app.inject({ method: 'GET', url: message.mediaUrl as string, headers: a.user.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    // The file sits in the company's own folder, under the generated name only.
    const folder = path.join(server.deps.config.DATA_DIR, 'media', String(a.companyId));
    expect(readdirSync(folder)).toContain(path.basename(message.mediaUrl as string));
    expect(existsSync(path.join(server.deps.config.DATA_DIR, 'etc'))).toBe(false);

    expect(
      (await server.app.inject({ method: 'GET', url: message.mediaUrl as string, headers: b.admin.headers }))
        .statusCode,
    ).toBe(404);
    for (const url of [
      `/media/${a.companyId}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/media/${a.companyId}/%2E%2E`,
      `/media/${a.companyId}/evil%20name.PNG`,
    ]) {
      const res = await server.app.inject({ method: 'GET', url, headers: a.admin.headers });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('serve a received document as a download, never as a page of the app', async () => {
    const number = '5511966600010';
    const html = '<script>alert(document.cookie)</script>';
    await contactWrites(server, a.admin, wa, {
      number,
      media: { fileName: 'oferta.html', mimetype: 'text/html', base64: Buffer.from(html).toString('base64') },
    });
    const [message] = await messagesOf(a, (await ticketOf(a, number)).id);
    expect(message.mediaType).toBe('application');
    const file = await server.app.inject({ method: 'GET', url: message.mediaUrl as string, headers: a.admin.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toBe('attachment');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('ignore group messages while CheckMsgIsGroup is enabled (the default)', async () => {
    const group = '120363000000000001';
    await contactWrites(server, a.admin, wa, {
      number: group,
      isGroup: true,
      groupName: 'Família',
      participant: '5511966600002',
      body: 'mensagem do grupo',
    });
    expect(await ticketsOf(a, group)).toEqual([]);
    expect((await call(a.admin, 'GET', `/contacts?searchParam=${group}`)).json().count).toBe(0);
  });

  it('with CheckMsgIsGroup disabled, a group is one ticket whose messages record their participant', async () => {
    const setting = await call(b.admin, 'PUT', '/settings/CheckMsgIsGroup', { value: 'disabled' });
    expect(setting.statusCode, setting.body).toBe(200);
    const group = '120363000000000002';
    for (const [participant, body] of [
      ['5511966600003', 'Oi do Pedro'],
      ['5511966600004', 'Oi da Lia'],
    ]) {
      await contactWrites(server, b.admin, wb, {
        number: group,
        isGroup: true,
        groupName: 'Condomínio',
        participant,
        body,
      });
    }
    const ticket = await ticketOf(b, group);
    expect(ticket).toMatchObject({ isGroup: true, unreadMessages: 2, contact: { name: 'Condomínio', isGroup: true } });
    expect((await messagesOf(b, ticket.id)).map((m) => [m.participant, m.body])).toEqual([
      ['5511966600003', 'Oi do Pedro'],
      ['5511966600004', 'Oi da Lia'],
    ]);
    // Company A still ignores groups.
    await contactWrites(server, a.admin, wa, { number: group, isGroup: true, participant: '5511966600003', body: 'x' });
    expect(await ticketsOf(a, group)).toEqual([]);
  });

  it('resolve the quoted message by its provider id', async () => {
    const number = '5511966600005';
    await contactWrites(server, a.admin, wa, { number, body: 'Qual o preço?', providerId: 'QUOTE-ME' });
    await contactWrites(server, a.admin, wa, { number, body: 'Responda isso', quotedProviderId: 'QUOTE-ME' });
    await contactWrites(server, a.admin, wa, { number, body: 'Citação perdida', quotedProviderId: 'NEVER-SEEN' });
    const ticket = await ticketOf(a, number);
    const [first, second, third] = await messagesOf(a, ticket.id);
    expect(second.quotedMsg).toMatchObject({ id: first.id, body: 'Qual o preço?' });
    expect(third.quotedMsg).toBeNull();
  });

  it('the same provider id on two companies, or two connections, is two messages; a redelivery is none', async () => {
    const number = '5511966600006';
    await contactWrites(server, a.admin, wa, { number, body: 'para A', providerId: 'SAME-ID' });
    await contactWrites(server, b.admin, wb, { number, body: 'para B', providerId: 'SAME-ID' });
    const second = await connectedSandbox(server, a.admin);
    await contactWrites(server, a.admin, second, { number, body: 'para A, outra conexão', providerId: 'SAME-ID' });
    // Redelivered: nothing new.
    await contactWrites(server, a.admin, wa, { number, body: 'para A', providerId: 'SAME-ID' });
    await contactWrites(server, b.admin, wb, { number, body: 'para B', providerId: 'SAME-ID' });

    const ofA = await ticketsOf(a, number);
    expect(ofA).toHaveLength(2);
    const bodiesOfA = (await Promise.all(ofA.map((tk) => messagesOf(a, tk.id)))).map((list) => list.map((m) => m.body));
    expect(bodiesOfA.sort()).toEqual([['para A'], ['para A, outra conexão']]);
    const ofB = await ticketOf(b, number);
    expect((await messagesOf(b, ofB.id)).map((m) => m.body)).toEqual(['para B']);
    expect(ofB.unreadMessages).toBe(1);
  });

  it('learn the contact’s name only while it is unknown', async () => {
    const known = '5511966600007';
    await call(a.admin, 'POST', '/contacts', { name: 'Cliente VIP', number: known });
    await contactWrites(server, a.admin, wa, { number: known, name: 'Apelido do WhatsApp', body: 'oi' });
    expect((await ticketOf(a, known)).contact.name).toBe('Cliente VIP');

    const unknown = '5511966600008';
    await contactWrites(server, a.admin, wa, { number: unknown, body: 'sem nome' });
    expect((await ticketOf(a, unknown)).contact.name).toBe(unknown);
    await contactWrites(server, a.admin, wa, { number: unknown, name: 'Joana', body: 'agora com nome' });
    expect((await ticketOf(a, unknown)).contact.name).toBe('Joana');
    await contactWrites(server, a.admin, wa, { number: unknown, name: 'Joana Silva', body: 'outro nome' });
    expect((await ticketOf(a, unknown)).contact.name).toBe('Joana');
  });

  it('reopen a closed ticket as pending with queue and user cleared, in a new service cycle', async () => {
    const number = '5511966600009';
    const queue = (await call(a.admin, 'POST', '/queue', { name: 'Suporte', color: '#0A0A0A' })).json().id;
    await contactWrites(server, a.admin, wa, { number, name: 'Rui', body: 'primeira conversa' });
    const first = await ticketOf(a, number);
    expect(first).toMatchObject({ status: 'pending', queueId: null, userId: null, unreadMessages: 1 });
    await call(a.admin, 'PUT', `/tickets/${first.id}`, { queueId: queue, userId: a.admin.user.id });
    await call(a.admin, 'GET', `/messages/${first.id}`);
    await call(a.admin, 'PUT', `/tickets/${first.id}`, { status: 'closed' });

    await contactWrites(server, a.admin, wa, { number, body: 'voltei' });
    await contactWrites(server, a.admin, wa, { number, body: 'alguém?' });
    const again = await ticketOf(a, number);
    expect(again).toMatchObject({
      id: first.id,
      status: 'pending',
      queueId: null,
      userId: null,
      unreadMessages: 2,
      lastMessage: 'alguém?',
    });
    const cycles = await server.deps.database.db
      .select()
      .from(ticketTraking)
      .where(eq(ticketTraking.ticketId, first.id))
      .orderBy(asc(ticketTraking.id));
    expect(cycles).toHaveLength(2);
    expect(cycles[0].finishedAt).toBeInstanceOf(Date);
    expect(cycles[1]).toMatchObject({ startedAt: null, finishedAt: null, userId: null });
    expect(cycles[1].queuedAt).toBeInstanceOf(Date);
  });
});
