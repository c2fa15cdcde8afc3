import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../test/fakes/openai.js';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { messages } from '../modules/messages/messages.schema.js';
import { CONTEXT_CHAR_BUDGET, conversation, FALLBACK_TEXT, HANDOFF_TEXT } from './ai-prompt.js';

/** The AI assistant of DOMAIN §16, seen from the contact's phone, against a local fake OpenAI. */

const KEY = 'sk-test-assistant-0123456789ABCD';
const TRAINING = 'Você é a Bia, assistente da Loja Exemplo. Responda com educação, em no máximo duas frases.';
/** An OGG header and a few bytes: enough for a voice note that the fake transcribes. */
const VOICE = Buffer.from('OggS\u0000\u0002fake-opus-voice-note').toString('base64');

let fake: FakeOpenAi;
let server: TestServer;
let t: Tenant;
let promptId: number;
let vendas: number;
let suporte: number;
/** A connection whose prompt answers tickets without a queue. */
let whatsappId: number;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await createTestServer(
    { LOGIN_LIMIT_IP: '1000', OPENAI_BASE_URL: fake.url, OPENAI_TIMEOUT_MS: '1500', AI_BURST_MS: '1200' },
    { jobs: true },
  );
  t = await createTenant(server, { plan: { queues: 20, connections: 10 } });
  vendas = (await call(t.admin, 'POST', '/queue', { name: 'Vendas', color: '#A10001' })).json().id;
  suporte = (await call(t.admin, 'POST', '/queue', { name: 'Suporte', color: '#A10002' })).json().id;
  const prompt = await call(t.admin, 'POST', '/prompt', {
    name: 'Bia da loja',
    prompt: TRAINING,
    apiKey: KEY,
    queueId: suporte,
  });
  expect(prompt.statusCode, prompt.body).toBe(201);
  promptId = prompt.json().id;
  // The handoff queue answers with the same prompt: after a handoff it must stay silent all the same.
  await call(t.admin, 'PUT', `/queue/${suporte}`, { promptId });
  whatsappId = await connectedSandbox(server, t.admin, { promptId });
});
afterAll(async () => {
  await server.close();
  await fake.close();
});
beforeEach(() => fake.reset());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Ticket = { id: number; queueId: number | null; userId: number | null; status: string };
async function ticketOf(number: string): Promise<Ticket> {
  const list = (await call(t.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`)).json().tickets as Ticket[];
  expect(list).toHaveLength(1);
  return list[0];
}

const newNumber = () => `55119${String(7000_0000 + ++seq)}`;

/** The contact's phone: `write` sends, `received` waits for the phone to hold `count` messages. */
function contact(number = newNumber(), connection = whatsappId) {
  return {
    number,
    write: (body: string, extra: Record<string, unknown> = {}) =>
      contactWrites(server, t.admin, connection, { number, name: 'Carla Dias', body, ...extra }),
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
/** Long enough for a burst window, the job poll and a turn: what did not happen by then will not. */
const quietPeriod = () => sleep(3500);
const conversationOf = (i = -1) => (fake.chats().at(i)?.json?.messages ?? []).filter((m) => m.role !== 'system');

describe('AI prompt on a connection (DOMAIN §16)', () => {
  it('answers the contact with the decrypted key, the training and the company’s queues as tools', async () => {
    fake.script({ text: 'Oi, Carla! Sou a Bia. Em que posso ajudar?' });
    const c = contact();
    await c.write('Oi, tudo bem?');
    expect(await c.received(1)).toEqual(['Oi, Carla! Sou a Bia. Em que posso ajudar?']);
    const [request] = fake.chats();
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.json).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 100, temperature: 1 });
    const [system, ...rest] = request.json?.messages ?? [];
    expect(system.role).toBe('system');
    expect(system.content).toContain(TRAINING);
    expect(rest).toEqual([{ role: 'user', content: 'Oi, tudo bem?' }]);
    const tools = request.json?.tools?.map((tool) => tool.function.name);
    expect(tools).toEqual(['handoff_to_human', 'transfer_to_queue']);
    const transfer = request.json?.tools?.find((tool) => tool.function.name === 'transfer_to_queue');
    expect(transfer?.function.parameters.properties.queueId).toMatchObject({ enum: [vendas, suporte] });

    // The queue menu did not run: the ticket still waits without a queue, for the assistant.
    expect((await ticketOf(c.number)).queueId).toBeNull();
    const ticket = await ticketOf(c.number);
    for (const url of ['/tickets?showAll=true', `/messages/${ticket.id}`, `/tickets/${ticket.id}`, '/prompt']) {
      expect((await call(t.admin, 'GET', url)).body).not.toContain(KEY);
    }
  });

  it('sends the newest messages of the cycle within maxMessages, with roles by direction and no notes', async () => {
    await call(t.admin, 'PUT', `/prompt/${promptId}`, { maxMessages: 3 });
    try {
      const c = contact();
      fake.script({ text: 'Resposta 1' }, { text: 'Resposta 2' }, { text: 'Resposta 3' });
      await c.write('Primeira pergunta');
      await c.received(1);
      const ticket = await ticketOf(c.number);
      const note = await call(t.admin, 'POST', '/ticket-notes', {
        note: 'Nota interna que a IA não vê',
        ticketId: ticket.id,
        contactId: (await call(t.admin, 'GET', `/tickets/${ticket.id}`)).json().contactId,
      });
      expect(note.statusCode, note.body).toBe(201);
      await c.write('Segunda pergunta');
      await c.received(2);
      await c.write('Terceira pergunta');
      expect(await c.received(3)).toEqual(['Resposta 1', 'Resposta 2', 'Resposta 3']);
      expect(conversationOf()).toEqual([
        { role: 'user', content: 'Segunda pergunta' },
        { role: 'assistant', content: 'Resposta 2' },
        { role: 'user', content: 'Terceira pergunta' },
      ]);
      expect(JSON.stringify(fake.requests)).not.toContain('Nota interna');
    } finally {
      await call(t.admin, 'PUT', `/prompt/${promptId}`, { maxMessages: 10 });
    }
  });

  it('answers a burst of messages once', async () => {
    fake.script({ text: 'Entendi tudo: pedido 123, troca de tamanho.' });
    const c = contact();
    await c.write('Oi');
    await c.write('Meu pedido é o 123');
    await c.write('Quero trocar o tamanho');
    expect(await c.received(1)).toEqual(['Entendi tudo: pedido 123, troca de tamanho.']);
    await quietPeriod();
    expect(fake.chats()).toHaveLength(1);
    expect(await c.phone()).toHaveLength(1);
    expect(conversationOf()).toEqual([
      { role: 'user', content: 'Oi' },
      { role: 'user', content: 'Meu pedido é o 123' },
      { role: 'user', content: 'Quero trocar o tamanho' },
    ]);
  });

  it('transfers to the queue the model chose (validated), where the queue’s own setting applies', async () => {
    fake.script(
      { tool: 'transfer_to_queue', args: { queueId: 999_999 } },
      { tool: 'transfer_to_queue', args: { queueId: vendas } },
    );
    const c = contact();
    await c.write('Quero comprar');
    // An unknown queue is refused: nothing moves, nothing is said.
    await waitUntil(
      async () => fake.chats().length,
      (n) => n >= 1,
    );
    await quietPeriod();
    expect((await ticketOf(c.number)).queueId).toBeNull();
    await c.write('Quero comprar uma camiseta');
    expect(await c.received(1)).toEqual(['Certo! Vou transferir você para o setor *Vendas*.']);
    expect((await ticketOf(c.number)).queueId).toBe(vendas);
    // Vendas has no prompt: the assistant is done with this ticket.
    await c.write('Alô?');
    await quietPeriod();
    expect(fake.chats()).toHaveLength(2);
  });

  it('hands off to people: the prompt’s queue, then silence even where the prompt answers', async () => {
    fake.script({ tool: 'handoff_to_human', args: { reason: 'quer falar com uma pessoa' } });
    const c = contact();
    await c.write('Quero falar com um atendente');
    expect(await c.received(1)).toEqual([HANDOFF_TEXT]);
    const ticket = await ticketOf(c.number);
    expect(ticket).toMatchObject({ queueId: suporte, userId: null, status: 'pending' });
    await c.write('Ainda estou aqui');
    await quietPeriod();
    expect(fake.chats()).toHaveLength(1);
    expect(await c.phone()).toHaveLength(1);
  });

  it('stays silent once an agent answered, and once an agent accepted', async () => {
    const answered = contact();
    await answered.write('Bom dia');
    await answered.received(1);
    const ticket = await ticketOf(answered.number);
    const reply = await call(t.admin, 'POST', `/messages/${ticket.id}`, { body: 'Aqui é a Marta, posso ajudar?' });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    await answered.received(2);
    await answered.write('Pode sim');
    await quietPeriod();
    expect(fake.chats()).toHaveLength(1);

    const accepted = contact();
    await accepted.write('Boa tarde');
    await accepted.received(1);
    const other = await ticketOf(accepted.number);
    const accept = await call(t.admin, 'PUT', `/tickets/${other.id}`, { status: 'open', userId: t.admin.user.id });
    expect(accept.statusCode, accept.body).toBe(200);
    const before = fake.chats().length;
    await accepted.write('Obrigada');
    await quietPeriod();
    expect(fake.chats()).toHaveLength(before);
  });

  it('retries a 429 and answers', async () => {
    fake.script({ status: 429, retryAfter: 1 }, { text: 'Agora sim!' });
    const c = contact();
    await c.write('Olá');
    expect(await c.received(1)).toEqual(['Agora sim!']);
    expect(fake.chats()).toHaveLength(2);
  });

  it('on failures (5xx after retries) sends one fallback text and hands off', async () => {
    fake.script({ status: 500 }, { status: 502 }, { status: 503 });
    const c = contact();
    await c.write('Olá?');
    expect(await c.received(1)).toEqual([FALLBACK_TEXT]);
    expect(fake.chats()).toHaveLength(3);
    expect((await ticketOf(c.number)).queueId).toBe(suporte);
    await c.write('Tem alguém aí?');
    await quietPeriod();
    expect(fake.chats()).toHaveLength(3);
    expect(await c.phone()).toEqual([FALLBACK_TEXT]);
  });

  it('on a timeout sends the fallback text and hands off', async () => {
    fake.script({ hang: true });
    const c = contact();
    await c.write('Oi');
    expect(await c.received(1)).toEqual([FALLBACK_TEXT]);
    expect(fake.chats()).toHaveLength(1);
    expect((await ticketOf(c.number)).queueId).toBe(suporte);
  });

  it('transcribes a voice note, stores the transcript and answers it', async () => {
    fake.transcript = 'Vocês entregam no sábado?';
    fake.script({ text: 'Entregamos sim, aos sábados até as 14h.' });
    const c = contact();
    await c.write('', { media: { fileName: 'voz.ogg', mimetype: 'audio/ogg', base64: VOICE } });
    expect(await c.received(1)).toEqual(['Entregamos sim, aos sábados até as 14h.']);
    const [transcription] = fake.transcriptions();
    expect(transcription.authorization).toBe(`Bearer ${KEY}`);
    expect(transcription.form?.fields.model).toBe('whisper-1');
    expect(transcription.form?.file).toMatchObject({ name: 'voz.ogg', type: 'audio/ogg' });
    expect(conversationOf()).toEqual([{ role: 'user', content: 'Vocês entregam no sábado?' }]);
    const ticket = await ticketOf(c.number);
    const stored = await server.deps.database.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(stored.find((m) => m.mediaType === 'audio')?.transcript).toBe('Vocês entregam no sábado?');
    // Agents see it too.
    const shown = (await call(t.admin, 'GET', `/messages/${ticket.id}`)).json().messages as {
      mediaType: string;
      transcript?: string | null;
    }[];
    expect(shown.find((m) => m.mediaType === 'audio')?.transcript).toBe('Vocês entregam no sábado?');
  });

  it('answers in a queue with a prompt: the connection’s only queue, given by the menu', async () => {
    const single = await connectedSandbox(server, t.admin, { queueIds: [suporte], greetingMessage: 'Bem-vinda!' });
    fake.script({ text: 'Aqui é a Bia, do Suporte.' });
    const c = contact(newNumber(), single);
    await c.write('Meu produto quebrou');
    expect(await c.received(2)).toEqual(['Bem-vinda!', 'Aqui é a Bia, do Suporte.']);
    expect((await ticketOf(c.number)).queueId).toBe(suporte);
    expect(conversationOf()).toEqual([
      { role: 'user', content: 'Meu produto quebrou' },
      { role: 'assistant', content: 'Bem-vinda!' },
    ]);
    fake.script({ text: 'Pode me mandar uma foto?' });
    await c.write('Chegou assim');
    expect(await c.received(3)).toContain('Pode me mandar uma foto?');
  });

  it('does nothing while the plan has no useOpenAi', async () => {
    const su = await login(server, SUPER.email, SUPER.password);
    const planId = (await call(t.admin, 'GET', `/companies/listPlan/${t.companyId}`)).json().id;
    expect((await call(su, 'PUT', `/plans/${planId}`, { useOpenAi: false })).statusCode).toBe(200);
    try {
      const c = contact();
      await c.write('Oi, alguém?');
      await quietPeriod();
      expect(fake.chats()).toHaveLength(0);
    } finally {
      await call(su, 'PUT', `/plans/${planId}`, { useOpenAi: true });
    }
  });

  it('uses a changed key at once', async () => {
    await call(t.admin, 'PUT', `/prompt/${promptId}`, { apiKey: 'sk-test-rotated-9999' });
    try {
      const c = contact();
      await c.write('Oi de novo');
      await c.received(1);
      expect(fake.chats()[0].authorization).toBe('Bearer sk-test-rotated-9999');
    } finally {
      await call(t.admin, 'PUT', `/prompt/${promptId}`, { apiKey: KEY });
    }
  });
});

describe('the context sent to the model', () => {
  const row = (id: number, body: string, fromMe = false) => ({
    id,
    body,
    fromMe,
    mediaType: 'chat' as const,
    mediaKey: null,
    mediaName: null,
    mediaMime: null,
    transcript: null,
    isAutomatic: fromMe,
  });

  it('keeps the newest messages within the character budget, in conversation order', () => {
    const newestFirst = [row(5, 'c'.repeat(40)), row(4, 'b'.repeat(40), true), row(3, 'a'.repeat(40))];
    expect(conversation(newestFirst, 100)).toEqual([
      { role: 'assistant', content: 'b'.repeat(40) },
      { role: 'user', content: 'c'.repeat(40) },
    ]);
    expect(conversation([row(9, `${'x'.repeat(50)}fim`)], 10)).toEqual([{ role: 'user', content: 'xxxxxxxfim' }]);
    expect(CONTEXT_CHAR_BUDGET).toBeGreaterThan(1000);
  });

  it('names media the model cannot see', () => {
    expect(
      conversation([
        { ...row(2, ''), mediaType: 'audio' },
        { ...row(1, 'foto do produto'), mediaType: 'image' },
      ]),
    ).toEqual([
      { role: 'user', content: '[image] foto do produto' },
      { role: 'user', content: '[áudio]' },
    ]);
  });
});
