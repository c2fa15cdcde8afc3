import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../src/modules/messages/messages.schema.js';
import { quickMessages } from '../src/modules/quick-messages/quick-messages.schema.js';
import { createTenant, createTestServer, login, type Session, SUPER, type Tenant, type TestServer } from './harness.js';
import { connectedSandbox, contactWrites } from './sandbox-helpers.js';

/**
 * Hostile input (issue 8): no malformed request answers 500, and every refusal has the
 * `{error: 'ERR_…', message}` shape. The corpus is generated from the OpenAPI document (plus the
 * hidden routes), so a new route is attacked as soon as it exists: oversize, negative, fractional,
 * infinite and hex ids in every path parameter, the same in every query parameter and every numeric
 * body field, NUL in every string, empty PUT bodies, without a token too. Targeted tests follow
 * for what a user would notice.
 */

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minItems?: number;
  minimum?: number;
};
interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's form: `/users/:id`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: Schema;
}
interface Outcome {
  label: string;
  res: LightMyRequestResponse;
}

const HOSTILE_IDS = ['99999999999', '2147483648', '-1', '1.5', '1e309', '0x10', 'abc', '\u0000', '1\u0000'];
const HOSTILE_QUERY = ['99999999999', '-1', '1.5', '1e309', '\u0000', 'a\u0000b', '[99999999999]', '["1e400"]', '[-1]'];
/** `INF` becomes the JSON literal 1e309, which JSON.parse reads as Infinity. */
const HOSTILE_NUMBERS: unknown[] = [99999999999, -99999999999, 1.5, 'INF', '99999999999'];
const NUL = 'a\u0000b';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const APP_SECRET = 'hostile-app-secret';

let server: TestServer;
let t: Tenant;
let su: Session;
let operations: Operation[];
/** A valid value for each path parameter, by route: the corpus attacks one parameter at a time. */
let validParams: (op: Operation, param: string) => string;
let ticketId: number;
let cloudId: number;
let quickMessageId: number;

const json = (res: LightMyRequestResponse) => {
  try {
    return res.json();
  } catch {
    return undefined;
  }
};

