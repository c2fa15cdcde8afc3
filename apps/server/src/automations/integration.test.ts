import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeBotReceiver, startFakeBotReceiver } from '../../test/fakes/bot-receiver.js';
import { type FakeDialogflow, startFakeDialogflow } from '../../test/fakes/dialogflow.js';
import { choiceInput, type FakeTypebot, startFakeTypebot, textBubble } from '../../test/fakes/typebot.js';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { integrationSessions } from '../modules/integrations/integrations.schema.js';
import { closeExpiredSessions } from '../modules/integrations/integrations.sessions.js';
import { BOT_FALLBACK_TEXT } from './integration.js';

/** Queue integrations in the inbound pipeline (DOMAIN §1.7, §17), seen from the contact's phone, against local fakes. */

let typebot: FakeTypebot;
let receiver: FakeBotReceiver;
let dialogflow: FakeDialogflow;
let server: TestServer;
let t: Tenant;
let vendas: number;
let suporte: number;
let typebotId: number;
let typebotConnection: number;
let seq = 0;

beforeAll(async () => {
  typebot = await startFakeTypebot();
  dialogflow = await startFakeDialogflow();
  server = await createTestServer(
    { LOGIN_LIMIT_IP: '1000', OUTBOUND_ALLOW_PRIVATE: 'true', DIALOGFLOW_BASE_URL: dialogflow.url },
    { jobs: true },
  );
  t = await createTenant(server, { plan: { queues: 20, connections: 20 } });
  vendas = (await call(t.admin, 'POST', '/queue', { name: 'Vendas', color: '#A10001' })).json().id;
  suporte = (await call(t.admin, 'POST', '/queue', { name: 'Suporte', color: '#A10002' })).json().id;
  typebotId = (
    await call(t.admin, 'POST', '/queueIntegration', {
      type: 'typebot',
      name: 'Fluxo da loja',
      urlN8N: typebot.url,
      typebotSlug: 'loja-abc',
      typebotDelayMessage: 0,
      typebotKeywordFinish: 'Sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'Vamos recomeçar!',
      typebotUnknownMessage: 'Não entendi, um atendente já vem.',
    })
  ).json().id;
  typebotConnection = await connectedSandbox(server, t.admin, { integrationId: typebotId });
  const webhook = await call(t.admin, 'POST', '/queueIntegration', {
    type: 'n8n',
    name: 'Fluxo n8n',
    urlN8N: 'http://127.0.0.1:1/placeholder',
  });
  receiver = await startFakeBotReceiver(webhook.json().signingSecret);
  await call(t.admin, 'PUT', `/queueIntegration/${webhook.json().id}`, { urlN8N: receiver.url });
  await call(t.admin, 'PUT', `/queue/${suporte}`, { integrationId: webhook.json().id });
});
afterAll(async () => {
  await server.close();
  await Promise.all([typebot.close(), receiver.close(), dialogflow.close()]);
});
beforeEach(() => {
  typebot.reset();
  receiver.reset();
  dialogflow.reset();
});

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Ticket = { id: number; queueId: number | null; userId: number | null; status: string; useIntegration: boolean };
async function ticketOf(number: string): Promise<Ticket> {
  const list = (await call(t.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`)).json().tickets as Ticket[];
  expect(list).toHaveLength(1);
  return list[0];
}

const newNumber = () => `55118${String(6000_0000 + ++seq)}`;

function contact(connection = typebotConnection, number = newNumber()) {
  return {
    number,
    write: (body: string) => contactWrites(server, t.admin, connection, { number, name: 'Dora Lima', body }),
    received: async (count: number) =>
      (
        await waitUntil(
          () => phoneOf(server, t.admin, connection, number),
          (list) => list.length >= count,
        )
      ).map((m) => m.body),
    phone: async () => (await phoneOf(server, t.admin, connection, number)).map((m) => m.body),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough for the job poll and a turn: what did not happen by then will not. */
const quietPeriod = () => sleep(2500);

describe('Typebot on a connection (DOMAIN §17)', () => {
  it('starts the flow with the contact’s real first message, sends its bubbles in WhatsApp markdown, and takes a choice by number', async () => {
    typebot.script(
      {
        messages: [
          textBubble([{ text: 'Olá, ' }, { text: 'Dora', bold: true }, { text: '!' }]),
          textBubble('Escolha uma opção:'),
        ],
        input: choiceInput('Comprar', 'Trocar'),
      },
      { messages: [textBubble('Certo, vamos trocar.')], input: { id: 'i9', type: 'text input', options: {} } },
    );
    const c = contact();
    await c.write('Quero ajuda com um pedido');
    expect(await c.received(3)).toEqual(['Olá, *Dora*!', 'Escolha uma opção:', '1 - Comprar\n2 - Trocar']);
    const [start] = typebot.requests;
    expect(start).toMatchObject({ kind: 'start', slug: 'loja-abc' });
    expect(start.body).toMatchObject({ message: { type: 'text', text: 'Quero ajuda com um pedido' } });
    const ticket = await ticketOf(c.number);
    expect(JSON.stringify(start.body)).toContain(c.number);
    expect(JSON.stringify(start.body)).toContain(String(ticket.id));
    expect(ticket).toMatchObject({ queueId: null, userId: null, useIntegration: true });

    await c.write('2');
    expect((await c.received(4)).at(-1)).toBe('Certo, vamos trocar.');
    expect(typebot.requests[1]).toMatchObject({
      kind: 'continue',
      body: { message: { type: 'text', text: 'Trocar' } },
    });
    expect(typebot.requests[1].sessionId).toBeTruthy();
  });

  it('feeds a burst in order, each message once, even when the contact writes during a turn', async () => {
    typebot.defaultReply = { messages: [textBubble('ok')], input: { id: 'i1', type: 'text input', options: {} } };
    const c = contact();
    await c.write('um');
    await c.write('dois');
    await c.write('três');
    await c.received(3);
    await quietPeriod();
    const texts = typebot.requests.map((r) => (r.body.message as { text: string }).text);
    expect(texts).toEqual(['um', 'dois', 'três']);
    expect(await c.phone()).toEqual(['ok', 'ok', 'ok']);
  });

  it('finish keyword (any case and accents) leaves the bot; restart keyword starts a new flow', async () => {
    typebot.defaultReply = { messages: [textBubble('Oi!')], input: { id: 'i1', type: 'text input', options: {} } };
    const c = contact();
    await c.write('Oi');
    await c.received(1);
    await c.write('  REINICIAR ');
    expect((await c.received(2)).at(-1)).toBe('Vamos recomeçar!');
    await c.write('De novo');
    await c.received(3);
    expect(typebot.requests.map((r) => r.kind)).toEqual(['start', 'start']);

    await c.write('sáir');
    await quietPeriod();
    expect((await ticketOf(c.number)).useIntegration).toBe(false);
    const before = typebot.requests.length;
    await c.write('Ainda está aí?');
    await quietPeriod();
    expect(typebot.requests).toHaveLength(before);
  });

  it('stays silent once an agent accepted the ticket, or answered it', async () => {
    typebot.defaultReply = { messages: [textBubble('Oi!')], input: { id: 'i1', type: 'text input', options: {} } };
    const accepted = contact();
    await accepted.write('Oi');
    await accepted.received(1);
    const ticket = await ticketOf(accepted.number);
    const accept = await call(t.admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: t.admin.user.id });
    expect(accept.statusCode, accept.body).toBe(200);
    await accepted.write('Obrigada');
    await quietPeriod();
    expect(typebot.requests).toHaveLength(1);

    const answered = contact();
    await answered.write('Oi');
    await answered.received(1);
    const other = await ticketOf(answered.number);
    await call(t.admin, 'POST', `/messages/${other.id}`, { body: 'Aqui é a Marta.' });
    await answered.received(2);
    await answered.write('Oi Marta');
    await quietPeriod();
    expect(typebot.requests).toHaveLength(2);
  });

  it('when Typebot fails: the unknown message once, the ticket left for people, the bot silent after', async () => {
    typebot.script({ status: 500 });
    const c = contact();
    await c.write('Olá');
    expect(await c.received(1)).toEqual(['Não entendi, um atendente já vem.']);
    await waitUntil(
      () => ticketOf(c.number),
      (tk) => !tk.useIntegration,
    );
    await c.write('Alô?');
    await quietPeriod();
    expect(typebot.requests).toHaveLength(1);
    expect(await c.phone()).toHaveLength(1);
  });

  it('an expired session is closed by the timer and the next message starts the flow anew', async () => {
    typebot.defaultReply = { messages: [textBubble('Oi!')], input: { id: 'i1', type: 'text input', options: {} } };
    const c = contact();
    await c.write('Oi');
    await c.received(1);
    const ticket = await ticketOf(c.number);
    const db = server.deps.database.db;
    await db
      .update(integrationSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrationSessions.ticketId, ticket.id));
    expect(await closeExpiredSessions(db)).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(integrationSessions).where(eq(integrationSessions.ticketId, ticket.id));
    expect(row.status).toBe('closed');
    await c.write('Voltei');
    await c.received(2);
    expect(typebot.requests.map((r) => r.kind)).toEqual(['start', 'start']);
    expect(typebot.requests[1].body).toMatchObject({ message: { text: 'Voltei' } });
  });

  it('does not run when the plan turns useIntegrations off', async () => {
    const tenant = await createTenant(server, { plan: { useIntegrations: false } });
    // The integration was created while the flag was on: the plan changing later must stop it.
    const plan = await createTenant(server);
    const integration = await call(plan.admin, 'POST', '/queueIntegration', {
      type: 'typebot',
      name: 'Fluxo',
      urlN8N: typebot.url,
      typebotSlug: 'x',
    });
    expect(integration.statusCode).toBe(201);
    const off = await call(tenant.admin, 'POST', '/queueIntegration', {
      type: 'typebot',
      name: 'F',
      urlN8N: typebot.url,
      typebotSlug: 'x',
    });
    expect(off.statusCode).toBe(403);
    const conn = await connectedSandbox(server, tenant.admin, { greetingMessage: 'Bem-vindo!' });
    await contactWrites(server, tenant.admin, conn, { number: newNumber(), body: 'Oi' });
    await quietPeriod();
    expect(typebot.requests).toHaveLength(0);
  });
});

describe('n8n on a queue (DOMAIN §17)', () => {
  it('posts a signed, typed event and sends the synchronous reply; transfer:{queueId} moves the ticket', async () => {
    const conn = await connectedSandbox(server, t.admin, { queueIds: [suporte] });
    receiver.script(
      { json: { output: 'Recebemos sua mensagem.' } },
      { json: { output: 'Vou te passar para vendas.', action: `transfer:${vendas}` } },
    );
    const c = contact(conn);
    await c.write('Preciso de suporte');
    expect(await c.received(1)).toEqual(['Recebemos sua mensagem.']);
    const [first] = receiver.deliveries;
    expect(first.signatureValid).toBe(true);
    const ticket = await ticketOf(c.number);
    expect(first.json).toMatchObject({
      event: 'message',
      ticketId: ticket.id,
      companyId: t.companyId,
      contact: { number: c.number, name: 'Dora Lima' },
      message: { type: 'chat', text: 'Preciso de suporte' },
      chatInput: 'Preciso de suporte',
    });
    expect(first.headers['x-balcao-delivery']).toBe(first.json.deliveryId);
    expect(first.raw).not.toMatch(/token|password|secret/i);

    await c.write('Quero comprar');
    expect((await c.received(2)).at(-1)).toBe('Vou te passar para vendas.');
    await waitUntil(
      () => ticketOf(c.number),
      (tk) => tk.queueId === vendas && !tk.useIntegration,
    );
  });

  it('a webhook that never answers: the fallback once after its 5 s timeout, the pipeline unblocked', async () => {
    const webhook = await call(t.admin, 'POST', '/queueIntegration', {
      type: 'webhook',
      name: 'Gancho',
      urlN8N: receiver.url,
    });
    const queue = await call(t.admin, 'POST', '/queue', {
      name: 'Lento',
      color: '#A10003',
      integrationId: webhook.json().id,
    });
    const conn = await connectedSandbox(server, t.admin, { queueIds: [queue.json().id] });
    receiver.script({ hang: true });
    const c = contact(conn);
    const started = Date.now();
    await c.write('Olá');
    const [fallback] = (
      await waitUntil(
        () => phoneOf(server, t.admin, conn, c.number),
        (list) => list.length >= 1,
        15_000,
      )
    ).map((m) => m.body);
    expect(fallback).toBe(BOT_FALLBACK_TEXT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    expect((await ticketOf(c.number)).useIntegration).toBe(false);
    // Another contact of the same connection was never held up by the hanging call.
    receiver.script({ json: { output: 'Oi!' } });
    const d = contact(conn);
    await d.write('Oi');
    expect(await d.received(1)).toEqual(['Oi!']);
  }, 40_000);
});

describe('Dialogflow on a connection (DOMAIN §17)', () => {
  it('answers with the agent’s fulfilment and hands off on a handoff action', async () => {
    const integration = await call(t.admin, 'POST', '/queueIntegration', {
      type: 'dialogflow',
      name: 'Agente',
      language: 'pt-BR',
      jsonContent: dialogflow.createServiceAccount({ project_id: 'loja-df' }),
    });
    const conn = await connectedSandbox(server, t.admin, { integrationId: integration.json().id });
    dialogflow.script(
      { queryResult: { fulfillmentText: 'Olá! Como posso ajudar?' } },
      { queryResult: { fulfillmentText: 'Vou chamar alguém.', action: 'handoff' } },
    );
    const c = contact(conn);
    await c.write('Oi');
    expect(await c.received(1)).toEqual(['Olá! Como posso ajudar?']);
    await c.write('Quero falar com uma pessoa');
    expect((await c.received(2)).at(-1)).toBe('Vou chamar alguém.');
    await waitUntil(
      () => ticketOf(c.number),
      (tk) => !tk.useIntegration,
    );
    expect(dialogflow.detectIntents.map((d) => d.body.queryInput?.text?.languageCode)).toEqual(['pt-BR', 'pt-BR']);
    expect(dialogflow.detectIntents[0].project).toBe('loja-df');
  });
});

describe('the private-address guard (DOMAIN §11)', () => {
  it('refuses an integration URL on 127.0.0.1 unless OUTBOUND_ALLOW_PRIVATE, and the receiver hears nothing', async () => {
    const guarded = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
    try {
      const tenant = await createTenant(guarded);
      const res = await guarded.app.inject({
        method: 'POST',
        url: '/queueIntegration/testSession',
        headers: tenant.admin.headers,
        payload: { type: 'webhook', name: 'Interno', urlN8N: receiver.url },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().ok).toBe(false);
      expect(receiver.deliveries).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
});
