import { API_SEND_LIMIT_PER_MINUTE, type ApiMessageSendReply, companyEvent } from '@balcao/shared';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../../test/sandbox-helpers.js';
import { contacts } from '../contacts/contacts.schema.js';
import { messages } from '../messages/messages.schema.js';
import { tickets } from '../tickets/tickets.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { apiTokenHash } from '../whatsapp/whatsapp.service.js';
import { apiIdempotencyKeys } from './api-messages.schema.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4 api test');

let server: TestServer;
let t: Tenant;
let other: Tenant;
let whatsappId: number;
let token: string;
let otherWhatsappId: number;
let otherToken: string;

const db = () => server.deps.database.db;

async function generateToken(session: Session, id: number) {
  const res = await server.call('POST', `/whatsapp/${id}/token`, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
  t = await createTenant(server, { plan: { connections: 20 } });
  other = await createTenant(server);
  whatsappId = await connectedSandbox(server, t.admin);
  token = await generateToken(t.admin, whatsappId);
  otherWhatsappId = await connectedSandbox(server, other.admin);
  otherToken = await generateToken(other.admin, otherWhatsappId);
});
afterAll(() => server.close());

/** The super user, logged in afresh: each login (createTenant's too) ends the previous session. */
const superUser = () => login(server, SUPER.email, SUPER.password);

type Headers = Record<string, string>;
const bearer = (value: string): Headers => ({ authorization: `Bearer ${value}` });

function sendJson(payload: object, headers: Headers = bearer(token)) {
  return server.app.inject({ method: 'POST', url: '/api/messages/send', payload, headers });
}

async function multipart(fields: Record<string, string>, files: { name: string; type: string; data: Buffer }[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('medias', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') as string,
  };
}

async function sendForm(
  fields: Record<string, string>,
  files: { name: string; type: string; data: Buffer }[],
  headers: Headers = bearer(token),
) {
  const { payload, contentType } = await multipart(fields, files);
  return server.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    payload,
    headers: { ...headers, 'content-type': contentType },
  });
}

const state = (id: number, headers: Headers = bearer(token)) =>
  server.app.inject({ method: 'GET', url: `/api/messages/${id}`, headers });

async function sent(res: { statusCode: number; body: string; json(): unknown }) {
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ApiMessageSendReply;
}

/** What the company has stored: messages, contacts and tickets, and the idempotency keys. */
async function storedCounts(companyId = t.companyId) {
  const [m] = await db().select({ n: count() }).from(messages).where(eq(messages.companyId, companyId));
  const [c] = await db().select({ n: count() }).from(contacts).where(eq(contacts.companyId, companyId));
  const [k] = await db()
    .select({ n: count() })
    .from(apiIdempotencyKeys)
    .where(eq(apiIdempotencyKeys.companyId, companyId));
  const [tk] = await db().select({ n: count() }).from(tickets).where(eq(tickets.companyId, companyId));
  return { messages: m.n, contacts: c.n, tickets: tk.n, keys: k.n };
}

describe('connection tokens', () => {
  it('an admin generates one: shown once, stored as its hash, hasToken in the views', async () => {
    const id = await connectedSandbox(server, t.admin);
    const before = (await server.call('GET', `/whatsapp/${id}`, t.admin)).json();
    expect(before.hasToken).toBe(false);
    const fresh = await generateToken(t.admin, id);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await db().select({ tokenHash: whatsapps.tokenHash }).from(whatsapps).where(eq(whatsapps.id, id));
    expect(row.tokenHash).toBe(apiTokenHash(fresh));
    const list = await server.call('GET', '/whatsapp', t.admin);
    expect(list.body).not.toContain(fresh);
    expect(list.body).not.toContain(row.tokenHash);
    expect(list.json().find((w: { id: number }) => w.id === id).hasToken).toBe(true);
  });

  it('plain users and other companies cannot generate one (authorisation before validation)', async () => {
    const plain = await server.call('POST', `/whatsapp/${whatsappId}/token`, t.user);
    expect(plain.statusCode).toBe(403);
    expect(plain.json().error).toBe('ERR_NO_PERMISSION');
    const badId = await server.call('POST', '/whatsapp/not-an-id/token', t.user);
    expect(badId.statusCode).toBe(403);
    const foreign = await server.call('POST', `/whatsapp/${whatsappId}/token`, other.admin);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect((await sendJson({ number: '5511955520001', body: 'ainda vale' })).statusCode).toBe(201);
  });

  it('regenerating replaces it: the old token answers 401, the new one works', async () => {
    const id = await connectedSandbox(server, t.admin);
    const first = await generateToken(t.admin, id);
    expect((await sendJson({ number: '5511955520002', body: 'primeiro' }, bearer(first))).statusCode).toBe(201);
    const second = await generateToken(t.admin, id);
    expect(second).not.toBe(first);
    const old = await sendJson({ number: '5511955520002', body: 'antigo' }, bearer(first));
    expect(old.statusCode).toBe(401);
    expect(old.json().error).toBe('ERR_INVALID_CREDENTIALS');
    expect((await sendJson({ number: '5511955520002', body: 'novo' }, bearer(second))).statusCode).toBe(201);
  });
});

