import type { Prompt } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { prompts } from './prompts.schema.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let queueId: number;
let otherQueueId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  queueId = (await call(t.admin, 'POST', '/queue', { name: 'Vendas', color: '#A1A1A1' })).json().id;
  otherQueueId = (await call(other.admin, 'POST', '/queue', { name: 'Vendas B', color: '#B1B1B1' })).json().id;
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

const TRAINING = 'Você é o assistente da loja. Responda com educação e em poucas frases, sempre em português.';
const KEY = 'sk-test-0123456789abcdefWXYZ';

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Atendente virtual',
  prompt: TRAINING,
  apiKey: KEY,
  queueId,
  ...overrides,
});

async function create(session: Session, overrides: Record<string, unknown> = {}): Promise<Prompt> {
  const res = await call(session, 'POST', '/prompt', body(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('/prompt', () => {
  it('creates with the spec defaults and never returns the key', async () => {
    const p = await create(t.admin);
    expect(p).toMatchObject({
      name: 'Atendente virtual',
      voice: 'texto',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      queueId,
      queue: { id: queueId, name: 'Vendas' },
      apiKeyLast4: 'WXYZ',
      voiceKeyLast4: '',
    });
    for (const res of [
      await call(t.admin, 'GET', '/prompt'),
      await call(t.admin, 'GET', `/prompt/${p.id}`),
      await call(t.admin, 'PUT', `/prompt/${p.id}`, { maxTokens: 200 }),
    ]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(KEY);
      expect(res.body).not.toContain('0123456789abcdef');
    }
    const list = (await call(t.admin, 'GET', '/prompt')).json().prompts as Prompt[];
    expect(list.map((x) => x.id)).toContain(p.id);
    expect(list.find((x) => x.id === p.id)).toMatchObject({ maxTokens: 200, apiKeyLast4: 'WXYZ' });
  });

  it('stores the keys encrypted and replaces the key only when one is sent', async () => {
    const p = await create(t.admin, { voiceKey: 'voice-secret-9876' });
    const [row] = await server.deps.database.db.select().from(prompts).where(eq(prompts.id, p.id));
    expect(row.apiKey).toMatch(/^enc:v1:/);
    expect(row.apiKey).not.toContain(KEY);
    expect(row.voiceKey).toMatch(/^enc:v1:/);
    expect(p.voiceKeyLast4).toBe('9876');

    const renamed = await call(t.admin, 'PUT', `/prompt/${p.id}`, { name: 'Outro nome', temperature: 0.4 });
    expect(renamed.json()).toMatchObject({ name: 'Outro nome', temperature: 0.4, apiKeyLast4: 'WXYZ' });
    const rekeyed = await call(t.admin, 'PUT', `/prompt/${p.id}`, { apiKey: 'sk-new-key-1111' });
    expect(rekeyed.json().apiKeyLast4).toBe('1111');
    const [after] = await server.deps.database.db.select().from(prompts).where(eq(prompts.id, p.id));
    expect(after.apiKey).not.toBe(row.apiKey);
  });

  it('validates: queue required ("Informe o setor"), training, name and ranges', async () => {
    const res = await call(t.admin, 'POST', '/prompt', { name: 'abc', prompt: 'curto', apiKey: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'queueId', message: 'Informe o setor' },
        { path: 'prompt', message: 'Descreva o treinamento para Inteligência Artificial' },
        { path: 'name', message: 'Muito curto!' },
        { path: 'apiKey', message: 'Obrigatório' },
      ]),
    );
    for (const bad of [{ maxTokens: 0 }, { temperature: 3 }, { maxMessages: 0 }, { model: 'gpt 4; drop' }]) {
      expect((await call(t.admin, 'POST', '/prompt', body(bad))).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const emptyKey = await call(t.admin, 'PUT', `/prompt/${(await create(t.admin)).id}`, { apiKey: '' });
    expect(emptyKey.statusCode).toBe(400);
  });

  it("refuses another company's queue and hides another company's prompts", async () => {
    const res = await call(t.admin, 'POST', '/prompt', body({ queueId: otherQueueId }));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_QUEUE_FOUND');
    const theirs = await create(other.admin, { queueId: otherQueueId });
    for (const [method, payload] of [['GET'], ['PUT', { name: 'Hacked by A' }], ['DELETE']] as const) {
      const r = await call(t.admin, method, `/prompt/${theirs.id}`, payload);
      expect(r.statusCode).toBe(404);
      expect(r.json().error).toBe('ERR_NO_PROMPT_FOUND');
    }
    const mine = (await call(t.admin, 'GET', '/prompt')).json().prompts as Prompt[];
    expect(mine.map((p) => p.id)).not.toContain(theirs.id);
    expect((await call(other.admin, 'GET', `/prompt/${theirs.id}`)).json().name).toBe('Atendente virtual');
  });

  it('lets plain users read but only admins write', async () => {
    const p = await create(t.admin);
    expect((await call(t.user, 'GET', '/prompt')).statusCode).toBe(200);
    expect((await call(t.user, 'GET', `/prompt/${p.id}`)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/prompt', body()],
      ['PUT', `/prompt/${p.id}`, { name: 'Pelo agente' }],
      ['DELETE', `/prompt/${p.id}`],
    ] as const) {
      const r = await call(t.user, method, url, payload);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('is off when the plan has no useOpenAi', async () => {
    const off = await createTenant(server, { plan: { useOpenAi: false } });
    for (const [method, url] of [
      ['GET', '/prompt'],
      ['GET', '/prompt/1'],
      ['POST', '/prompt'],
      ['PUT', '/prompt/1'],
      ['DELETE', '/prompt/1'],
    ] as const) {
      const r = await call(off.admin, method, url, method === 'GET' || method === 'DELETE' ? undefined : body());
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('connections, queues and tickets accept only the company’s prompts; deleting one detaches it', async () => {
    const p = await create(t.admin);
    const theirs = await create(other.admin, { queueId: otherQueueId });
    const conn = await call(t.admin, 'POST', '/whatsapp', { name: 'Com IA', provider: 'sandbox', promptId: p.id });
    expect(conn.statusCode, conn.body).toBe(201);
    expect(conn.json().promptId).toBe(p.id);
    const queue = await call(t.admin, 'POST', '/queue', { name: 'Suporte IA', color: '#C1C1C1', promptId: p.id });
    expect(queue.statusCode, queue.body).toBe(201);
    for (const [url, payload] of [
      [`/whatsapp/${conn.json().id}`, { promptId: theirs.id }],
      [`/queue/${queue.json().id}`, { promptId: theirs.id }],
    ] as const) {
      const r = await call(t.admin, 'PUT', url, payload);
      expect(r.statusCode).toBe(404);
      expect(r.json().error).toBe('ERR_NO_PROMPT_FOUND');
    }
    expect((await call(t.admin, 'DELETE', `/prompt/${p.id}`)).json()).toEqual({ message: 'Prompt deleted' });
    expect((await call(t.admin, 'GET', `/prompt/${p.id}`)).statusCode).toBe(404);
    expect((await call(t.admin, 'GET', `/whatsapp/${conn.json().id}`)).json().promptId).toBeNull();
    expect((await call(t.admin, 'GET', `/queue/${queue.json().id}`)).json().promptId).toBeNull();
  });

  it('a deleted queue leaves the prompt without a queue', async () => {
    const q = (await call(t.admin, 'POST', '/queue', { name: 'Temporária', color: '#D1D1D1' })).json().id;
    const p = await create(t.admin, { queueId: q });
    expect((await call(t.admin, 'DELETE', `/queue/${q}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/prompt/${p.id}`)).json()).toMatchObject({ queueId: null, queue: null });
  });
});
