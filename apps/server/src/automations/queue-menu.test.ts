import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { messages } from '../modules/messages/messages.schema.js';

/** The queue menu and options chatbot of DOMAIN §2, seen from the contact's phone (jobs on). */

let server: TestServer;
let t: Tenant;
let seq = 0;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
  t = await createTenant(server, { plan: { queues: 20, connections: 10 } });
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function queue(name: string, greetingMessage = '', orderQueue: number | null = null): Promise<number> {
  const color = `#${(0x100000 + ++seq).toString(16)}`;
  const res = await call(t.admin, 'POST', '/queue', { name, color, greetingMessage, orderQueue });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function option(queueId: number, title: string, message: string, parentId: number | null = null) {
  const res = await call(t.admin, 'POST', '/queue-options', { queueId, parentId, title, message });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

type Ticket = { id: number; queueId: number | null; userId: number | null; chatbot: boolean; status: string };
async function ticketOf(number: string): Promise<Ticket> {
  const res = await call(t.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`);
  const list = res.json().tickets as Ticket[];
  expect(list).toHaveLength(1);
  return list[0];
}

/** The contact writes; resolves with what the phone received because of it (in order). */
function phone(whatsappId: number, number: string, name = 'Ana Maria') {
  let seen = 0;
  return async (body: string, expected: number): Promise<string[]> => {
    await contactWrites(server, t.admin, whatsappId, { number, name, body });
    const got = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, number),
      (list) => list.length >= seen + expected,
    );
    const fresh = got.slice(seen).map((m) => m.body);
    seen = got.length;
    return fresh;
  };
}

const menu = (...names: string[]) => names.map((n, i) => `*[ ${i + 1} ]* - ${n}`).join('\n');

describe('queue menu (DOMAIN §2)', () => {
  it('a connection with one queue assigns it, greeting first (rendered), then the queue greeting', async () => {
    const q = await queue('Suporte 1', 'Fila de suporte, {{firstName}}.');
    const w = await connectedSandbox(server, t.admin, {
      greetingMessage: '{{ms}}, {{firstName}}! Protocolo {{protocol}}',
      queueIds: [q],
    });
    const number = '5511900000001';
    await contactWrites(server, t.admin, w, { number, name: 'Joana Souza', body: 'oi' });
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ queueId: q, userId: null, status: 'pending', chatbot: false });

    const got = await waitUntil(
      () => phoneOf(server, t.admin, w, number),
      (l) => l.length >= 1,
    );
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const protocol = `${today.replaceAll('-', '')}${ticket.id}`;
    // One message, the connection greeting first: two could reach the phone out of order.
    expect(got.map((m) => m.body)).toEqual([
      expect.stringMatching(
        new RegExp(`^(Bom dia|Boa tarde|Boa noite), Joana! Protocolo ${protocol}\n\nFila de suporte, Joana.$`),
      ),
    ]);
    // Stored as an automatic message of the ticket; the next message does not greet again.
    await contactWrites(server, t.admin, w, { number, name: 'Joana Souza', body: 'preciso de ajuda' });
    const stored = await server.deps.database.db
      .select({ fromMe: messages.fromMe, isAutomatic: messages.isAutomatic, sendStatus: messages.sendStatus })
      .from(messages)
      .where(eq(messages.ticketId, ticket.id))
      .orderBy(messages.id);
    expect(stored).toEqual([
      { fromMe: false, isAutomatic: false, sendStatus: 'received' },
      { fromMe: true, isAutomatic: true, sendStatus: 'sent' },
      { fromMe: false, isAutomatic: false, sendStatus: 'received' },
    ]);
    expect((await ticketOf(number)).queueId).toBe(q);
  });

  it('several queues: greeting and numbered menu; answer 2 assigns queue 2, whose agent can now see it', async () => {
    const [a, b, c] = [
      await queue('Alfa', '', 1),
      await queue('Beta', 'Bem-vindo à Beta', 2),
      await queue('Gama', '', 3),
    ];
    expect((await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [b] })).statusCode).toBe(200);
    const w = await connectedSandbox(server, t.admin, { greetingMessage: 'Olá {{firstName}}!', queueIds: [c, a, b] });
    const say = phone(w, '5511900000002');

    expect(await say('oi', 1)).toEqual([`Olá Ana!\n\n${menu('Alfa', 'Beta', 'Gama')}`]);
    const ticket = await ticketOf('5511900000002');
    expect(ticket.queueId).toBeNull();
    expect((await call(t.user, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(403);

    expect(await say('2', 1)).toEqual(['Bem-vindo à Beta']);
    const seen = await call(t.user, 'GET', `/tickets/${ticket.id}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({ queueId: b, queue: { name: 'Beta' }, status: 'pending', userId: null });
  });

  it('invalid answers re-send the menu, at most maxUseBotQueues times; the window resets the count', async () => {
    const [a, b] = [await queue('Um', '', 1), await queue('Dois', '', 2)];
    const w = await connectedSandbox(server, t.admin, {
      greetingMessage: 'Escolha:',
      queueIds: [a, b],
      maxUseBotQueues: 3,
      timeUseBotQueues: 5,
    });
    const number = '5511900000003';
    const say = phone(w, number);
    const shown = `Escolha:\n\n${menu('Um', 'Dois')}`;
    expect(await say('oi', 1)).toEqual([shown]);
    expect(await say('x', 1)).toEqual([shown]);
    expect(await say('9', 1)).toEqual([shown]);
    // The third menu was the last: the ticket now waits for a human.
    await say('abc', 0);
    await say('0', 0);
    const ticket = await ticketOf(number);
    const automatic = () =>
      server.deps.database.db
        .select({ id: messages.id })
        .from(messages)
        .where(eq(messages.ticketId, ticket.id))
        .then((rows) => rows.length);
    expect(await automatic()).toBe(8); // 5 from the contact, 3 menus
    expect((await phoneOf(server, t.admin, w, number)).length).toBe(3);
    expect(ticket).toMatchObject({ queueId: null, status: 'pending' });

    // Once the last bot message is older than timeUseBotQueues (5 min), the count starts again.
    await server.deps.database.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(messages.ticketId, ticket.id));
    expect(await say('??', 1)).toEqual([shown]);
    // A valid answer still assigns the queue.
    await say('2', 0);
    expect((await ticketOf(number)).queueId).toBe(b);
  });

  it('walks the options tree: numbers go down, 0 goes back, # returns to the main menu, a leaf ends the bot', async () => {
    const sales = await queue('Vendas', 'Vendas aqui, {{firstName}}', 1);
    const other = await queue('Outra', '', 2);
    const plans = await option(sales, 'Planos', 'Nossos planos:');
    await option(sales, 'Básico', 'Básico custa 10', plans);
    await option(sales, 'Premium', 'Premium custa 20', plans);
    const finance = await option(sales, 'Financeiro', 'Financeiro:');
    await option(sales, 'Boleto', 'Segunda via em breve', finance);
    const w = await connectedSandbox(server, t.admin, { greetingMessage: 'Menu principal', queueIds: [sales, other] });
    const number = '5511900000004';
    const say = phone(w, number);

    const main = `Menu principal\n\n${menu('Vendas', 'Outra')}`;
    const root = `Vendas aqui, Ana\n\n${menu('Planos', 'Financeiro')}\n\n*[ # ]* - Menu inicial`;
    const planList = `Nossos planos:\n\n${menu('Básico', 'Premium')}\n\n*[ 0 ]* - Voltar\n*[ # ]* - Menu inicial`;

    expect(await say('oi', 1)).toEqual([main]);
    expect(await say('1', 1)).toEqual([root]);
    expect(await ticketOf(number)).toMatchObject({ queueId: sales, chatbot: true });
    expect(await say('1', 1)).toEqual([planList]);
    expect(await say('7', 1)).toEqual([planList]); // not an option here: the level again
    expect(await say('0', 1)).toEqual([root]);
    expect(await say('1', 1)).toEqual([planList]);
    expect(await say('#', 1)).toEqual([main]);
    expect(await ticketOf(number)).toMatchObject({ queueId: null, chatbot: false });
    expect(await say('1', 1)).toEqual([root]);
    // Financeiro has a single child, followed at once; Boleto is a leaf: its message ends the bot.
    expect(await say('2', 1)).toEqual(['Financeiro:\n\nSegunda via em breve']);
    expect(await ticketOf(number)).toMatchObject({ queueId: sales, chatbot: false, userId: null });
    await say('3', 0);
    expect((await phoneOf(server, t.admin, w, number)).length).toBe(9);
  });

  it('stays silent for groups and for tickets with a user', async () => {
    const q = await queue('Silêncio', 'não deveria chegar');
    const w = await connectedSandbox(server, t.admin, { greetingMessage: 'Olá', queueIds: [q] });
    await contactWrites(server, t.admin, w, {
      number: '120363000000000001',
      isGroup: true,
      groupName: 'Grupo',
      participant: '5511900000009',
      body: 'oi',
    });
    const accepted = await call(t.admin, 'POST', '/tickets', {
      contactId: (await call(t.admin, 'POST', '/contacts', { name: 'Com Agente', number: '5511900000006' })).json().id,
      whatsappId: w,
      status: 'open',
      userId: t.admin.user.id,
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    await contactWrites(server, t.admin, w, { number: '5511900000006', name: 'Com Agente', body: 'oi' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await phoneOf(server, t.admin, w, '120363000000000001')).toEqual([]);
    expect(await phoneOf(server, t.admin, w, '5511900000006')).toEqual([]);
    expect((await ticketOf('5511900000006')).queueId).toBeNull();
  });

  it('a connection without queues greets each new conversation once, with no menu', async () => {
    const bare = await connectedSandbox(server, t.admin, { greetingMessage: 'Olá {{firstName}}, já vamos atender.' });
    await contactWrites(server, t.admin, bare, { number: '5511900000005', name: 'Sem Fila', body: 'oi' });
    await contactWrites(server, t.admin, bare, { number: '5511900000005', name: 'Sem Fila', body: 'alguém?' });
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, bare, '5511900000005'),
      (got) => got.length > 0,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect((await phoneOf(server, t.admin, bare, '5511900000005')).map((m) => m.body)).toEqual([
      'Olá Sem, já vamos atender.',
    ]);
    expect(phone).toHaveLength(1);
    const silent = await connectedSandbox(server, t.admin, {});
    await contactWrites(server, t.admin, silent, { number: '5511900000007', name: 'Sem Saudação', body: 'oi' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await phoneOf(server, t.admin, silent, '5511900000007')).toEqual([]);
  });
});