describe('POST /api/messages/send', () => {
  it('sends a text: contact and ticket created, stored as the API, in the history, on the phone', async () => {
    const before = await storedCounts();
    const reply = await sent(await sendJson({ number: '5511955530001', body: 'Seu pedido saiu para entrega' }));
    expect(reply).toMatchObject({
      message: 'Mensagem enviada com sucesso',
      number: '5511955530001',
      status: 'pending',
      ids: [reply.id],
    });
    expect(await storedCounts()).toMatchObject({
      messages: before.messages + 1,
      contacts: before.contacts + 1,
      tickets: before.tickets + 1,
    });
    const [row] = await db().select().from(messages).where(eq(messages.id, reply.id));
    expect(row).toMatchObject({
      companyId: t.companyId,
      whatsappId,
      ticketId: reply.ticketId,
      contactId: reply.contactId,
      fromMe: true,
      userId: null,
      data: { source: 'api' },
    });
    const history = (await server.call('GET', `/messages/${reply.ticketId}`, t.admin)).json();
    expect(history.messages.map((m: { id: number; body: string }) => [m.id, m.body])).toEqual([
      [reply.id, 'Seu pedido saiu para entrega'],
    ]);
    const ticket = (await server.call('GET', `/tickets/${reply.ticketId}`, t.admin)).json();
    expect(ticket).toMatchObject({ status: 'pending', lastMessage: 'Seu pedido saiu para entrega' });
    expect(ticket.contact.number).toBe('5511955530001');
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, '5511955530001'),
      (items) => items.length === 1,
    );
    expect(phone[0].body).toBe('Seu pedido saiu para entrega');
  });

  it('the company hears of it live, as of an agent’s message: the new ticket, then the message', async () => {
    await server.listen();
    const socket = await connectSocket(server, t.admin.token);
    try {
      const ticketEvent = eventWhere<{ action: string; ticket: { contact: { number: string } } }>(
        socket,
        companyEvent.ticket(t.companyId),
        (e) => e.action === 'update' && e.ticket?.contact.number === '5511955530007',
      );
      const messageEvent = eventWhere<{
        action: string;
        message: { body: string; id: number };
        ticket: { id: number };
      }>(socket, companyEvent.appMessage(t.companyId), (e) => e.action === 'create' && e.message.body === 'Ao vivo');
      const reply = await sent(await sendJson({ number: '5511955530007', body: 'Ao vivo' }));
      await ticketEvent;
      const heard = await messageEvent;
      expect(heard.message.id).toBe(reply.id);
      expect(heard.ticket).toMatchObject({ id: reply.ticketId, lastMessage: 'Ao vivo' });
    } finally {
      socket.close();
    }
  });

  it('tells the state: pending, sent, delivered, read', async () => {
    const reply = await sent(await sendJson({ number: '5511955530002', body: 'Acompanhe' }));
    expect(['pending', 'sent']).toContain((await state(reply.id)).json().status);
    const status = await waitUntil(
      async () => (await state(reply.id)).json(),
      (s) => s.status === 'sent',
    );
    expect(status).toMatchObject({ id: reply.id, ticketId: reply.ticketId, ack: 1, error: null });
    const [item] = await phoneOf(server, t.admin, whatsappId, '5511955530002');
    await server.call('POST', `/sandbox/${whatsappId}/ack`, t.admin, { providerId: item.providerId, ack: 2 });
    expect((await state(reply.id)).json().status).toBe('delivered');
    await server.call('POST', `/sandbox/${whatsappId}/ack`, t.admin, { providerId: item.providerId, ack: 3 });
    expect((await state(reply.id)).json().status).toBe('read');
  });

  it('normalises the number and reuses the contact and its open ticket', async () => {
    const first = await sent(await sendJson({ number: '+55 (11) 95553-0003', body: 'um' }));
    expect(first.number).toBe('5511955530003');
    const second = await sent(await sendJson({ number: 5511955530003, body: 'dois' }));
    expect(second).toMatchObject({ contactId: first.contactId, ticketId: first.ticketId });
    // A Brazilian number without its country code gets 55 (DOMAIN §12).
    const third = await sent(await sendJson({ number: '11955530003', body: 'três' }));
    expect(third).toMatchObject({ contactId: first.contactId, ticketId: first.ticketId });
  });

  it('writes to a contact who already wrote, on the ticket of that conversation', async () => {
    await contactWrites(server, t.admin, whatsappId, { number: '5511955530004', name: 'Rita', body: 'oi' });
    const reply = await sent(await sendJson({ number: '5511955530004', body: 'Olá Rita' }));
    const history = (await server.call('GET', `/messages/${reply.ticketId}`, t.admin)).json();
    expect(history.messages.map((m: { body: string }) => m.body)).toEqual(['oi', 'Olá Rita']);
    expect(history.ticket.contact.name).toBe('Rita');
  });

  it('sends several medias in order, the body as the first one’s caption', async () => {
    const reply = await sent(
      await sendForm({ number: '5511955530005', body: 'Segue o contrato' }, [
        { name: 'foto.png', type: 'image/png', data: PNG },
        { name: 'contrato.pdf', type: 'application/pdf', data: PDF },
      ]),
    );
    expect(reply.ids).toHaveLength(2);
    expect(reply.id).toBe(reply.ids[0]);
    expect(reply.ids[1]).toBeGreaterThan(reply.ids[0]);
    const history = (await server.call('GET', `/messages/${reply.ticketId}`, t.admin)).json();
    expect(
      history.messages.map((m: { id: number; body: string; mediaType: string; mediaName: string }) => [
        m.id,
        m.body,
        m.mediaType,
        m.mediaName,
      ]),
    ).toEqual([
      [reply.ids[0], 'Segue o contrato', 'image', 'foto.png'],
      [reply.ids[1], '', 'application', 'contrato.pdf'],
    ]);
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, '5511955530005'),
      (items) => items.length === 2,
    );
    expect(phone.map((p) => [p.media?.fileName, p.body])).toEqual([
      ['foto.png', 'Segue o contrato'],
      ['contrato.pdf', ''],
    ]);
  });

  it('sends a multipart text without files', async () => {
    const reply = await sent(await sendForm({ number: '5511955530006', body: 'Só texto' }, []));
    const [row] = await db().select({ body: messages.body }).from(messages).where(eq(messages.id, reply.id));
    expect(row.body).toBe('Só texto');
  });
});