/** Why an outcome is wrong, or null: never a 5xx, and every 4xx is `{error: 'ERR_…', message}`. */
function problem({ label, res }: Outcome): string | null {
  const body = json(res);
  if (res.statusCode >= 500) return `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 400 && !(typeof body?.error === 'string' && /^ERR_/.test(body.error) && body.message))
    return `${label} → ${res.statusCode} not an ERR_* body: ${res.body.slice(0, 200)}`;
  return null;
}

function expectSound(outcomes: Outcome[]) {
  expect(outcomes.map(problem).filter(Boolean)).toEqual([]);
}

/** Every operation of the OpenAPI document, in Fastify's path form. */
function operationsOf(doc: unknown): Operation[] {
  const { paths } = doc as { paths: Record<string, Record<string, Record<string, unknown>>> };
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const parameters = (op.parameters ?? []) as { name: string; in: string }[];
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      return {
        method: method.toUpperCase() as Operation['method'],
        path: path.replace(/\{(\w+)\}/g, ':$1'),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: content?.['application/json']?.schema,
      };
    }),
  );
}

let seq = 0;
/** A value the schema accepts (required properties only), so that one hostile field gets past the rest. */
function sample(s: Schema, key = ''): unknown {
  if (s.anyOf) return sample(s.anyOf.find((o) => !(o.enum?.length === 1 && o.enum[0] === '')) ?? s.anyOf[0], key);
  if (s.enum) return s.enum[0];
  switch (s.type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties?.[k] ?? {}, k)]));
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}));
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    default:
      if (/email/i.test(key)) return `hostile${++seq}@input.test`;
      if (s.format === 'date') return '2030-01-01';
      if (s.pattern?.includes('\\d{8,20}')) return '5511977770000';
      if (s.pattern?.includes('[0-5]')) return '10:00';
      return `Hostile ${++seq}`.padEnd(s.minLength ?? 0, 'x');
  }
}

type Leaf = { path: (string | number)[]; numeric: boolean };
/** Every string and number a body schema reaches, arrays through their first item. */
function leavesOf(s: Schema, path: (string | number)[] = []): Leaf[] {
  const options = s.anyOf ?? [s];
  if (options.some((o) => o.type === 'object'))
    return Object.entries(s.properties ?? {}).flatMap(([k, p]) => leavesOf(p, [...path, k]));
  if (s.type === 'array') return leavesOf(s.items ?? {}, [...path, 0]);
  if (options.some((o) => o.type === 'integer' || o.type === 'number')) return [{ path, numeric: true }];
  if (options.some((o) => o.type === 'string')) return [{ path, numeric: false }];
  return [];
}

/** `base` with `value` at `path`, creating what is missing from the schema. */
function withValue(base: unknown, schema: Schema, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  const sub = typeof head === 'number' ? (schema.items ?? {}) : (schema.properties?.[head] ?? {});
  if (typeof head === 'number') {
    const list = Array.isArray(base) ? [...base] : [];
    list[head] = withValue(list[head] ?? sample(sub), sub, rest, value);
    return list;
  }
  const object = { ...(base as Record<string, unknown>) };
  object[head] = withValue(object[head] ?? sample(sub, head), sub, rest, value);
  return object;
}

const rawJson = (value: unknown) => JSON.stringify(value).replaceAll('"INF"', '1e309');

const urlOf = (op: Operation, values: Record<string, string> = {}) =>
  op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? validParams(op, name)));

/** Company, plan, help-video and announcement routes are the super user's; the rest are run as the tenant's admin. */
const actorOf = (op: Operation) => (/^\/(companies|plans|helps|announcements)\b/.test(op.path) ? su : t.admin);

/** Logging out would end the session the corpus runs with: it is attacked without a token only. */
const corpusOperations = () => operations.filter((op) => !(op.method === 'DELETE' && op.path === '/auth/logout'));

async function send(
  op: Operation,
  url: string,
  session: Session | undefined,
  payload?: string,
  contentType = 'application/json',
): Promise<Outcome> {
  const headers: Record<string, string> = { ...session?.headers };
  if (payload !== undefined) headers['content-type'] = contentType;
  const res = await server.app.inject({ method: op.method, url, headers, payload });
  return { label: `${op.method} ${url} ${payload?.slice(0, 120) ?? ''}`, res };
}

const sign = (raw: string) => `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`;

async function multipart(fields: Record<string, string>, files: { field: string; name: string; type?: string }[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([PNG], { type: f.type ?? 'image/png' }), f.name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') as string,
  };
}

const messageCount = async () =>
  (await server.deps.database.db.select({ n: count() }).from(messages).where(eq(messages.companyId, t.companyId)))[0].n;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '100000', LOGIN_LIMIT_EMAIL: '100000' });
  t = await createTenant(server);
  su = await login(server, SUPER.email, SUPER.password);
  const admin = t.admin;
  const post = async (url: string, payload: object) => {
    const res = await server.call('POST', url, admin, payload);
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const whatsappId = await connectedSandbox(server, admin);
  await contactWrites(server, admin, whatsappId, { number: '5511955550001', name: 'Hostile', body: 'oi' });
  const ticket = (await server.call('GET', '/tickets?showAll=true', admin)).json().tickets[0];
  ticketId = ticket.id;
  await server.call('PUT', `/tickets/${ticketId}`, admin, { status: 'open', userId: admin.user.id });
  const queue = await post('/queue', { name: 'Hostile queue', color: '#112233' });
  const option = await post('/queue-options', { queueId: queue.id, title: 'Option' });
  const tag = await post('/tags', { name: 'Hostile tag' });
  const quick = await post('/quick-messages', { shortcode: 'hostile', message: 'Hello' });
  quickMessageId = quick.id;
  const scheduled = await post('/schedules', {
    body: 'Hostile schedule',
    contactId: ticket.contact.id,
    sendAt: '2099-01-01T00:00:00Z',
  });
  const fileList = await post('/files', { name: 'Hostile files', message: 'Hello', options: [{ name: 'One' }] });
  const contactList = await post('/contact-lists', { name: 'Hostile list' });
  const listItem = await post('/contact-list-items', {
    name: 'Hostile item',
    number: '5511955550002',
    contactListId: contactList.id,
  });
  const note = await post('/ticket-notes', { note: 'A note', ticketId, contactId: ticket.contact.id });
  const cloud = await post('/whatsapp', {
    name: 'Hostile cloud',
    provider: 'cloud',
    providerConfig: { phoneNumberId: '100200300', accessToken: 'token', appSecret: APP_SECRET, verifyToken: 'verify' },
  });
  cloudId = cloud.id;
  const planId = (await server.call('GET', `/companies/${t.companyId}`, su)).json().planId;
  const help = (await server.call('POST', '/helps', su, { title: 'Hostile help', video: 'dQw4w9WgXcQ' })).json();
  const announcement = (await server.call('POST', '/announcements', su, { title: 'Hostile', text: 'notice' })).json();
  const ids: Record<string, number | string> = {
    users: t.user.user.id,
    companies: t.companyId,
    'companies/listPlan': t.companyId,
    plans: planId,
    queue: queue.id,
    'queue-options': option.id,
    whatsapp: whatsappId,
    // Restarting and closing sessions happens on a connection of its own.
    whatsappsession: await connectedSandbox(server, admin),
    sandbox: whatsappId,
    contacts: ticket.contact.id,
    tickets: ticketId,
    'tickets/u': ticket.uuid,
    messages: ticketId,
    tags: tag.id,
    'ticket-notes': note.id,
    'quick-messages': quick.id,
    schedules: scheduled.id,
    files: fileList.id,
    'files/uploadList': fileList.id,
    'contact-lists': contactList.id,
    'contact-list-items': listItem.id,
    helps: help.id,
    announcements: announcement.id,
    settings: 'userRating',
    'webhooks/cloud': cloudId,
  };
  validParams = (op, param) => {
    // Nothing is deleted: a DELETE aims at an id that exists nowhere.
    if (op.method === 'DELETE') return '2147483647';
    if (param === 'companyId') return String(t.companyId);
    if (param === 'file') return 'none.png';
    const resource = op.path.split('/:')[0].slice(1);
    return String(ids[resource] ?? 1);
  };
  await server.app.ready();
  operations = operationsOf(server.app.swagger());
  // Hidden from the API document, public, and as exposed as any other route.
  for (const method of ['GET', 'POST'] as const)
    operations.push({ method, path: '/webhooks/cloud/:whatsappId', pathParams: ['whatsappId'], queryParams: [] });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the corpus', () => {
  it('covers every route', () => {
    expect(operations.length).toBeGreaterThan(70);
    expect(operations.some((op) => op.path === '/messages/:ticketId' && op.method === 'POST')).toBe(true);
  });

  it('hostile ids in every path parameter', { timeout: 300_000 }, async () => {
    const outcomes: Outcome[] = [];
    for (const op of corpusOperations())
      for (const param of op.pathParams)
        for (const value of HOSTILE_IDS) outcomes.push(await send(op, urlOf(op, { [param]: value }), actorOf(op)));
    expect(outcomes.length).toBeGreaterThan(400);
    expectSound(outcomes);
  });

  it('hostile values in every query parameter, and NUL in an undeclared one', { timeout: 300_000 }, async () => {
    const outcomes: Outcome[] = [];
    for (const op of corpusOperations()) {
      for (const param of op.queryParams)
        for (const value of HOSTILE_QUERY)
          outcomes.push(await send(op, `${urlOf(op)}?${param}=${encodeURIComponent(value)}`, actorOf(op)));
      outcomes.push(await send(op, `${urlOf(op)}?searchParam=%00`, actorOf(op)));
    }
    expectSound(outcomes);
  });

  it('hostile numbers and NUL in every body field; bodies that are not objects', { timeout: 300_000 }, async () => {
    const outcomes: Outcome[] = [];
    for (const op of corpusOperations()) {
      if (!op.body) continue;
      const base = sample(op.body);
      for (const leaf of leavesOf(op.body))
        for (const value of leaf.numeric ? HOSTILE_NUMBERS : [NUL])
          outcomes.push(await send(op, urlOf(op), actorOf(op), rawJson(withValue(base, op.body, leaf.path, value))));
      for (const raw of ['null', '[]', '"x"', '1e309', `{"${NUL}":1}`, `${'['.repeat(20_000)}${']'.repeat(20_000)}`])
        outcomes.push(await send(op, urlOf(op), actorOf(op), raw));
    }
    expect(outcomes.length).toBeGreaterThan(300);
    expectSound(outcomes);
  });

  it('PUT with an empty object, an empty body, no body, or only an empty list', { timeout: 120_000 }, async () => {
    const outcomes: Outcome[] = [];
    for (const op of corpusOperations().filter((o) => o.method === 'PUT')) {
      const url = urlOf(op);
      const lists = Object.entries(op.body?.properties ?? {}).filter(([, p]) => p.type === 'array');
      const requests: [string | undefined, string?][] = [
        ['{}'],
        [''],
        ['', 'text/plain'],
        [undefined],
        ...lists.map(([name]): [string] => [`{"${name}":[]}`]),
      ];
      for (const [payload, contentType] of requests) {
        const outcome = await send(op, url, actorOf(op), payload, contentType);
        outcomes.push(outcome);
        if (outcome.res.statusCode !== 200) expect(outcome.res.statusCode, outcome.label).toBeGreaterThanOrEqual(400);
      }
    }
    expectSound(outcomes);
  });

  it('the same without a token', { timeout: 120_000 }, async () => {
    const outcomes: Outcome[] = [];
    for (const op of operations) {
      outcomes.push(await send(op, urlOf(op), undefined, op.body ? '{}' : undefined));
      for (const param of op.pathParams)
        for (const value of ['99999999999', '\u0000'])
          outcomes.push(await send(op, urlOf(op, { [param]: value }), undefined));
      if (op.body) outcomes.push(await send(op, urlOf(op), undefined, rawJson({ email: NUL, password: NUL })));
    }
    expectSound(outcomes);
  });
});

describe('NUL', () => {
  it('is refused in a login, a search and a body', async () => {
    const loginRes = await server.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: `admin\u0000@x.test`, password: 'x\u0000' },
    });
    expect(loginRes.statusCode).toBe(400);
    expect(loginRes.json().error).toBe('ERR_VALIDATION');
    const search = await server.call('GET', '/contacts?searchParam=%00', t.admin);
    expect(search.statusCode).toBe(400);
    const tag = await server.call('POST', '/tags', t.admin, { name: `Bad\u0000tag` });
    expect(tag.statusCode).toBe(400);
    expect(tag.json().error).toBe('ERR_VALIDATION');
  });

  it('is stripped from a WhatsApp message, which is stored and readable', async () => {
    const whatsappId = await connectedSandbox(server, t.admin);
    const res = await server.call('POST', `/sandbox/${whatsappId}/inbound`, t.admin, {
      number: '5511955550077',
      name: 'Jo\u0000ana',
      body: 'olá\u0000 mundo',
    });
    expect(res.statusCode, res.body).toBe(200);
    const tickets = (await server.call('GET', '/tickets?showAll=true&searchParam=5511955550077', t.admin)).json()
      .tickets;
    expect(tickets).toHaveLength(1);
    expect(tickets[0].contact.name).toBe('Joana');
    const list = (await server.call('GET', `/messages/${tickets[0].id}`, t.admin)).json().messages;
    expect(list.map((m: { body: string }) => m.body)).toEqual(['olá mundo']);
  });

  it('is stripped from a Cloud API message', async () => {
    const raw = JSON.stringify({
      entry: [
        {
          changes: [
            {
              value: {
                contacts: [{ wa_id: '5511955550088', profile: { name: 'Cloud\u0000 Contact' } }],
                messages: [{ id: 'wamid.NUL1', from: '5511955550088', type: 'text', text: { body: 'nul\u0000 here' } }],
              },
            },
          ],
        },
      ],
    });
    const res = await server.app.inject({
      method: 'POST',
      url: `/webhooks/cloud/${cloudId}`,
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [stored] = await server.deps.database.db.select().from(messages).where(eq(messages.providerId, 'wamid.NUL1'));
    expect(stored?.body).toBe('nul here');
  });
});

describe('a signed Cloud API webhook with a malformed payload', () => {
  const message = { id: 'wamid.BAD', from: '5511955550099', type: 'text', text: { body: 'x' } };
  const delivery = (value: unknown) => ({ entry: [{ changes: [{ value }] }] });
  const payloads: string[] = [
    'null',
    '[]',
    '"x"',
    '12',
    '{}',
    '{"entry":{}}',
    '{"entry":[null]}',
    '{"entry":[{"changes":{}}]}',
    '{"entry":[{"changes":[null]}]}',
    ...[
      null,
      5,
      { messages: {} },
      { messages: [null] },
      { messages: message },
      { messages: [{ ...message, from: 5511955550099 }] },
      { messages: [{ ...message, id: undefined }] },
      { messages: [{ ...message, from: undefined }] },
      { messages: [{ ...message, type: 5 }] },
      { messages: [{ ...message, text: 5 }] },
      { messages: [{ ...message, timestamp: 'yesterday' }] },
      { messages: [{ ...message, type: 'location', location: { latitude: 'x' } }] },
      { messages: [{ ...message, type: 'contacts', contacts: {} }] },
      { messages: [{ ...message, type: 'image', image: { id: 5 } }] },
      { messages: [{ ...message, context: 'x' }] },
      { contacts: {}, messages: [] },
      { contacts: [{ wa_id: 5, profile: 7 }] },
      { metadata: 5 },
      { statuses: {} },
      { statuses: [null, { id: 5, status: 5 }, { id: 'wamid.X' }] },
    ].map((v) => JSON.stringify(delivery(v))),
  ];

  it('answers 200 or 400 and stores nothing', async () => {
    const before = await messageCount();
    const outcomes: Outcome[] = [];
    for (const raw of payloads) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/webhooks/cloud/${cloudId}`,
        payload: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) },
      });
      outcomes.push({ label: raw, res });
      expect([200, 400], `${raw} → ${res.statusCode} ${res.body}`).toContain(res.statusCode);
    }
    expectSound(outcomes);
    expect(await messageCount()).toBe(before);
  });

  it('refusals have the ERR_* shape', async () => {
    const wrongToken = await server.app.inject({
      method: 'GET',
      url: `/webhooks/cloud/${cloudId}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    });
    expect(wrongToken.statusCode).toBe(403);
    expect(wrongToken.json().error).toMatch(/^ERR_/);
    const unsigned = await server.app.inject({ method: 'POST', url: `/webhooks/cloud/${cloudId}`, payload: {} });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().error).toMatch(/^ERR_/);
  });
});

describe('malformed multipart', () => {
  const upload = (url: string, payload: Buffer | string, contentType: string) =>
    server.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { ...t.admin.headers, 'content-type': contentType },
    });
  const sendUrl = () => `/messages/${ticketId}`;
  const mediaUrl = () => `/quick-messages/${quickMessageId}/media-upload`;
  const avatarUrl = () => `/users/${t.admin.user.id}/avatar`;

  it('is refused with 400', async () => {
    const file = await multipart({}, [{ field: 'medias', name: 'a.png' }]);
    const truncated = file.payload.subarray(0, file.payload.length - 20);
    const cases: [string, Buffer | string, string][] = [
      [sendUrl(), 'x', 'multipart/form-data'],
      [mediaUrl(), 'x', 'multipart/form-data'],
      [sendUrl(), truncated, file.contentType],
      [mediaUrl(), truncated, file.contentType],
      [sendUrl(), '--x\r\nbroken', 'multipart/form-data; boundary=x'],
      [avatarUrl(), 'x', 'multipart/form-data'],
      [avatarUrl(), truncated, file.contentType],
    ];
    const notJson = await multipart({ body: 'hi', quotedMsg: '{not json' }, []);
    cases.push([sendUrl(), notJson.payload, notJson.contentType]);
    const hugeQuote = await multipart({ body: 'hi', quotedMsg: '{"id":99999999999}' }, []);
    cases.push([sendUrl(), hugeQuote.payload, hugeQuote.contentType]);
    const nulField = await multipart({ body: 'a\u0000b' }, []);
    cases.push([sendUrl(), nulField.payload, nulField.contentType]);
    const textOnly = await multipart({ file: 'not a file' }, []);
    cases.push([mediaUrl(), textOnly.payload, textOnly.contentType]);
    cases.push([avatarUrl(), textOnly.payload, textOnly.contentType]);
    const wrongField = await multipart({}, [{ field: 'other', name: 'a.png' }]);
    cases.push([sendUrl(), wrongField.payload, wrongField.contentType]);
    const outcomes: Outcome[] = [];
    for (const [url, payload, contentType] of cases) {
      const res = await upload(url, payload, contentType);
      outcomes.push({ label: `${url} ${contentType} ${payload.toString().slice(0, 80)}`, res });
      expect(res.statusCode, `${url} ${payload.toString().slice(0, 80)} → ${res.body}`).toBe(400);
    }
    expectSound(outcomes);
    const json = await server.call('POST', mediaUrl(), t.admin, { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect((await server.call('POST', avatarUrl(), t.admin, { file: 'x' })).statusCode).toBe(400);
  });

  it('a file name longer than 255 characters is kept truncated, with its extension', async () => {
    const long = `${'n'.repeat(300)}.png`;
    const sent = await multipart({ body: '' }, [{ field: 'medias', name: long }]);
    const res = await upload(sendUrl(), sent.payload, sent.contentType);
    expect(res.statusCode, res.body).toBe(201);
    const [stored] = await server.deps.database.db.select().from(messages).where(eq(messages.id, res.json()[0].id));
    expect(stored.mediaName).toHaveLength(255);
    expect(stored.mediaName).toMatch(/^n+\.png$/);

    const media = await multipart({}, [{ field: 'file', name: long, type: `image/${'x'.repeat(200)}` }]);
    const uploaded = await upload(mediaUrl(), media.payload, media.contentType);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const [quick] = await server.deps.database.db
      .select()
      .from(quickMessages)
      .where(eq(quickMessages.id, quickMessageId));
    expect(quick.mediaName).toMatch(/^n{251}\.png$/);
  });
});

describe('router-level errors', () => {
  it('answer the ERR_* shape', async () => {
    const cases = [
      await server.app.inject({ method: 'GET', url: '/no-such-route' }),
      await server.app.inject({ method: 'GET', url: '/users/%E0%A4%A', headers: t.admin.headers }),
      await server.app.inject({ method: 'GET', url: `/users/${'9'.repeat(300)}`, headers: t.admin.headers }),
      await server.app.inject({
        method: 'POST',
        url: '/tags',
        headers: { ...t.admin.headers, 'content-type': 'application/json' },
        payload: '{"name":',
      }),
      await server.app.inject({
        method: 'POST',
        url: '/tags',
        headers: { ...t.admin.headers, 'content-type': 'application/xml' },
        payload: '<tag/>',
      }),
      await server.app.inject({
        method: 'POST',
        url: '/tags',
        headers: { ...t.admin.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      }),
    ];
    expect(cases.map((r) => r.statusCode)).toEqual([404, 400, 414, 400, 415, 413]);
    expectSound(cases.map((res, i) => ({ label: `case ${i}`, res })));
  });

  it('431 for headers too large, before any route', async () => {
    const url = new URL(await server.listen());
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      socket.write(`GET /users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ error: expect.stringMatching(/^ERR_/), message: expect.any(String) });
  });
});

describe('a trailing slash', () => {
  it('answers like the same path without it', async () => {
    for (const path of [
      '/users',
      '/whatsapp',
      '/contacts',
      '/settings',
      '/tags',
      '/queue',
      '/quick-messages',
      '/files',
    ]) {
      const plain = await server.call('GET', path, t.admin);
      const slashed = await server.call('GET', `${path}/`, t.admin);
      expect(plain.statusCode, path).toBe(200);
      expect(slashed.statusCode, `${path}/`).toBe(200);
      expect(slashed.json()).toEqual(plain.json());
    }
  });
});
