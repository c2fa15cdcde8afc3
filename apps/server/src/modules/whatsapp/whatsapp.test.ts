import { companyEvent } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let t: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server, { plan: { connections: 3 } });
});
afterAll(() => server.close());

const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

type Conn = { id: number; name: string; isDefault: boolean; status: string; qrcode: string; queues: { id: number }[] };
const list = async (tenant: Tenant) => (await call(tenant.admin, 'GET', '/whatsapp')).json() as Conn[];
const create = async (tenant: Tenant, body: Record<string, unknown>) => {
  const res = await call(tenant.admin, 'POST', '/whatsapp', { provider: 'sandbox', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Conn;
};
const queue = async (tenant: Tenant, name: string, color: string) => {
  const res = await call(tenant.admin, 'POST', '/queue', { name, color });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};

describe('connections CRUD', () => {
  it('lets a plain user read the connections but not add, edit, delete or drive sessions', async () => {
    const own = await create(t, { name: 'Vendas' });
    expect((await call(t.user, 'GET', '/whatsapp')).statusCode).toBe(200);
    expect((await call(t.user, 'GET', `/whatsapp/${own.id}`)).statusCode).toBe(200);
    const attempts = [
      call(t.user, 'POST', '/whatsapp', { name: 'By a user', provider: 'sandbox' }),
      call(t.user, 'PUT', `/whatsapp/${own.id}`, { name: 'Renamed by a user' }),
      call(t.user, 'DELETE', `/whatsapp/${own.id}`),
      call(t.user, 'POST', `/whatsappsession/${own.id}`),
      call(t.user, 'PUT', `/whatsappsession/${own.id}`),
      call(t.user, 'DELETE', `/whatsappsession/${own.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    const after = await list(t);
    expect(after.map((c) => c.name)).toEqual(['Vendas']);
    expect(after[0].status).toBe('DISCONNECTED');
  });

  it('never returns the session, provider settings or token hash', async () => {
    const secret = 'cloud-access-token-very-secret';
    const created = await call(t.admin, 'POST', '/whatsapp', {
      name: 'Cloud',
      provider: 'cloud',
      providerConfig: { accessToken: secret, appSecret: 'app-secret-value' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    // Pair a sandbox connection so that its session column holds something.
    const [sandbox] = (await list(t)).filter((c) => c.name === 'Vendas');
    await call(t.admin, 'POST', `/whatsappsession/${sandbox.id}`);
    expect((await call(t.admin, 'POST', `/sandbox/${sandbox.id}/scan`)).statusCode).toBe(200);

    const bodies = [
      created.body,
      (await call(t.admin, 'GET', '/whatsapp')).body,
      (await call(t.admin, 'GET', '/whatsapp?session=0')).body,
      (await call(t.admin, 'GET', `/whatsapp/${id}`)).body,
      (await call(t.admin, 'GET', `/whatsapp/${sandbox.id}`)).body,
      (await call(t.admin, 'PUT', `/whatsapp/${id}`, { providerConfig: { accessToken: `${secret}-2` } })).body,
      (await call(t.user, 'GET', '/whatsapp')).body,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(secret);
      expect(body).not.toContain('app-secret-value');
      expect(body).not.toContain('sandbox:paired');
      for (const key of ['"session"', '"providerConfig"', '"tokenHash"', '"token"'])
        expect(body).not.toContain(`${key}:`);
    }
    expect(JSON.parse(bodies[1]).find((c: Conn) => c.id === id)).toMatchObject({ hasToken: false });
    await call(t.admin, 'DELETE', `/whatsapp/${id}`);
    await call(t.admin, 'DELETE', `/whatsappsession/${sandbox.id}`);
  });

  it('makes the first connection the default; a new default unsets the old one', async () => {
    const tenant = await createTenant(server);
    const first = await create(tenant, { name: 'Primeira', isDefault: false });
    expect(first.isDefault).toBe(true);
    const second = await create(tenant, { name: 'Segunda' });
    expect(second.isDefault).toBe(false);
    const third = await create(tenant, { name: 'Terceira', isDefault: true });
    expect(third.isDefault).toBe(true);
    expect((await list(tenant)).filter((c) => c.isDefault).map((c) => c.id)).toEqual([third.id]);

    const updated = await call(tenant.admin, 'PUT', `/whatsapp/${second.id}`, { isDefault: true });
    expect(updated.json().isDefault).toBe(true);
    expect((await list(tenant)).filter((c) => c.isDefault).map((c) => c.id)).toEqual([second.id]);
  });

  it('refuses to unset the only default (ERR_NO_OTHER_WHATSAPP)', async () => {
    const tenant = await createTenant(server);
    const only = await create(tenant, { name: 'Única' });
    const res = await call(tenant.admin, 'PUT', `/whatsapp/${only.id}`, { isDefault: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect((await list(tenant))[0].isDefault).toBe(true);
  });

  it('deleting the default promotes another connection and tells the company live', async () => {
    const tenant = await createTenant(server);
    const a = await create(tenant, { name: 'Alpha' });
    const b = await create(tenant, { name: 'Beta' });
    const socket = await connectSocket(server, tenant.user.token);
    try {
      const deleted = eventWhere<{ action: string; whatsappId: number }>(
        socket,
        companyEvent.whatsapp(tenant.companyId),
        (e) => e.action === 'delete',
      );
      const res = await call(tenant.admin, 'DELETE', `/whatsapp/${a.id}`);
      expect(res.statusCode).toBe(200);
      expect((await deleted).whatsappId).toBe(a.id);
    } finally {
      socket.close();
    }
    const after = await list(tenant);
    expect(after.map((c) => [c.id, c.isDefault])).toEqual([[b.id, true]]);
    expect((await call(tenant.admin, 'GET', `/whatsapp/${a.id}`)).json().error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('partial updates keep the fields that were not sent', async () => {
    const tenant = await createTenant(server);
    const q1 = await queue(tenant, 'Suporte', '#112233');
    const q2 = await queue(tenant, 'Financeiro', '#445566');
    const conn = await create(tenant, {
      name: 'Atendimento',
      greetingMessage: 'Olá! Escolha uma fila',
      complationMessage: 'Até logo',
      maxUseBotQueues: 5,
      queueIds: [q1, q2],
    });
    expect(conn.isDefault).toBe(true);
    const res = await call(tenant.admin, 'PUT', `/whatsapp/${conn.id}`, { name: 'Atendimento 2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Atendimento 2',
      isDefault: true,
      provider: 'sandbox',
      greetingMessage: 'Olá! Escolha uma fila',
      complationMessage: 'Até logo',
      maxUseBotQueues: 5,
    });
    expect(
      res
        .json()
        .queues.map((q: { id: number }) => q.id)
        .sort(),
    ).toEqual([q1, q2].sort());
  });

  it('asks for a greeting when a connection has several queues (ERR_WAPP_GREETING_REQUIRED)', async () => {
    const tenant = await createTenant(server);
    const q1 = await queue(tenant, 'Fila 1', '#000001');
    const q2 = await queue(tenant, 'Fila 2', '#000002');
    const refused = await call(tenant.admin, 'POST', '/whatsapp', {
      name: 'Sem saudação',
      provider: 'sandbox',
      queueIds: [q1, q2],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_WAPP_GREETING_REQUIRED');
    expect(await list(tenant)).toEqual([]);

    // One queue needs no greeting; adding a second one does.
    const conn = await create(tenant, { name: 'Uma fila', queueIds: [q1] });
    const update = await call(tenant.admin, 'PUT', `/whatsapp/${conn.id}`, { queueIds: [q1, q2] });
    expect(update.json().error).toBe('ERR_WAPP_GREETING_REQUIRED');
    expect((await list(tenant))[0].queues.map((q) => q.id)).toEqual([q1]);
    const blank = await call(tenant.admin, 'PUT', `/whatsapp/${conn.id}`, {
      queueIds: [q1, q2],
      greetingMessage: '   ',
    });
    expect(blank.json().error).toBe('ERR_WAPP_GREETING_REQUIRED');

    const ok = await call(tenant.admin, 'PUT', `/whatsapp/${conn.id}`, {
      queueIds: [q1, q2],
      greetingMessage: 'Bem-vindo!',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().queues).toHaveLength(2);
    // Removing the greeting while two queues remain is refused too.
    const cleared = await call(tenant.admin, 'PUT', `/whatsapp/${conn.id}`, { greetingMessage: '' });
    expect(cleared.json().error).toBe('ERR_WAPP_GREETING_REQUIRED');
  });

  it("refuses another company's queue on a connection", async () => {
    const other = await createTenant(server);
    const foreign = await queue(other, 'Alheia', '#0000AA');
    const res = await call(t.admin, 'POST', '/whatsapp', { name: 'Com fila alheia', queueIds: [foreign] });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('enforces the plan connections limit (ERR_PLAN_LIMIT_CONNECTIONS) and unique names', async () => {
    const tenant = await createTenant(server, { plan: { connections: 2 } });
    await create(tenant, { name: 'Um' });
    const dup = await call(tenant.admin, 'POST', '/whatsapp', { name: 'Um', provider: 'sandbox' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_WAPP_NAME_ALREADY_EXISTS');
    const two = await create(tenant, { name: 'Dois' });
    const rename = await call(tenant.admin, 'PUT', `/whatsapp/${two.id}`, { name: 'Um' });
    expect(rename.json().error).toBe('ERR_WAPP_NAME_ALREADY_EXISTS');
    const over = await call(tenant.admin, 'POST', '/whatsapp', { name: 'Três', provider: 'sandbox' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'ERR_PLAN_LIMIT_CONNECTIONS', limit: 2 });
    expect(await list(tenant)).toHaveLength(2);
  });

  it('lets only the allowed number of concurrent creations through', async () => {
    const tenant = await createTenant(server, { plan: { connections: 2 } });
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(tenant.admin, 'POST', '/whatsapp', { name: `Conexão ${i}`, provider: 'sandbox' }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 403, 403]);
    for (const r of results.filter((r) => r.statusCode === 403))
      expect(r.json().error).toBe('ERR_PLAN_LIMIT_CONNECTIONS');
    // Exactly one of them is the default.
    expect((await list(tenant)).map((w) => w.isDefault).sort()).toEqual([false, true]);
  });

  it('validates the name (2 to 50 characters)', async () => {
    const short = await call(t.admin, 'POST', '/whatsapp', { name: 'A', provider: 'sandbox' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toContainEqual({ path: 'name', message: 'Muito curto!' });
    const long = await call(t.admin, 'POST', '/whatsapp', { name: 'x'.repeat(51), provider: 'sandbox' });
    expect(long.json().fields).toContainEqual({ path: 'name', message: 'Muito longo!' });
  });
});

describe('sessions on the sandbox provider', () => {
  type SessionEvent = { action: string; session: Conn };

  it('start → OPENING then qrcode with a payload; a new QR replaces it; scan → CONNECTED; disconnect', async () => {
    const tenant = await createTenant(server);
    const conn = await create(tenant, { name: 'Sessão' });
    const socket = await connectSocket(server, tenant.admin.token);
    const event = companyEvent.whatsappSession(tenant.companyId);
    const seen: SessionEvent[] = [];
    socket.on(event, (e: SessionEvent) => seen.push(e));
    try {
      const qr = eventWhere<SessionEvent>(socket, event, (e) => e.session.status === 'qrcode');
      const started = await call(tenant.admin, 'POST', `/whatsappsession/${conn.id}`);
      expect(started.statusCode).toBe(200);
      const first = (await qr).session;
      expect(first).toMatchObject({ id: conn.id, status: 'qrcode' });
      expect(first.qrcode.length).toBeGreaterThan(10);
      expect(seen.map((e) => e.session.status)).toEqual(['OPENING', 'qrcode']);
      expect((await call(tenant.admin, 'GET', `/whatsapp/${conn.id}`)).json()).toMatchObject({
        status: 'qrcode',
        qrcode: first.qrcode,
      });

      const renewed = eventWhere<SessionEvent>(
        socket,
        event,
        (e) => e.session.status === 'qrcode' && e.session.qrcode !== first.qrcode,
      );
      expect((await call(tenant.admin, 'PUT', `/whatsappsession/${conn.id}`)).statusCode).toBe(200);
      expect((await renewed).session.qrcode).not.toBe('');

      const connected = eventWhere<SessionEvent>(socket, event, (e) => e.session.status === 'CONNECTED');
      expect((await call(tenant.admin, 'POST', `/sandbox/${conn.id}/scan`)).statusCode).toBe(200);
      const live = (await connected).session;
      expect(live.qrcode).toBe('');
      expect((await call(tenant.admin, 'GET', `/whatsapp/${conn.id}`)).json()).toMatchObject({
        status: 'CONNECTED',
        qrcode: '',
      });
      expect((await list(tenant))[0].status).toBe('CONNECTED');

      const down = eventWhere<SessionEvent>(socket, event, (e) => e.session.status === 'DISCONNECTED');
      expect((await call(tenant.admin, 'DELETE', `/whatsappsession/${conn.id}`)).statusCode).toBe(200);
      expect((await down).session.qrcode).toBe('');
      expect((await call(tenant.admin, 'GET', `/whatsapp/${conn.id}`)).json().status).toBe('DISCONNECTED');

      // Logged out: starting again shows a new QR code instead of reconnecting.
      const again = eventWhere<SessionEvent>(socket, event, (e) => e.session.status === 'qrcode');
      await call(tenant.admin, 'POST', `/whatsappsession/${conn.id}`);
      expect((await again).session.qrcode).not.toBe(first.qrcode);
    } finally {
      socket.close();
    }
  });

  it('a paired connection reconnects without a QR code when started again', async () => {
    const tenant = await createTenant(server);
    const conn = await create(tenant, { name: 'Pareada' });
    await call(tenant.admin, 'POST', `/whatsappsession/${conn.id}`);
    await call(tenant.admin, 'POST', `/sandbox/${conn.id}/scan`);
    await server.deps.channels.stop(conn.id);
    await call(tenant.admin, 'POST', `/whatsappsession/${conn.id}`);
    expect((await call(tenant.admin, 'GET', `/whatsapp/${conn.id}`)).json()).toMatchObject({
      status: 'CONNECTED',
      qrcode: '',
    });
  });

  it('a provider that is not available here cannot start (ERR_WAPP_NOT_INITIALIZED)', async () => {
    const tenant = await createTenant(server);
    const beta = await call(tenant.admin, 'POST', '/whatsapp', { name: 'Beta', provider: 'beta' });
    expect(beta.statusCode).toBe(201);
    const res = await call(tenant.admin, 'POST', `/whatsappsession/${beta.json().id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect((await list(tenant))[0].status).toBe('DISCONNECTED');
  });
});
