import { assistantMsg } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../../test/fakes/openai.js';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf } from '../../../test/sandbox-helpers.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { assistantTokens } from './assistant.schema.js';
import { completeWithQuota, dayOf } from './assistant.service.js';

let fake: FakeOpenAi;
let server: TestServer;
let t: Tenant;
let other: Tenant;

const TOKEN = 'sk-widget-personal-0123456789';

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000', OPENAI_BASE_URL: fake.url, OPENAI_TIMEOUT_MS: '1500' });
  t = await createTenant(server, { plan: { users: 50 } });
  other = await createTenant(server, { plan: { users: 50 } });
});
afterAll(async () => {
  await server.close();
  await fake.close();
});
beforeEach(() => fake.reset());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

const emailOf = (s: Session) => s.user.email;

/** A fresh plain user of `tenant`, logged in, with the widget signed in and (by default) a token. */
async function widgetUser(tenant: Tenant, opts: { token?: boolean } = {}): Promise<Session> {
  const email = `widget-${Math.random().toString(36).slice(2, 10)}@tenant.test`;
  const created = await call(tenant.admin, 'POST', '/users', {
    name: 'Widget user',
    email,
    password: 'widget-pass',
    profile: 'user',
  });
  expect(created.statusCode, created.body).toBe(201);
  const session = await login(server, email, 'widget-pass');
  const signed = await call(session, 'POST', '/assistant/auth', { username: email, password: 'widget-pass' });
  expect(signed.statusCode, signed.body).toBe(200);
  if (opts.token !== false) {
    expect((await call(session, 'PUT', '/assistant/token', { token: TOKEN })).statusCode).toBe(200);
  }
  return session;
}

describe('the auth step', () => {
  it('starts signed out, without token, with the full quota and no history', async () => {
    const res = await call(t.user, 'GET', '/assistant');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ signedIn: false, hasToken: false, usage: { remaining: 20, limit: 20 }, history: [] });
  });

  it("accepts only the caller's own e-mail and password, with the spec's message otherwise", async () => {
    const refused = [
      { username: emailOf(t.user), password: 'wrong-pass' },
      // Another user's valid credentials are not the caller's.
      { username: emailOf(t.admin), password: 'admin-pass' },
      { username: 'nobody@tenant.test', password: t.userPassword },
    ];
    for (const payload of refused) {
      const res = await call(t.user, 'POST', '/assistant/auth', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'ERR_ASSISTANT_INVALID_CREDENTIALS',
        message: assistantMsg.wrongCredentials,
      });
    }
    const empty = await call(t.user, 'POST', '/assistant/auth', { username: ' ', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.map((f: { message: string }) => f.message)).toContain(assistantMsg.fillAll);

    const ok = await call(t.user, 'POST', '/assistant/auth', {
      username: ` ${emailOf(t.user).toUpperCase()} `,
      password: t.userPassword,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ signedIn: true, hasToken: false });
    expect((await call(t.user, 'GET', '/assistant')).json().signedIn).toBe(true);
  });

  it('locks the step after repeated failures', async () => {
    const s = await widgetUser(other, { token: false });
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (await call(s, 'POST', '/assistant/auth', { username: emailOf(s), password: 'nope' })).statusCode;
    }
    expect(last).toBe(429);
  });

  it('refuses the token and chat steps before the auth step, and a new product session signs the widget out', async () => {
    const s = await widgetUser(t);
    const again = await login(server, emailOf(s), 'widget-pass');
    expect((await call(again, 'GET', '/assistant')).json()).toMatchObject({ signedIn: false, hasToken: true });
    for (const [method, url, payload] of [
      ['PUT', '/assistant/token', { token: 'sk-other' }],
      ['POST', '/assistant/messages', { content: 'Oi' }],
    ] as const) {
      const res = await call(again, method, url, payload);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toBe('ERR_ASSISTANT_SIGNED_OUT');
    }
    expect(fake.chats()).toHaveLength(0);
  });
});