describe('refusals: clear 4xx, nothing written', () => {
  it('401 without a token, with a wrong one, a user session or another scheme', async () => {
    const before = await storedCounts();
    const payload = { number: '5511955540001', body: 'x' };
    const cases: Headers[] = [
      {},
      bearer('not-a-token'),
      bearer(`${token}x`),
      { authorization: `Basic ${token}` },
      t.admin.headers,
    ];
    for (const headers of cases) {
      const res = await sendJson(payload, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().error).toBe('ERR_INVALID_CREDENTIALS');
      expect((await state(1, headers)).statusCode).toBe(401);
    }
    // Authorisation first: a bad body without a token is still 401, not a schema error.
    expect((await sendJson({ number: [], body: 7 }, {})).statusCode).toBe(401);
    expect(await storedCounts()).toEqual(before);
  });

  it('403 when the plan has no external API, whatever the body', async () => {
    const tenant = await createTenant(server);
    const id = await connectedSandbox(server, tenant.admin);
    const apiToken = await generateToken(tenant.admin, id);
    const planId = (await server.call('GET', `/companies/listPlan/${tenant.companyId}`, tenant.admin)).json().id;
    const su = await superUser();
    expect((await server.call('PUT', `/plans/${planId}`, su, { useExternalApi: false })).statusCode).toBe(200);
    for (const payload of [
      { number: '5511955540002', body: 'x' },
      { number: {}, body: [] },
    ]) {
      const res = await sendJson(payload, bearer(apiToken));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useExternalApi' });
    }
    const regenerate = await server.call('POST', `/whatsapp/${id}/token`, tenant.admin);
    expect(regenerate.statusCode).toBe(403);
    expect((await storedCounts(tenant.companyId)).messages).toBe(0);
  });

  it('refuses an inactive company (403) and one past its due date (401)', async () => {
    const tenant = await createTenant(server);
    const id = await connectedSandbox(server, tenant.admin);
    const apiToken = await generateToken(tenant.admin, id);
    const payload = { number: '5511955540003', body: 'x' };
    const su = await superUser();
    expect((await server.call('PUT', `/companies/${tenant.companyId}`, su, { status: false })).statusCode).toBe(200);
    const inactive = await sendJson(payload, bearer(apiToken));
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().error).toBe('ERR_NO_PERMISSION');
    await server.call('PUT', `/companies/${tenant.companyId}`, su, { status: true, dueDate: '2000-01-01' });
    const overdue = await sendJson(payload, bearer(apiToken));
    expect(overdue.statusCode).toBe(401);
    expect(overdue.json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect((await storedCounts(tenant.companyId)).messages).toBe(0);
  });

  it('a number WhatsApp does not know: 400 ERR_WAPP_INVALID_CONTACT', async () => {
    const before = await storedCounts();
    // The sandbox knows numbers of 8 to 20 digits.
    const res = await sendJson({ number: '551195554000400000000000', body: 'x' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('ERR_WAPP_INVALID_CONTACT');
    expect(await storedCounts()).toEqual(before);
  });

  it('bad input: ERR_VALIDATION, never 500', async () => {
    const before = await storedCounts();
    const bad: [object | string, string?][] = [
      [{ body: 'sem número' }],
      [{ number: 'abc', body: 'x' }],
      [{ number: '55 11 9555-400x', body: 'x' }],
      [{ number: '', body: 'x' }],
      [{ number: '5511955540005' }],
      [{ number: '5511955540005', body: '   ' }],
      [{ number: '5511955540005', body: 'x', medias: ['abc'] }],
      ['{"number": "55119555', 'application/json'],
      ['number=5511955540005&body=x', 'application/x-www-form-urlencoded'],
    ];
    for (const [payload, type] of bad) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/messages/send',
        payload,
        headers: { ...bearer(token), ...(type ? { 'content-type': type } : {}) },
      });
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error).toMatch(/^ERR_/);
    }
    const longKey = await sendJson(
      { number: '5511955540005', body: 'x' },
      { ...bearer(token), 'idempotency-key': 'k'.repeat(201) },
    );
    expect(longKey.statusCode).toBe(400);
    const noNumber = await sendForm({ body: 'sem número' }, [{ name: 'a.png', type: 'image/png', data: PNG }]);
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().error).toBe('ERR_VALIDATION');
    expect(await storedCounts()).toEqual(before);
  });

  it('a connection that is not connected: 400 ERR_WAPP_NOT_INITIALIZED', async () => {
    const id = await connectedSandbox(server, t.admin);
    const apiToken = await generateToken(t.admin, id);
    await server.call('DELETE', `/whatsappsession/${id}`, t.admin);
    const before = await storedCounts();
    const res = await sendJson({ number: '5511955540006', body: 'x' }, bearer(apiToken));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect(await storedCounts()).toEqual(before);
  });

  it('a multipart body cut short: 400, no file kept, nothing written', async () => {
    const before = await storedCounts();
    const { payload, contentType } = await multipart({ number: '5511955540007', body: 'x' }, [
      { name: 'foto.png', type: 'image/png', data: PNG },
    ]);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      payload: payload.subarray(0, payload.length - 40),
      headers: { ...bearer(token), 'content-type': contentType },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(await storedCounts()).toEqual(before);
  });

  it('a failed media upload leaves nothing: no message, contact or ticket, no file', async () => {
    const storage = server.deps.storage;
    const put = storage.put;
    const remove = storage.remove;
    const stored: string[] = [];
    const removed: string[] = [];
    storage.put = async (companyId, data, fileName, opts) => {
      if (stored.length === 2) throw new Error('disk full');
      const file = await put(companyId, data, fileName, opts);
      stored.push(file.key);
      return file;
    };
    storage.remove = async (key) => {
      removed.push(key);
      await remove(key);
    };
    const before = await storedCounts();
    try {
      const res = await sendForm({ number: '5511955540008', body: 'três arquivos' }, [
        { name: 'a.png', type: 'image/png', data: PNG },
        { name: 'b.pdf', type: 'application/pdf', data: PDF },
        { name: 'c.png', type: 'image/png', data: PNG },
      ]);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json().error).toMatch(/^ERR_/);
    } finally {
      storage.put = put;
      storage.remove = remove;
    }
    expect(removed.sort()).toEqual(stored.sort());
    expect(stored).toHaveLength(2);
    for (const key of stored) expect(await storage.open(key)).toBeNull();
    expect(await storedCounts()).toEqual(before);
  });

  it('rate limit per token: 429 with Retry-After past the limit, nothing written', async () => {
    const id = await connectedSandbox(server, t.admin);
    const apiToken = await generateToken(t.admin, id);
    // The window is a calendar minute: start early in one.
    const into = Date.now() % 60_000;
    if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 50));
    // Calls refused for their body count too: they are cheap to make.
    for (let i = 0; i < API_SEND_LIMIT_PER_MINUTE; i++) {
      const res = await sendJson({ number: '5511955540009' }, bearer(apiToken));
      expect(res.statusCode).toBe(400);
    }
    const before = await storedCounts();
    const limited = await sendJson({ number: '5511955540009', body: 'x' }, bearer(apiToken));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await storedCounts()).toEqual(before);
    // Another token is not limited by it.
    expect((await sendJson({ number: '5511955540009', body: 'x' })).statusCode).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('a retried call answers the first result and sends once', async () => {
    const headers = { ...bearer(token), 'idempotency-key': 'pedido-1001' };
    const payload = { number: '5511955550001', body: 'Pedido 1001 confirmado' };
    const first = await sendJson(payload, headers);
    const again = await sendJson(payload, headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const rows = await db()
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.companyId, t.companyId), eq(messages.body, 'Pedido 1001 confirmado')));
    expect(rows).toHaveLength(1);
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, '5511955550001'),
      (items) => items.length === 1,
    );
    expect(phone).toHaveLength(1);
    // The same key for another message is refused; another key sends.
    const reused = await sendJson({ ...payload, body: 'outra coisa' }, headers);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('ERR_VALIDATION');
    const otherKey = await sendJson(payload, { ...bearer(token), 'idempotency-key': 'pedido-1002' });
    expect((await sent(otherKey)).id).not.toBe(first.json().id);
  });

  it('10 concurrent calls with one key store and send one message', async () => {
    const headers = { ...bearer(token), 'idempotency-key': 'concorrente-1' };
    const payload = { number: '5511955550002', body: 'Só uma vez' };
    const before = await storedCounts();
    // All ten past their first look for the key before any stores: they meet at the number check.
    const channel = server.deps.channels.get(whatsappId);
    const check = channel.checkNumber;
    let arrived = 0;
    let release: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      release = resolve;
    });
    channel.checkNumber = async (number) => {
      if (++arrived === 10) release();
      await barrier;
      return check(number);
    };
    const replies = await Promise.all(Array.from({ length: 10 }, () => sendJson(payload, headers))).finally(() => {
      channel.checkNumber = check;
    });
    expect(arrived).toBe(10);
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(replies.map((r) => r.json().id)).size).toBe(1);
    expect(replies.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await storedCounts()).toEqual({
      messages: before.messages + 1,
      contacts: before.contacts + 1,
      tickets: before.tickets + 1,
      keys: before.keys + 1,
    });
    await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, '5511955550002'),
      (items) => items.length === 1,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await phoneOf(server, t.admin, whatsappId, '5511955550002')).toHaveLength(1);
  });

  it('10 concurrent media calls with one key: one set of messages, the other files removed', async () => {
    const headers = { ...bearer(token), 'idempotency-key': 'concorrente-midia' };
    const before = await storedCounts();
    const storage = server.deps.storage;
    const { put, remove } = storage;
    const stored: string[] = [];
    const removed: string[] = [];
    storage.put = async (...args) => {
      const file = await put(...args);
      stored.push(file.key);
      return file;
    };
    storage.remove = async (key) => {
      removed.push(key);
      await remove(key);
    };
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        sendForm({ number: '5511955550003', body: 'foto' }, [{ name: 'a.png', type: 'image/png', data: PNG }], headers),
      ),
    ).finally(() => {
      storage.put = put;
      storage.remove = remove;
    });
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(replies.map((r) => r.json().id)).size).toBe(1);
    expect((await storedCounts()).messages).toBe(before.messages + 1);
    // Every file stored by a call that lost the key is gone; the winner's stays with its message.
    const [row] = await db()
      .select({ mediaKey: messages.mediaKey })
      .from(messages)
      .where(eq(messages.id, replies[0].json().id));
    expect(stored).toContain(row.mediaKey);
    expect(removed).toHaveLength(9);
    expect(removed).not.toContain(row.mediaKey);
    for (const key of removed) expect(await storage.open(key)).toBeNull();
    expect(await storage.open(row.mediaKey as string)).not.toBeNull();
  });

  it('keys are per connection, and forgotten after 24 hours', async () => {
    const key = 'mesma-chave';
    const mine = await sent(
      await sendJson({ number: '5511955550004', body: 'a' }, { ...bearer(token), 'idempotency-key': key }),
    );
    const theirs = await sent(
      await sendJson({ number: '5511955550004', body: 'a' }, { ...bearer(otherToken), 'idempotency-key': key }),
    );
    expect(theirs.id).not.toBe(mine.id);
    await db()
      .update(apiIdempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(apiIdempotencyKeys.whatsappId, whatsappId), eq(apiIdempotencyKeys.key, key)));
    const later = await sent(
      await sendJson({ number: '5511955550004', body: 'a' }, { ...bearer(token), 'idempotency-key': key }),
    );
    expect(later.id).not.toBe(mine.id);
  });
});

