import type { QueueIntegration } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotReceiver } from '../../../test/fakes/bot-receiver.js';
import { startFakeDialogflow } from '../../../test/fakes/dialogflow.js';
import { startFakeTypebot, textBubble } from '../../../test/fakes/typebot.js';
import {
  connectSocket,
  createTenant,
  createTestServer,
  recordEvents,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { queueIntegrations } from './integrations.schema.js';

/** `/queueIntegration` (spec part 2 §3, §5, §7; DOMAIN §17): the records, their secrets and `testSession`. */

let server: TestServer;
let t: Tenant;
let other: Tenant;
let typebot: Awaited<ReturnType<typeof startFakeTypebot>>;
let dialogflow: Awaited<ReturnType<typeof startFakeDialogflow>>;

beforeAll(async () => {
  typebot = await startFakeTypebot();
  dialogflow = await startFakeDialogflow();
  server = await createTestServer({
    LOGIN_LIMIT_IP: '1000',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    DIALOGFLOW_BASE_URL: dialogflow.url,
  });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
});
afterAll(async () => {
  await server.close();
  await typebot.close();
  await dialogflow.close();
});

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function create(session: Session, body: Record<string, unknown>): Promise<QueueIntegration> {
  const res = await call(session, 'POST', '/queueIntegration', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const typebotBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'typebot',
  name: 'Fluxo de vendas',
  urlN8N: 'https://typebot.example.com',
  typebotSlug: 'vendas-abc',
  ...overrides,
});

describe('/queueIntegration records', () => {
  it('creates a typebot with the spec defaults; its project name is its name', async () => {
    const created = await create(t.admin, typebotBody({ projectName: 'ignored' }));
    expect(created).toMatchObject({
      type: 'typebot',
      name: 'Fluxo de vendas',
      projectName: 'Fluxo de vendas',
      language: 'pt-BR',
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotSlug: 'vendas-abc',
    });
    expect((await call(t.user, 'GET', `/queueIntegration/${created.id}`)).json()).toMatchObject({ id: created.id });
  });

  it('refuses what spec part 2 §5 refuses, per type, with the field named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [typebotBody({ name: 'A' }), 'name'],
      [typebotBody({ name: 'x'.repeat(51) }), 'name'],
      [typebotBody({ urlN8N: '' }), 'urlN8N'],
      [typebotBody({ typebotSlug: '' }), 'typebotSlug'],
      [{ type: 'n8n', name: 'Fluxo n8n' }, 'urlN8N'],
      [{ type: 'webhook', name: 'Gancho', urlN8N: 'ftp://host/x' }, 'urlN8N'],
      [{ type: 'dialogflow', name: 'Agente', projectName: 'p1', language: 'pt-BR' }, 'jsonContent'],
      [{ type: 'dialogflow', name: 'Agente', projectName: 'p1', jsonContent: '{"no":"key"}' }, 'jsonContent'],
      [{ type: 'telegram', name: 'Outro' }, 'type'],
      [typebotBody({ language: 'fr' }), 'language'],
    ];
    for (const [body, path] of cases) {
      const res = await call(t.admin, 'POST', '/queueIntegration', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    // An edit is checked against the stored record: clearing a typebot's slug is refused too.
    const saved = await create(t.admin, typebotBody({ name: 'Outro fluxo' }));
    const res = await call(t.admin, 'PUT', `/queueIntegration/${saved.id}`, { typebotSlug: '' });
    expect(res.statusCode).toBe(400);
    expect((await call(t.admin, 'GET', `/queueIntegration/${saved.id}`)).json().typebotSlug).toBe('vendas-abc');
  });

  it('stores Dialogflow credentials encrypted, shows only their e-mail, and keeps them on an edit without them', async () => {
    const account = dialogflow.createServiceAccount({ project_id: 'agente-123' });
    const created = await create(t.admin, { type: 'dialogflow', name: 'Agente', jsonContent: account });
    expect(created).toMatchObject({ projectName: 'agente-123', language: 'pt-BR' });
    expect(created.jsonContentClientEmail).toMatch(/@/);
    const privateKey = JSON.parse(account).private_key as string;
    const [row] = await server.deps.database.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, created.id));
    expect(row.jsonContent).toMatch(/^enc:v1:/);
    for (const res of [
      await call(t.admin, 'GET', '/queueIntegration'),
      await call(t.admin, 'GET', '/queueIntegration/?pageNumber=1'),
      await call(t.admin, 'GET', `/queueIntegration/${created.id}`),
      await call(t.admin, 'PUT', `/queueIntegration/${created.id}`, { language: 'es' }),
    ]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('PRIVATE KEY');
      expect(res.body).not.toContain(privateKey.slice(40, 80));
    }
    const [kept] = await server.deps.database.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, created.id));
    expect(kept.jsonContent).toBe(row.jsonContent);
    expect(kept.language).toBe('es');
  });

  it('gives n8n and webhook a signing secret that only admins read, never in events', async () => {
    const admin = await connectSocket(server, t.admin.token);
    const user = await connectSocket(server, t.user.token);
    try {
      const event = `company-${t.companyId}-queueIntegration`;
      const seenByUser = recordEvents(user);
      const seenByAdmin = recordEvents(admin);
      const ofEvent = (seen: { event: string; payload: unknown }[]) =>
        seen.filter((e) => e.event === event).map((e) => e.payload as { action: string });
      const created = await create(t.admin, { type: 'webhook', name: 'Gancho', urlN8N: 'https://hooks.example.com/x' });
      expect(created.signingSecret).toMatch(/^[0-9a-f]{64}$/);
      const secret = created.signingSecret as string;
      expect((await call(t.admin, 'GET', `/queueIntegration/${created.id}`)).json().signingSecret).toBe(secret);
      expect((await call(t.user, 'GET', `/queueIntegration/${created.id}`)).body).not.toContain(secret);
      expect((await call(t.user, 'GET', '/queueIntegration')).body).not.toContain(secret);
      // Editing keeps the secret receivers already verify with.
      const edited = await call(t.admin, 'PUT', `/queueIntegration/${created.id}`, { name: 'Gancho 2' });
      expect(edited.json().signingSecret).toBe(secret);
      await call(t.admin, 'DELETE', `/queueIntegration/${created.id}`);
      await waitUntil(
        async () => ofEvent(seenByUser),
        (list) => list.length >= 3,
      );
      await waitUntil(
        async () => ofEvent(seenByAdmin),
        (list) => list.length >= 3,
      );
      expect(ofEvent(seenByUser).map((e) => e.action)).toEqual(['create', 'update', 'delete']);
      expect(ofEvent(seenByUser)[2]).toEqual({ action: 'delete', integrationId: created.id });
      expect(JSON.stringify([seenByUser, seenByAdmin])).not.toContain(secret);
    } finally {
      admin.close();
      user.close();
    }
  });

  it('lists paged with search and count, and plain without a page', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 23; i++)
      await create(tenant.admin, typebotBody({ name: `Fluxo ${String(i).padStart(2, '0')}` }));
    await create(tenant.admin, { type: 'n8n', name: 'Automação n8n', urlN8N: 'https://n8n.example.com/webhook/x' });
    const first = (await call(tenant.user, 'GET', '/queueIntegration/?pageNumber=1')).json();
    expect(first.count).toBe(24);
    expect(first.hasMore).toBe(true);
    const second = (await call(tenant.user, 'GET', '/queueIntegration/?pageNumber=2')).json();
    expect(first.queueIntegrations.length + second.queueIntegrations.length).toBe(24);
    expect(second.hasMore).toBe(false);
    const search = (await call(tenant.user, 'GET', '/queueIntegration/?searchParam=N8N')).json();
    expect(search.queueIntegrations.map((i: QueueIntegration) => i.name)).toEqual(['Automação n8n']);
    const plain = (await call(tenant.user, 'GET', '/queueIntegration')).json();
    expect(Array.isArray(plain)).toBe(true);
    expect(plain).toHaveLength(24);
  });

  it('lets members read and only admins write or test', async () => {
    const saved = await create(t.admin, typebotBody({ name: 'Só leitura' }));
    expect((await call(t.user, 'GET', '/queueIntegration')).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/queueIntegration'],
      ['PUT', `/queueIntegration/${saved.id}`],
      ['DELETE', `/queueIntegration/${saved.id}`],
      ['POST', '/queueIntegration/testSession'],
    ] as const) {
      const res = await call(t.user, method, url, typebotBody());
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call(t.admin, 'GET', `/queueIntegration/${saved.id}`)).json().name).toBe('Só leitura');
  });

  it('is refused to every caller when the plan turns useIntegrations off', async () => {
    const tenant = await createTenant(server, { plan: { useIntegrations: false } });
    for (const session of [tenant.admin, tenant.user]) {
      for (const [method, url] of [
        ['GET', '/queueIntegration'],
        ['GET', '/queueIntegration/1'],
        ['POST', '/queueIntegration'],
        ['POST', '/queueIntegration/testSession'],
      ] as const) {
        const res = await call(session, method, url, method === 'POST' ? typebotBody() : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
      }
    }
  });

  it('never lets a connection, queue or ticket name another company’s integration', async () => {
    const theirs = await create(other.admin, typebotBody({ name: 'Deles' }));
    const queue = await call(t.admin, 'POST', '/queue', { name: 'Fila X', color: '#123456', integrationId: theirs.id });
    expect(queue.statusCode).toBe(404);
    expect(queue.json().error).toBe('ERR_NO_INTEGRATION_FOUND');
    const conn = await call(t.admin, 'POST', '/whatsapp', {
      name: 'Conexão X',
      provider: 'sandbox',
      integrationId: theirs.id,
    });
    expect(conn.statusCode).toBe(404);
    const mine = await create(t.admin, typebotBody({ name: 'Nossa' }));
    const ok = await call(t.admin, 'POST', '/queue', { name: 'Fila Y', color: '#123457', integrationId: mine.id });
    expect(ok.statusCode, ok.body).toBe(201);
    // Deleting the integration takes it off the queue that named it.
    await call(t.admin, 'DELETE', `/queueIntegration/${mine.id}`);
    expect((await call(t.admin, 'GET', `/queue/${ok.json().id}`)).json().integrationId).toBeNull();
  });
});