describe('the token step', () => {
  it('stores the token encrypted and only ever tells whether there is one', async () => {
    const s = await widgetUser(t, { token: false });
    const empty = await call(s, 'PUT', '/assistant/token', { token: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields[0].message).toBe(assistantMsg.emptyToken);

    const saved = await call(s, 'PUT', '/assistant/token', { token: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ hasToken: true });
    const state = await call(s, 'GET', '/assistant');
    expect(state.json().hasToken).toBe(true);
    expect(state.body).not.toContain(TOKEN);
    const [row] = await server.deps.database.db
      .select({ token: assistantTokens.token })
      .from(assistantTokens)
      .where(eq(assistantTokens.userId, s.user.id));
    expect(row.token).toMatch(/^enc:v1:/);
    expect(row.token).not.toContain(TOKEN);
  });

  it('"Token não configurado" without a token, and nothing sent or counted', async () => {
    const s = await widgetUser(t, { token: false });
    const res = await call(s, 'POST', '/assistant/messages', { content: 'Olá' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_ASSISTANT_NO_TOKEN', message: assistantMsg.noToken });
    expect(fake.chats()).toHaveLength(0);
    expect((await call(s, 'GET', '/assistant')).json().usage).toEqual({ remaining: 20, limit: 20 });
  });
});

describe('the chat', () => {
  it('sends the whole history plus the new message with the spec model, temperature and token', async () => {
    const s = await widgetUser(t);
    fake.script({ text: 'Primeira resposta' }, { text: 'Segunda resposta' });
    const first = await call(s, 'POST', '/assistant/messages', { content: 'Primeira pergunta' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      message: { role: 'user', content: 'Primeira pergunta' },
      reply: { role: 'assistant', content: 'Primeira resposta' },
      usage: { remaining: 19, limit: 20 },
    });
    const second = await call(s, 'POST', '/assistant/messages', { content: 'Segunda pergunta' });
    expect(second.json().usage).toEqual({ remaining: 18, limit: 20 });

    const [a, b] = fake.chats();
    expect(a.authorization).toBe(`Bearer ${TOKEN}`);
    expect(a.json).toMatchObject({ model: 'gpt-3.5-turbo', temperature: 0.7 });
    expect(a.json?.tools).toBeUndefined();
    expect(a.json?.messages).toEqual([{ role: 'user', content: 'Primeira pergunta' }]);
    expect(b.json?.messages).toEqual([
      { role: 'user', content: 'Primeira pergunta' },
      { role: 'assistant', content: 'Primeira resposta' },
      { role: 'user', content: 'Segunda pergunta' },
    ]);
    const state = (await call(s, 'GET', '/assistant')).json();
    expect(state.history.map((h: { content: string }) => h.content)).toEqual([
      'Primeira pergunta',
      'Primeira resposta',
      'Segunda pergunta',
      'Segunda resposta',
    ]);
    expect(state.usage).toEqual({ remaining: 18, limit: 20 });
  });

  it.each([
    { what: 'a 5xx after its retry', replies: [{ status: 500 }, { status: 503 }] },
    { what: 'a refused token', replies: [{ status: 401 }] },
    { what: 'a timeout', replies: [{ hang: true as const }] },
  ])("answers $what with the spec's message, keeping the quota and the history", async ({ replies }) => {
    const s = await widgetUser(t);
    fake.script(...replies);
    const res = await call(s, 'POST', '/assistant/messages', { content: 'Vai falhar' });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json()).toMatchObject({
      error: 'ERR_ASSISTANT_PROVIDER',
      message: assistantMsg.providerFailure,
      usage: { remaining: 20, limit: 20 },
    });
    expect(res.body).not.toContain(TOKEN);
    expect((await call(s, 'GET', '/assistant')).json()).toMatchObject({
      usage: { remaining: 20, limit: 20 },
      history: [],
    });
  });

  it('logout clears the history and signs the widget out; the token stays', async () => {
    const s = await widgetUser(t);
    await call(s, 'POST', '/assistant/messages', { content: 'Lembre disto' });
    const out = await call(s, 'POST', '/assistant/logout');
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ signedIn: false, hasToken: true, history: [] });
    const back = await call(s, 'POST', '/assistant/auth', { username: emailOf(s), password: 'widget-pass' });
    expect(back.json()).toMatchObject({ signedIn: true, hasToken: true, history: [] });
    await call(s, 'POST', '/assistant/messages', { content: 'Nova conversa' });
    expect(fake.chats().at(-1)?.json?.messages).toEqual([{ role: 'user', content: 'Nova conversa' }]);
  });

  it("never shows one user's history or token to another, in the same company or another", async () => {
    const owner = await widgetUser(t);
    await call(owner, 'POST', '/assistant/messages', { content: 'Segredo do dono' });
    for (const s of [await widgetUser(t), await widgetUser(other), t.admin, other.admin]) {
      const res = await call(s, 'GET', '/assistant');
      expect(res.body).not.toContain('Segredo do dono');
      expect(res.json().usage).toEqual({ remaining: 20, limit: 20 });
    }
    const neighbour = await widgetUser(t, { token: false });
    expect((await call(neighbour, 'GET', '/assistant')).json().hasToken).toBe(false);
    expect((await call(neighbour, 'POST', '/assistant/messages', { content: 'x' })).json().error).toBe(
      'ERR_ASSISTANT_NO_TOKEN',
    );
  });
});

