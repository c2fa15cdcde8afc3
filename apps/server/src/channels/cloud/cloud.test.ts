import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { messages } from '../../modules/messages/messages.schema.js';
import { whatsapps } from '../../modules/whatsapp/whatsapp.schema.js';

/** The Cloud API provider against a local fake Graph API. */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PHONE_ID = '1098765432100';
const TOKEN = 'EAAG-test-access-token-0123456789';
const APP_SECRET = 'app-secret-0123456789abcdef';
const VERIFY = 'verify-me-please';
const NUMBER = '5511966620001';
/** A number the fake Graph API refuses as a recipient (code 131026). */
const NOT_ON_WHATSAPP = '5511966629999';

interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}

/** The Graph API endpoints the provider uses; it answers only with the right token. */
function fakeGraph() {
  const seen: Seen[] = [];
  let sent = 0;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({
      method: req.method ?? '',
      path: url.pathname,
      auth: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: Buffer.concat(chunks),
    });
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { error: { message: 'bad token' } });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.method === 'GET' && url.pathname === `/v21.0/${PHONE_ID}`)
      return json(200, { id: PHONE_ID, display_phone_number: '+55 11 4000-0001' });
    if (req.method === 'POST' && url.pathname === `/v21.0/${PHONE_ID}/messages`) {
      if (JSON.parse(Buffer.concat(chunks).toString()).to === NOT_ON_WHATSAPP)
        return json(400, { error: { code: 131026, message: 'Message undeliverable' } });
      return json(200, { messaging_product: 'whatsapp', messages: [{ id: `wamid.OUT${++sent}` }] });
    }
    if (req.method === 'POST' && url.pathname === `/v21.0/${PHONE_ID}/media`) return json(200, { id: 'up-1' });
    if (req.method === 'GET' && url.pathname === '/v21.0/media-in-1')
      return json(200, { id: 'media-in-1', url: `${base}/files/media-in-1`, mime_type: 'image/png' });
    if (req.method === 'GET' && url.pathname === '/files/media-in-1') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG);
    }
    json(404, { error: { message: 'unknown' } });
  });
  return {
    seen,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const graph = fakeGraph();
let server: TestServer;
let t: Tenant;
let whatsappId: number;

const call = (session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

const sign = (raw: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

const webhook = (value: object, signature: string | null = 'valid') => {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      { id: 'WABA', changes: [{ field: 'messages', value: { metadata: { phone_number_id: PHONE_ID }, ...value } }] },
    ],
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature) headers['x-hub-signature-256'] = signature === 'valid' ? sign(raw) : signature;
  return server.app.inject({ method: 'POST', url: `/webhooks/cloud/${whatsappId}`, payload: raw, headers });
};

const inboundText = (id: string, body: string) => ({
  contacts: [{ wa_id: NUMBER, profile: { name: 'Rita Cloud' } }],
  messages: [{ id, from: NUMBER, timestamp: '1763700000', type: 'text', text: { body } }],
});

const storedMessage = async (providerId: string) =>
  (await server.deps.database.db.select().from(messages).where(eq(messages.providerId, providerId)))[0];

beforeAll(async () => {
  const graphUrl = await graph.start();
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000', CLOUD_GRAPH_URL: graphUrl }, { jobs: true });
  t = await createTenant(server);
  const created = await call(t.admin, 'POST', '/whatsapp', {
    name: 'Cloud',
    provider: 'cloud',
    providerConfig: { phoneNumberId: PHONE_ID, accessToken: TOKEN, appSecret: APP_SECRET, verifyToken: VERIFY },
  });
  expect(created.statusCode, created.body).toBe(201);
  whatsappId = created.json().id;
  expect((await call(t.admin, 'POST', `/whatsappsession/${whatsappId}`)).statusCode).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await graph.close();
});

describe('connection', () => {
  it('is CONNECTED once the Graph API knows the number', async () => {
    const w = (await call(t.admin, 'GET', `/whatsapp/${whatsappId}`)).json();
    expect(w).toMatchObject({ provider: 'cloud', status: 'CONNECTED', number: '551140000001' });
    expect(graph.seen.some((s) => s.method === 'GET' && s.path === `/v21.0/${PHONE_ID}`)).toBe(true);
  });

  it('never returns the secrets, and stores them encrypted', async () => {
    for (const url of ['/whatsapp', `/whatsapp/${whatsappId}`]) {
      const body = (await call(t.admin, 'GET', url)).body;
      expect(body).not.toContain(TOKEN);
      expect(body).not.toContain(APP_SECRET);
      expect(body).not.toContain('providerConfig');
    }
    const [row] = await server.deps.database.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
    const stored = row.providerConfig;
    expect(stored.phoneNumberId).toBe(PHONE_ID);
    expect(stored.accessToken).not.toBe(TOKEN);
    expect(stored.appSecret).not.toBe(APP_SECRET);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(JSON.stringify(stored)).not.toContain(APP_SECRET);
  });

  it('an update that does not resend the secrets keeps them', async () => {
    const res = await call(t.admin, 'PUT', `/whatsapp/${whatsappId}`, { providerConfig: { verifyToken: VERIFY } });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await server.deps.database.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
    expect(row.providerConfig.accessToken).toMatch(/^enc:v1:/);
    expect(row.providerConfig.appSecret).toMatch(/^enc:v1:/);
  });
});

describe('webhook verification', () => {
  const verify = (query: string) => server.app.inject({ method: 'GET', url: `/webhooks/cloud/${whatsappId}?${query}` });

  it('echoes the challenge for the right verify token', async () => {
    const res = await verify(`hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('1158201444');
  });

  it('refuses a wrong token, a wrong mode and an unknown connection', async () => {
    expect((await verify('hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1')).statusCode).toBe(403);
    expect((await verify(`hub.mode=unsubscribe&hub.verify_token=${VERIFY}&hub.challenge=1`)).statusCode).toBe(403);
    const unknown = await server.app.inject({
      method: 'GET',
      url: `/webhooks/cloud/999999?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1`,
    });
    expect(unknown.statusCode).toBe(403);
  });
});

describe('inbound', () => {
  it('a signed text opens a pending ticket with that message', async () => {
    const res = await webhook(inboundText('wamid.IN1', 'Olá, preciso de ajuda'));
    expect(res.statusCode, res.body).toBe(200);
    const tickets = (await call(t.admin, 'GET', `/tickets?searchParam=${NUMBER}&showAll=true`)).json().tickets;
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ status: 'pending', whatsappId, contact: { number: NUMBER } });
    const list = (await call(t.admin, 'GET', `/messages/${tickets[0].id}`)).json().messages;
    expect(list.map((m: { body: string }) => m.body)).toEqual(['Olá, preciso de ajuda']);
    expect(await storedMessage('wamid.IN1')).toMatchObject({ fromMe: false, companyId: t.companyId });
  });

  it('a bad or missing signature is refused and nothing is stored', async () => {
    const bad = await webhook(inboundText('wamid.BAD1', 'forjada'), sign('other body'));
    expect(bad.statusCode).toBe(401);
    const wrongSecret = await webhook(inboundText('wamid.BAD2', 'forjada'), 'sha256=00');
    expect(wrongSecret.statusCode).toBe(401);
    const missing = await webhook(inboundText('wamid.BAD3', 'forjada'), null);
    expect(missing.statusCode).toBe(401);
    for (const id of ['wamid.BAD1', 'wamid.BAD2', 'wamid.BAD3']) expect(await storedMessage(id)).toBeUndefined();
  });

  it('an image is downloaded from the Graph API and served to the company', async () => {
    const res = await webhook({
      contacts: [{ wa_id: NUMBER, profile: { name: 'Rita Cloud' } }],
      messages: [
        {
          id: 'wamid.IMG1',
          from: NUMBER,
          type: 'image',
          context: { id: 'wamid.IN1' },
          image: { id: 'media-in-1', mime_type: 'image/png', caption: 'a foto' },
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await storedMessage('wamid.IMG1');
    expect(stored).toMatchObject({ body: 'a foto', mediaType: 'image' });
    const ticketId = stored.ticketId;
    const list = (await call(t.admin, 'GET', `/messages/${ticketId}`)).json().messages as {
      body: string;
      mediaUrl: string | null;
      quotedMsg?: { body: string } | null;
    }[];
    const image = list.find((m) => m.body === 'a foto');
    expect(image?.mediaUrl).toMatch(/^\/media\//);
    const file = await server.app.inject({ method: 'GET', url: image?.mediaUrl as string, headers: t.admin.headers });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(stored.quotedMsgId).toBe((await storedMessage('wamid.IN1')).id);
  });

  it('a location is stored as the spec body image|link|description', async () => {
    const location = (id: string, place: object) => ({
      contacts: [{ wa_id: NUMBER, profile: { name: 'Rita Cloud' } }],
      messages: [{ id, from: NUMBER, type: 'location', location: { latitude: -23.55, longitude: -46.63, ...place } }],
    });
    expect((await webhook(location('wamid.LOC1', { name: 'Praça da Sé', address: 'Sé, São Paulo' }))).statusCode).toBe(
      200,
    );
    expect((await webhook(location('wamid.LOC2', {}))).statusCode).toBe(200);
    expect(await storedMessage('wamid.LOC1')).toMatchObject({
      mediaType: 'locationMessage',
      body: '|https://maps.google.com/maps?q=-23.55%2C-46.63&z=17|Praça da Sé, Sé, São Paulo',
    });
    expect((await storedMessage('wamid.LOC2')).body).toBe('|https://maps.google.com/maps?q=-23.55%2C-46.63&z=17|');
  });
});

describe('sending and statuses', () => {
  it('an agent reply goes to the Graph API; delivered and read move its ack', async () => {
    const ticketId = (await storedMessage('wamid.IN1')).ticketId;
    await call(t.admin, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: t.admin.user.id });
    const res = await call(t.admin, 'POST', `/messages/${ticketId}`, { body: 'Claro, como posso ajudar?' });
    expect(res.statusCode, res.body).toBe(201);
    const out = await waitUntil(
      async () =>
        graph.seen
          .filter((s) => s.method === 'POST' && s.path === `/v21.0/${PHONE_ID}/messages`)
          .map((s) => ({ ...s, json: JSON.parse(s.body.toString()) }))
          .filter((s) => s.json.type === 'text'),
      (v) => v.length > 0,
    );
    expect(out[0].auth).toBe(`Bearer ${TOKEN}`);
    expect(out[0].json).toMatchObject({ messaging_product: 'whatsapp', to: NUMBER, type: 'text' });
    expect(out[0].json.text.body).toContain('Claro, como posso ajudar?');

    const sent = await waitUntil(
      async () =>
        (await server.deps.database.db.select().from(messages).where(eq(messages.ticketId, ticketId))).find(
          (m) => m.fromMe && m.providerId?.startsWith('wamid.OUT'),
        ),
      (m) => m !== undefined,
    );
    const providerId = sent?.providerId as string;
    expect(sent?.ack).toBe(1);

    const status = (s: string) => webhook({ statuses: [{ id: providerId, status: s, recipient_id: NUMBER }] });
    expect((await status('delivered')).statusCode).toBe(200);
    expect((await storedMessage(providerId)).ack).toBe(2);
    expect((await status('read')).statusCode).toBe(200);
    expect((await storedMessage(providerId)).ack).toBe(3);
    // A late "sent" never moves it back; "failed" is only logged.
    expect((await status('sent')).statusCode).toBe(200);
    expect((await status('failed')).statusCode).toBe(200);
    expect((await storedMessage(providerId)).ack).toBe(3);
  });

  it('read receipts: one request for the newest message, which marks the earlier ones read', async () => {
    const reads = () =>
      graph.seen
        .filter((s) => s.method === 'POST' && s.path === `/v21.0/${PHONE_ID}/messages`)
        .map((s) => JSON.parse(s.body.toString()))
        .filter((body) => body.status === 'read');
    const before = reads().length;
    await server.deps.channels
      .get(whatsappId)
      .markRead(NUMBER, [{ providerId: 'wamid.R1' }, { providerId: 'wamid.R2' }, { providerId: 'wamid.R3' }]);
    expect(reads().slice(before)).toEqual([{ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.R3' }]);
    await server.deps.channels.get(whatsappId).markRead(NUMBER, []);
    expect(reads()).toHaveLength(before + 1);
  });

  it('a number WhatsApp refuses fails the message at once, without spending retries', async () => {
    const contact = (
      await call(t.admin, 'POST', '/contacts', { name: 'Sem WhatsApp', number: NOT_ON_WHATSAPP })
    ).json();
    const ticket = await call(t.admin, 'POST', '/tickets', { contactId: contact.id, whatsappId, status: 'open' });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const res = await call(t.admin, 'POST', `/messages/${ticket.json().id}`, { body: 'Olá?' });
    expect(res.statusCode, res.body).toBe(201);
    const failed = await waitUntil(
      async () =>
        (await server.deps.database.db.select().from(messages).where(eq(messages.ticketId, ticket.json().id))).find(
          (m) => m.fromMe,
        ),
      (m) => m?.sendStatus === 'failed',
    );
    expect(failed?.providerId).toBeNull();
    const attempts = graph.seen.filter(
      (s) => s.path === `/v21.0/${PHONE_ID}/messages` && JSON.parse(s.body.toString()).to === NOT_ON_WHATSAPP,
    );
    expect(attempts).toHaveLength(1);
  });

  it('media is uploaded first and then sent by its id; a quoted reply carries the context', async () => {
    const ticketId = (await storedMessage('wamid.IN1')).ticketId;
    const form = new FormData();
    form.append('body', 'Segue o contrato');
    form.append(
      'medias',
      new Blob([new Uint8Array(Buffer.from('%PDF-1.4 test'))], { type: 'application/pdf' }),
      'contrato.pdf',
    );
    const request = new Request('http://local/', { method: 'POST', body: form });
    const res = await server.app.inject({
      method: 'POST',
      url: `/messages/${ticketId}`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { ...t.admin.headers, 'content-type': request.headers.get('content-type') as string },
    });
    expect(res.statusCode, res.body).toBe(201);
    const doc = await waitUntil(
      async () =>
        graph.seen
          .filter((s) => s.method === 'POST' && s.path === `/v21.0/${PHONE_ID}/messages`)
          .map((s) => JSON.parse(s.body.toString()))
          .filter((j) => j.type === 'document'),
      (v) => v.length > 0,
    );
    expect(doc[0]).toMatchObject({ to: NUMBER, document: { id: 'up-1', filename: 'contrato.pdf' } });
    const upload = graph.seen.find((s) => s.path === `/v21.0/${PHONE_ID}/media`);
    expect(upload?.contentType).toMatch(/^multipart\/form-data/);
    expect(upload?.body.toString()).toContain('%PDF-1.4 test');

    const quoted = (await storedMessage('wamid.IN1')).id;
    const reply = await call(t.admin, 'POST', `/messages/${ticketId}`, {
      body: 'Respondendo',
      quotedMsg: { id: quoted },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const withContext = await waitUntil(
      async () =>
        graph.seen
          .filter((s) => s.path === `/v21.0/${PHONE_ID}/messages`)
          .map((s) => JSON.parse(s.body.toString()))
          .filter((j) => j.type === 'text' && String(j.text.body).includes('Respondendo')),
      (v) => v.length > 0,
    );
    expect(withContext[0].context).toEqual({ message_id: 'wamid.IN1' });
  });

  it('a status with a bad signature changes nothing', async () => {
    const [m] = await server.deps.database.db.select().from(messages).where(eq(messages.providerId, 'wamid.IN1'));
    const res = await webhook({ statuses: [{ id: 'wamid.IN1', status: 'read' }] }, 'sha256=deadbeef');
    expect(res.statusCode).toBe(401);
    expect((await storedMessage('wamid.IN1')).ack).toBe(m.ack);
  });
});
