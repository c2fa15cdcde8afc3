import { type CompanyTopic, companyEvent } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocket, createTenant, createTestServer, eventWhere, type Tenant, type TestServer } from './harness.js';
import { connectedSandbox, contactWrites } from './sandbox-helpers.js';

/**
 * The live lists of spec part 2 §4 patch themselves by action: `create` prepends, `update`
 * replaces in place, `delete` removes. Each module announces its records under its spec name
 * with the action of what happened. Connections follow spec part 1 §7 (whatsapp: update, delete),
 * so a new one is announced as `update`.
 */

type Payload = Record<string, unknown> & { action?: string };

interface Case {
  key: CompanyTopic;
  path: string;
  /** The record's key in create/update payloads and the id's key in delete payloads. */
  record: string;
  deletedId: string;
  createAction: 'create' | 'update';
  body: (marker: string) => Record<string, unknown>;
  update: (marker: string) => Record<string, unknown>;
}

const cases: Case[] = [
  {
    key: 'user',
    path: '/users',
    record: 'user',
    deletedId: 'userId',
    createAction: 'create',
    body: (m) => ({ name: m, email: `${m.toLowerCase().replace(/\W/g, '')}@live.test`, password: 'pw-123456' }),
    update: (m) => ({ name: m }),
  },
  {
    key: 'contact',
    path: '/contacts',
    record: 'contact',
    deletedId: 'contactId',
    createAction: 'create',
    body: (m) => ({ name: m, number: '5511955550001' }),
    update: (m) => ({ name: m }),
  },
  {
    key: 'queue',
    path: '/queue',
    record: 'queue',
    deletedId: 'queueId',
    createAction: 'create',
    body: (m) => ({ name: m, color: '#123456' }),
    update: (m) => ({ name: m }),
  },
  {
    key: 'tag',
    path: '/tags',
    record: 'tag',
    deletedId: 'tagId',
    createAction: 'create',
    body: (m) => ({ name: m }),
    update: (m) => ({ name: m }),
  },
  {
    key: 'quickMessage',
    path: '/quick-messages',
    record: 'record',
    deletedId: 'id',
    createAction: 'create',
    body: (m) => ({ shortcode: m, message: 'de todos' }),
    update: (m) => ({ shortcode: m }),
  },
  {
    key: 'whatsapp',
    path: '/whatsapp',
    record: 'whatsapp',
    deletedId: 'whatsappId',
    createAction: 'update',
    body: (m) => ({ name: m, provider: 'sandbox' }),
    update: (m) => ({ name: m }),
  },
];

let server: TestServer;
let t: Tenant;
let socket: Socket;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  socket = await connectSocket(server, t.admin.token);
});
afterAll(async () => {
  socket.close();
  await server.close();
});

const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: t.admin.headers });

describe('live list actions: create, update, delete (spec part 2 §4)', () => {
  it.each(cases)('company-{id}-$key', async (c) => {
    const event = companyEvent[c.key](t.companyId);
    const recordOf = (p: Payload) => p[c.record] as { id?: number; name?: string; shortcode?: string } | undefined;
    const named = (marker: string) => (p: Payload) => {
      const r = recordOf(p);
      return r?.name === marker || r?.shortcode === marker;
    };

    const created = eventWhere<Payload>(socket, event, named(`Novo ${c.key}`));
    const res = await call('POST', c.path, c.body(`Novo ${c.key}`));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    expect(await created).toMatchObject({ action: c.createAction, [c.record]: { id } });

    const updated = eventWhere<Payload>(socket, event, named(`Outro ${c.key}`));
    expect((await call('PUT', `${c.path}/${id}`, c.update(`Outro ${c.key}`))).statusCode).toBe(200);
    expect(await updated).toMatchObject({ action: 'update', [c.record]: { id } });

    const deleted = eventWhere<Payload>(socket, event, (p) => p[c.deletedId] === id);
    expect((await call('DELETE', `${c.path}/${id}`)).statusCode).toBe(200);
    expect(await deleted).toEqual({ action: 'delete', [c.deletedId]: id });
  });
});

describe('contacts created by the inbound pipeline', () => {
  it('are announced as create, once, like contacts added by hand', async () => {
    const whatsappId = await connectedSandbox(server, t.admin);
    const event = companyEvent.contact(t.companyId);
    const seen: Payload[] = [];
    const record = (p: Payload) => seen.push(p);
    socket.on(event, record);
    const created = eventWhere<Payload>(
      socket,
      event,
      (p) => (p.contact as { number?: string })?.number === '5511955550077',
    );
    await contactWrites(server, t.admin, whatsappId, { number: '5511955550077', name: 'Nova Cliente', body: 'Oi' });
    expect(await created).toMatchObject({ action: 'create', contact: { name: 'Nova Cliente', extraInfo: [] } });
    // A second message of a known contact announces no new contact.
    await contactWrites(server, t.admin, whatsappId, {
      number: '5511955550077',
      name: 'Nova Cliente',
      body: 'Tudo bem?',
    });
    const again = eventWhere<Payload>(socket, event, (p) => (p.contact as { name?: string })?.name === 'Marco');
    await call('POST', '/contacts', { name: 'Marco', number: '5511955550078' });
    await again;
    socket.off(event, record);
    const creates = seen.filter(
      (p) => p.action === 'create' && (p.contact as { number?: string }).number === '5511955550077',
    );
    expect(creates).toHaveLength(1);
  });
});