describe('POST /queueIntegration/testSession', () => {
  it('really calls a saved typebot and reports its answer', async () => {
    const saved = await create(t.admin, typebotBody({ name: 'Teste real', urlN8N: typebot.url }));
    typebot.script({ messages: [textBubble('Olá! Bem-vindo.')] });
    const res = await call(t.admin, 'POST', '/queueIntegration/testSession', { id: saved.id, text: 'Oi' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, messages: ['Olá! Bem-vindo.'], actions: [] });
    expect(typebot.requests.at(-1)).toMatchObject({ kind: 'start', slug: 'vendas-abc' });
  });

  it('tests the unsaved fields of the dialog, and reports a failing integration without a 500', async () => {
    const receiver = await startFakeBotReceiver('unused');
    try {
      receiver.script({ json: { output: 'Recebido!' } }, { status: 500 });
      const unsaved = { type: 'n8n', name: 'Fluxo novo', urlN8N: receiver.url };
      const ok = (await call(t.admin, 'POST', '/queueIntegration/testSession', unsaved)).json();
      expect(ok).toEqual({ ok: true, messages: ['Recebido!'], actions: [] });
      const failed = (await call(t.admin, 'POST', '/queueIntegration/testSession', unsaved)).json();
      expect(failed.ok).toBe(false);
      expect(failed.error).toBeTruthy();
    } finally {
      await receiver.close();
    }
  });

  it('asks Dialogflow with the stored credentials of a saved integration', async () => {
    const saved = await create(t.admin, {
      type: 'dialogflow',
      name: 'Agente DF',
      language: 'en',
      jsonContent: dialogflow.createServiceAccount({ project_id: 'df-proj' }),
    });
    dialogflow.script({ queryResult: { fulfillmentText: 'Hello from the agent' } });
    const res = (await call(t.admin, 'POST', '/queueIntegration/testSession', { id: saved.id, text: 'hi' })).json();
    expect(res).toEqual({ ok: true, messages: ['Hello from the agent'], actions: [] });
    expect(dialogflow.detectIntents.at(-1)).toMatchObject({
      project: 'df-proj',
      body: { queryInput: { text: { text: 'hi', languageCode: 'en' } } },
    });
  });

  it('cannot test another company’s integration', async () => {
    const theirs = await create(other.admin, typebotBody({ name: 'Alheia', urlN8N: typebot.url }));
    const before = typebot.requests.length;
    const res = await call(t.admin, 'POST', '/queueIntegration/testSession', { id: theirs.id });
    expect(res.statusCode).toBe(404);
    expect(typebot.requests.length).toBe(before);
  });
});