describe('GET /api/messages/{id}', () => {
  it("only the token's own API messages: another company's, another connection's or an agent's are 404", async () => {
    const mine = await sent(await sendJson({ number: '5511955560001', body: 'meu' }));
    const theirs = await sent(await sendJson({ number: '5511955560001', body: 'deles' }, bearer(otherToken)));
    expect((await state(mine.id)).statusCode).toBe(200);
    for (const [id, headers] of [
      [theirs.id, bearer(token)],
      [mine.id, bearer(otherToken)],
    ] as const) {
      const res = await state(id, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_MESSAGE_FOUND');
      expect(res.body).not.toContain('deles');
    }
    const agent = await server.call('POST', `/messages/${mine.ticketId}`, t.admin, { body: 'do atendente' });
    expect(agent.statusCode, agent.body).toBe(201);
    expect((await state(agent.json()[0].id)).statusCode).toBe(404);
    const secondConnection = await connectedSandbox(server, t.admin);
    const secondToken = await generateToken(t.admin, secondConnection);
    expect((await state(mine.id, bearer(secondToken))).statusCode).toBe(404);
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
      const res = await server.app.inject({ method: 'GET', url: `/api/messages/${id}`, headers: bearer(token) });
      expect(res.statusCode, id).toBe(400);
    }
    expect((await state(99_999_999_999)).statusCode).toBe(404);
  });

  it('a failed send says failed, with its reason', async () => {
    const reply = await sent(await sendJson({ number: '5511955560002', body: 'vai falhar' }));
    await db()
      .update(messages)
      .set({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' })
      .where(eq(messages.id, reply.id));
    expect((await state(reply.id)).json()).toMatchObject({ status: 'failed', error: 'ERR_SENDING_WAPP_MSG' });
  });
});

describe('OpenAPI', () => {
  it('documents the routes with the bearer scheme of connection tokens', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api-docs/json' })).json();
    expect(doc.components.securitySchemes.connectionToken).toEqual({ type: 'http', scheme: 'bearer' });
    const send = doc.paths['/api/messages/send'].post;
    expect(send.security).toEqual([{ connectionToken: [] }]);
    expect(Object.keys(send.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(send.parameters.map((p: { name: string }) => p.name)).toContain('idempotency-key');
    expect(doc.paths['/api/messages/{id}'].get.security).toEqual([{ connectionToken: [] }]);
  });
});