describe('the daily quota', () => {
  it('lets exactly 20 of 30 concurrent sends through; the rest get the over-quota message', async () => {
    const s = await widgetUser(t);
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(s, 'POST', '/assistant/messages', { content: `Pergunta ${i}` })),
    );
    const ok = replies.filter((r) => r.statusCode === 200);
    const over = replies.filter((r) => r.statusCode === 429);
    expect(ok).toHaveLength(20);
    expect(over).toHaveLength(10);
    for (const r of over) {
      expect(r.json()).toMatchObject({
        error: 'ERR_ASSISTANT_DAILY_LIMIT',
        message: assistantMsg.overQuota,
        usage: { remaining: 0, limit: 20 },
      });
    }
    expect(ok.map((r) => r.json().usage.remaining).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(fake.chats()).toHaveLength(20);
    expect((await call(s, 'GET', '/assistant')).json().usage).toEqual({ remaining: 0, limit: 20 });
  });

  it("counts by calendar day in the company's time zone, and a new day starts over", async () => {
    const s = await widgetUser(other);
    const db = server.deps.database.db;
    // 02:00 UTC on Jan 2 is still Jan 1 in São Paulo (the default zone), already Jan 2 in Tokyo.
    const lateEvening = new Date('2030-01-02T02:00:00Z');
    expect(await dayOf(db, other.companyId, lateEvening)).toBe('2030-01-01');
    const ctx: ServiceContext = {
      db,
      companyId: other.companyId,
      userId: s.user.id,
      profile: 'user',
      isSuper: false,
      sessionId: 'unused',
      realtime: server.deps.realtime,
      jobs: server.deps.jobs,
    };
    const deps = (now: Date) => ({
      key: encryptionKeyOf(server.deps.config),
      openai: { baseUrl: fake.url, timeoutMs: 1500 },
      limiter: server.deps.limiter,
      maxFailures: 10,
      now: () => now,
    });
    const ask = (now: Date) => completeWithQuota(ctx, deps(now), [{ role: 'user', content: 'Oi' }]);
    for (let i = 0; i < 20; i++) await ask(lateEvening);
    await expect(ask(lateEvening)).rejects.toMatchObject({ code: 'ERR_ASSISTANT_DAILY_LIMIT' });
    // Midnight in São Paulo is 03:00 UTC.
    expect((await ask(new Date('2030-01-02T03:00:01Z'))).usage).toEqual({ remaining: 19, limit: 20 });

    const zone = await call(other.admin, 'PUT', '/settings/timezone', { value: 'Asia/Tokyo' });
    expect(zone.statusCode, zone.body).toBe(200);
    expect(await dayOf(db, other.companyId, lateEvening)).toBe('2030-01-02');
    expect((await ask(lateEvening)).usage).toEqual({ remaining: 18, limit: 20 });
  });
});

describe('help in a ticket (beyond the spec)', () => {
  const NUMBER = '5511955554444';
  let ticketId: number;
  let whatsappId: number;
  let admin: Session;

  beforeAll(async () => {
    whatsappId = await connectedSandbox(server, t.admin);
    await contactWrites(server, t.admin, whatsappId, {
      number: NUMBER,
      name: 'Cliente',
      body: 'Meu pedido 123 atrasou',
    });
    await contactWrites(server, t.admin, whatsappId, { number: NUMBER, name: 'Cliente', body: 'Quero o reembolso' });
    ticketId = (await call(t.admin, 'GET', '/tickets?status=pending')).json().tickets[0].id;
    admin = t.admin;
    expect(
      (await call(admin, 'POST', '/assistant/auth', { username: emailOf(admin), password: 'admin-pass' })).statusCode,
    ).toBe(200);
    expect((await call(admin, 'PUT', '/assistant/token', { token: TOKEN })).statusCode).toBe(200);
  });

  it.each([
    { help: 'summary', payload: undefined, expected: 'Resuma a conversa' },
    { help: 'suggestion', payload: undefined, expected: 'Sugira a próxima resposta' },
    { help: 'rephrase', payload: { draft: 'vou ver isso ai' }, expected: 'Reescreva o rascunho' },
  ])('$help: reads the conversation, returns the text and sends nothing', async ({ help, payload, expected }) => {
    fake.script({ text: ' Texto do assistente ' });
    const before = (await call(admin, 'GET', '/assistant')).json().usage.remaining;
    const res = await call(admin, 'POST', `/assistant/tickets/${ticketId}/${help}`, payload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ text: 'Texto do assistente', usage: { remaining: before - 1, limit: 20 } });
    const [request] = fake.chats();
    expect(request.json?.messages[0]).toMatchObject({ role: 'system' });
    expect(request.json?.messages[0].content).toContain(expected);
    expect(request.json?.messages[1].content).toContain('Cliente: Meu pedido 123 atrasou\nCliente: Quero o reembolso');
    if (payload) expect(request.json?.messages[1].content).toContain('vou ver isso ai');
    expect(await phoneOf(server, t.admin, whatsappId, NUMBER)).toEqual([]);
    const history = (await call(admin, 'GET', '/assistant')).json().history;
    expect(history).toEqual([]);
  });

  it("refuses tickets the caller may not see, and another company's, before anything else", async () => {
    const plain = await widgetUser(t);
    const hidden = await call(plain, 'POST', `/assistant/tickets/${ticketId}/summary`);
    expect(hidden.statusCode, hidden.body).toBe(403);
    const foreign = await widgetUser(other);
    const res = await call(foreign, 'POST', `/assistant/tickets/${ticketId}/summary`);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
    expect(res.body).not.toContain('reembolso');
    expect(fake.chats()).toHaveLength(0);
  });
});
