import { companyEvent } from '@balcao/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Pool } from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordConnectionStatements, recordPipelining } from '../../test/count-statements.js';
import { connectSocket, createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox } from '../../test/sandbox-helpers.js';
import type { InboundMessage } from '../channels/channel.js';
import type { Db } from '../db/client.js';
import { contacts } from '../modules/contacts/contacts.schema.js';
import { messages } from '../modules/messages/messages.schema.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { createInboundPipeline } from './handle-inbound.js';
import { type InboundResult, storeInbound } from './store-inbound.js';

/** Batches as a busy connection forms them: several contacts, redeliveries and replies in one transaction. */

let server: TestServer;
let tenant: Tenant;
let whatsappId: number;
let db: Db;
let seq = 0;
beforeAll(async () => {
  server = await createTestServer();
  tenant = await createTenant(server);
  whatsappId = await connectedSandbox(server, tenant.admin);
  db = server.deps.database.db;
});
afterAll(() => server.close());

const msg = (number: string, body: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
  companyId: tenant.companyId,
  whatsappId,
  providerId: `BATCH-${++seq}`,
  number,
  pushName: `Cliente ${number.slice(-4)}`,
  fromMe: false,
  body,
  mediaType: 'chat',
  ...extra,
});
const store = async (batch: InboundMessage[]) => {
  const { results, announced } = await storeInbound(
    { db, realtime: server.deps.realtime, log: pino({ level: 'silent' }) },
    batch.map((message) => ({ message })),
  );
  await announced;
  return results;
};
const stored = (r: InboundResult) => {
  if ('skipped' in r) throw new Error(`skipped: ${r.skipped}`);
  return r;
};
const waitingOnLocks = async () =>
  (
    await server.deps.database.query(
      `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )
  ).rows.length > 0;
const ticketRow = async (id: number) => (await db.select().from(tickets).where(eq(tickets.id, id)))[0];
const bodiesOf = async (ticketId: number) =>
  (await db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.id))).map(
    (m) => m.body,
  );

describe('a batch of one connection', () => {
  it('opens one ticket per new contact, joins later messages to it, and skips redeliveries inside and outside the batch', async () => {
    const [old] = await store([msg('5511955500001', 'antes')]);
    const first = msg('5511955500002', 'oi');
    const results = await store([
      first,
      msg('5511955500001', 'de novo', {
        providerId: (
          await db
            .select()
            .from(messages)
            .where(eq(messages.id, stored(old).messageId))
        )[0].providerId as string,
      }),
      msg('5511955500002', 'tudo bem?'),
      { ...first },
      msg('5511955500001', 'voltei'),
    ]);
    const [a1, dupOld, a2, dupIn, b] = results;
    expect(dupOld).toEqual({ skipped: 'duplicate' });
    expect(dupIn).toEqual({ skipped: 'duplicate' });
    expect(stored(a1).ticketOpened).toBe(true);
    expect(stored(a2).ticketOpened).toBe(false);
    expect(stored(a2).ticketId).toBe(stored(a1).ticketId);
    expect(stored(b).ticketId).toBe(stored(old).ticketId);
    expect(await bodiesOf(stored(a1).ticketId)).toEqual(['oi', 'tudo bem?']);
    const ticket = await ticketRow(stored(a1).ticketId);
    expect([ticket.status, ticket.unreadMessages, ticket.lastMessage]).toEqual(['pending', 2, 'tudo bem?']);
    expect((await ticketRow(stored(b).ticketId)).unreadMessages).toBe(2);
  });

  it('keeps a rating answer on the closed ticket and reopens it with the next message', async () => {
    const [opened] = await store([msg('5511955500003', 'preciso de ajuda')]);
    const ticketId = stored(opened).ticketId;
    await db.update(tickets).set({ status: 'closed', awaitingRating: true }).where(eq(tickets.id, ticketId));
    const [rating, reopen, joined] = await store([
      msg('5511955500003', '5'),
      msg('5511955500003', 'obrigado'),
      msg('5511955500003', '4'),
    ]);
    expect([stored(rating).ticketId, stored(rating).ticketOpened]).toEqual([ticketId, false]);
    expect([stored(reopen).ticketId, stored(reopen).ticketOpened]).toEqual([ticketId, true]);
    expect([stored(joined).ticketId, stored(joined).ticketOpened]).toEqual([ticketId, false]);
    const ticket = await ticketRow(ticketId);
    expect([ticket.status, ticket.awaitingRating, ticket.queueId, ticket.userId]).toEqual([
      'pending',
      false,
      null,
      null,
    ]);
  });

  it('links a reply to a message of the same batch', async () => {
    const question = msg('5511955500004', 'qual o horário?');
    const [, reply] = await store([
      question,
      msg('5511955500004', 'e o endereço?', { quotedProviderId: question.providerId }),
    ]);
    const [row] = await db
      .select()
      .from(messages)
      .where(eq(messages.id, stored(reply).messageId));
    const [quoted] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.providerId, question.providerId)));
    expect(row.quotedMsgId).toBe(quoted.id);
  });

  it("records the first reply of a ticket's cycle written on the phone, beside another contact's message", async () => {
    const [opened] = await store([msg('5511955500006', 'bom dia')]);
    const { ticketId } = stored(opened);
    const cycle = async () =>
      (
        await server.deps.database.query(
          `select first_reply_at from ticket_trakings where ticket_id = $1 order by id desc limit 1`,
          [ticketId],
        )
      ).rows[0] as { first_reply_at: Date | null };
    expect((await cycle()).first_reply_at).toBeNull();
    await store([msg('5511955500006', 'bom dia, em que posso ajudar?', { fromMe: true }), msg('5511955500007', 'oi')]);
    expect((await cycle()).first_reply_at).not.toBeNull();
  });

  it('merges a LID identity and the phone number on one contact, whichever arrives first', async () => {
    const [lidOnly] = await store([msg('201000000001', 'sem número', { lid: '201000000001', pushName: 'Lia' })]);
    const [withPhone] = await store([msg('5511955500005', 'agora com número', { lid: '201000000001' })]);
    expect(stored(withPhone).ticketId).toBe(stored(lidOnly).ticketId);
    const [contact] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, tenant.companyId), eq(contacts.lid, '201000000001')));
    expect([contact.number, contact.name]).toEqual(['5511955500005', 'Lia']);
    // Later messages by LID alone find the same contact.
    const [again] = await store([msg('201000000001', 'de novo só lid', { lid: '201000000001' })]);
    expect(stored(again).ticketId).toBe(stored(lidOnly).ticketId);
    const [phoneFirst] = await store([msg('5511955500006', 'número primeiro')]);
    const [lidLater] = await store([msg('5511955500006', 'com lid', { lid: '201000000002' })]);
    expect(stored(lidLater).ticketId).toBe(stored(phoneFirst).ticketId);
    const [byLid] = await store([msg('201000000002', 'só lid', { lid: '201000000002' })]);
    expect(stored(byLid).ticketId).toBe(stored(phoneFirst).ticketId);
  });

  it("reads the batch's new contacts and its tickets side by side, and announces the contacts first", async () => {
    const client = (db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const query = client.query;
    const events: string[] = [];
    // The tickets' view, its rows wrapped as JSON values (asJsonRows).
    const ticketsRead =
      /^select json_build_array\(r\."id", r\."uuid", r\."status", [\s\S]*from \(select "tickets"\."id"/;
    const kindOf = (text: string) =>
      /^select "id", "uuid", "name"/.test(text) ? 'contacts' : ticketsRead.test(text) ? 'tickets' : '';
    client.query = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text: string };
      const kind = kindOf(typeof first === 'string' ? first : first.text);
      if (kind) events.push(`sent ${kind}`);
      const result = query.apply(this, args);
      if (!kind) return result;
      return result.then((r) => {
        events.push(`answered ${kind}`);
        return r;
      });
    };
    const realtime = server.deps.realtime;
    const toCompany = realtime.toCompany;
    const toRooms = realtime.toRooms;
    realtime.toCompany = (companyId, event, payload) => {
      if (event === companyEvent.contact(companyId)) events.push('contact announced');
      toCompany(companyId, event, payload);
    };
    realtime.toRooms = (rooms, event, payload, except) => {
      if (event === companyEvent.ticket(tenant.companyId)) events.push('ticket announced');
      toRooms(rooms, event, payload, except);
    };
    try {
      await store([msg('5511955500101', 'Sou novo')]);
    } finally {
      client.query = query;
      realtime.toCompany = toCompany;
      realtime.toRooms = toRooms;
    }
    expect(events.slice(0, 2).sort()).toEqual(['sent contacts', 'sent tickets']);
    expect(events.filter((e) => e.endsWith('announced'))).toEqual(['contact announced', 'ticket announced']);
  });

  it('announces each ticket once and its new messages in order', async () => {
    const url = await server.listen();
    expect(url).toBeTruthy();
    const socket = await connectSocket(server, tenant.admin.token);
    const seen: string[] = [];
    socket.on(companyEvent.ticket(tenant.companyId), (p: { ticket: { contact: { number: string } } }) =>
      seen.push(`ticket ${p.ticket.contact.number}`),
    );
    socket.on(companyEvent.appMessage(tenant.companyId), (p: { message: { body: string } }) =>
      seen.push(`message ${p.message.body}`),
    );
    await store([msg('5511955500007', 'um'), msg('5511955500008', 'outro'), msg('5511955500007', 'dois')]);
    // The five events are on their way: wait for them, then check nothing else came in between.
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(5), { timeout: 3000, interval: 5 });
    socket.close();
    expect(seen).toEqual([
      'ticket 5511955500007',
      'message um',
      'message dois',
      'ticket 5511955500008',
      'message outro',
    ]);
  });
});

describe('the statements of a batch', () => {
  const closeAt = async (ticketId: number) =>
    (
      (
        await server.deps.database.query(
          `update tickets set status = 'closed', updated_at = clock_timestamp() where id = $1 returning updated_at`,
          [ticketId],
        )
      ).rows[0] as { updated_at: Date }
    ).updated_at;

  it('reopen each ticket and start its service cycle at its own time, though they are built once for their shape', async () => {
    for (const number of ['5511977710001', '5511977710002', '5511977710004']) {
      const opened = stored((await store([msg(number, 'Oi')]))[0]);
      const closedAt = await closeAt(opened.ticketId);
      const reopened = stored((await store([msg(number, 'De novo')]))[0]);
      expect(reopened.ticketOpened).toBe(true);
      const row = await ticketRow(reopened.ticketId);
      expect(row.status).toBe('pending');
      expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(closedAt.getTime());
      const [cycle] = (
        await server.deps.database.query(
          `select queued_at from ticket_trakings where ticket_id = $1 order by id desc limit 1`,
          [reopened.ticketId],
        )
      ).rows as { queued_at: Date }[];
      expect(cycle.queued_at.getTime()).toBeGreaterThanOrEqual(closedAt.getTime());
    }
  });

  it('are five for known contacts with open tickets, a quote of an earlier message included: BEGIN, the locks, one read of what is known, the messages with their tickets, COMMIT', async ({
    skip,
  }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite runs a transaction outside the pool’s clients');
    const question = msg('5511977730001', 'Qual o preço?');
    const [first, other] = await store([question, msg('5511977730002', 'Oi')]);
    let results: InboundResult[] = [];
    const sent = await recordConnectionStatements(async () => {
      results = await store([
        msg('5511977730001', 'Esse aqui', { quotedProviderId: question.providerId }),
        msg('5511977730002', 'Tudo bem?'),
      ]);
    });
    const transaction = sent.slice(sent.indexOf('begin'), sent.indexOf('commit') + 1);
    expect(transaction).toHaveLength(5);
    expect(transaction[1]).toMatch(/^select pg_advisory_xact_lock/);
    expect(transaction[2]).toMatch(/^with known as/);
    expect(transaction[3]).toMatch(/^with touched as/);
    const [reply, next] = results.map(stored);
    expect([reply.ticketId, next.ticketId]).toEqual([stored(first).ticketId, stored(other).ticketId]);
    const [row] = await db.select().from(messages).where(eq(messages.id, reply.messageId));
    expect(row.quotedMsgId).toBe(stored(first).messageId);
  });

  it("send the batch's read right behind its locks, without waiting for the locks' answer", async ({ skip }) => {
    if (server.deps.database.kind !== 'postgres') skip('the pooled connection is PostgreSQL');
    const events = await recordPipelining(
      (text) =>
        /^select pg_advisory_xact_lock/.test(text) ? 'lock' : /^with known as/.test(text) ? 'read' : undefined,
      (kind) => (kind === 'lock' ? 'locked' : undefined),
      () => store([msg('5511977730101', 'Oi'), msg('5511977730102', 'Olá')]),
    );
    expect(events).toEqual(['sent lock', 'sent read', 'locked']);
  });

  it("mark the agent's first reply from the phone in the messages' insert, not in a statement of its own", async ({
    skip,
  }) => {
    if (server.deps.database.kind !== 'postgres') skip('the pooled connection is PostgreSQL');
    const [opener] = await store([msg('5511977730201', 'Oi')]);
    const sent = await recordConnectionStatements(() => store([msg('5511977730201', 'Pode falar', { fromMe: true })]));
    const transaction = sent.slice(sent.indexOf('begin'), sent.indexOf('commit') + 1);
    expect(transaction).toHaveLength(5);
    expect(transaction[3]).toMatch(/^with touched as .*, replied as \(update "ticket_trakings"/s);
    const [cycle] = (
      await server.deps.database.query(
        `select first_reply_at from ticket_trakings where ticket_id = $1 order by id desc limit 1`,
        [stored(opener).ticketId],
      )
    ).rows as { first_reply_at: Date | null }[];
    expect(cycle.first_reply_at).not.toBeNull();
  });

  it('reopen the closed ticket of a contact another writer created while the batch waited', async ({ skip }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite has one connection: nothing runs meanwhile');
    const number = '5511977740001';
    const other = await (db as unknown as { $client: Pool }).$client.connect();
    try {
      await other.query('begin');
      const contact = await other.query(
        `insert into contacts (company_id, name, number) values ($1, 'Criado por um agente', $2) returning id`,
        [tenant.companyId, number],
      );
      const ticket = await other.query(
        `insert into tickets (company_id, contact_id, whatsapp_id, status) values ($1, $2, $3, 'closed') returning id`,
        [tenant.companyId, contact.rows[0].id, whatsappId],
      );
      // The batch reads no such contact, then its insert waits for the other transaction.
      const storing = store([msg(number, 'Oi de novo')]);
      while (!(await waitingOnLocks())) await new Promise((resolve) => setImmediate(resolve));
      await other.query('commit');
      const [result] = await storing;
      expect([stored(result).ticketId, stored(result).ticketOpened]).toEqual([ticket.rows[0].id, true]);
      expect((await ticketRow(ticket.rows[0].id)).status).toBe('pending');
    } finally {
      other.release();
    }
  });

  it('are not built again for a batch of a shape already seen (PostgreSQL: per pooled connection)', async ({
    skip,
  }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite gives each transaction its own handle');
    const dialect = (db as unknown as { dialect: { sqlToQuery: (...args: unknown[]) => unknown } }).dialect;
    // Two batches of the same shape: a known contact's message and a new contact's.
    const batchOf = (n: number) => [msg('5511977710003', `Mais uma ${n}`), msg(`55119777200${n}0`, 'Primeira')];
    await store(batchOf(1));
    const build = dialect.sqlToQuery;
    const built: string[] = [];
    dialect.sqlToQuery = function (this: unknown, ...args: unknown[]) {
      const query = build.apply(this, args) as { sql: string };
      built.push(query.sql);
      return query;
    };
    try {
      const results = await store(batchOf(2));
      expect(results.map((r) => 'skipped' in r)).toEqual([false, false]);
    } finally {
      dialect.sqlToQuery = build;
    }
    // Drizzle's own BEGIN and COMMIT are all it built.
    expect(built).toEqual(['begin', 'commit']);
  });
});

describe('the pipeline of a connection', () => {
  it('keeps arrival order when a photo is still being written as the next text arrives', async () => {
    const { database, realtime, storage } = server.deps;
    const handle = createInboundPipeline({ db: database.db, realtime, storage, log: pino({ level: 'silent' }) });
    const photo = msg('5511955500009', '', {
      mediaType: 'image',
      media: { data: Buffer.alloc(200_000, 7), fileName: 'foto.png', mimetype: 'image/png' },
    });
    const text = msg('5511955500009', 'viu a foto acima?');
    const results = await Promise.all([handle(photo), handle(text), handle({ ...text })]);
    const [first, second, redelivered] = results;
    expect(redelivered).toEqual({ skipped: 'duplicate' });
    expect(stored(first).messageId).toBeLessThan(stored(second).messageId);
    expect(await bodiesOf(stored(first).ticketId)).toEqual(['', 'viu a foto acima?']);
  });

  it('a file that cannot be downloaded loses the file, not the message; one failed try is retried', async () => {
    const { database, realtime, storage } = server.deps;
    const handle = createInboundPipeline({ db: database.db, realtime, storage, log: pino({ level: 'silent' }) });
    let tries = 0;
    const flaky = msg('5511955500010', 'segue o contrato', {
      mediaType: 'application',
      media: {
        fileName: 'contrato.pdf',
        mimetype: 'application/pdf',
        download: async () => {
          tries += 1;
          if (tries === 1) throw new Error('connection reset');
          return Buffer.from('%PDF-1.4');
        },
      },
    });
    const gone = msg('5511955500010', 'e a foto', {
      mediaType: 'image',
      media: {
        fileName: 'foto.jpg',
        mimetype: 'image/jpeg',
        download: async () => {
          throw new Error('media expired');
        },
      },
    });
    const [withFile, withoutFile] = await Promise.all([handle(flaky), handle(gone)]);
    const rows = await db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, stored(withFile).ticketId))
      .orderBy(asc(messages.id));
    expect(rows.map((r) => [r.body, r.mediaType, r.mediaKey !== null])).toEqual([
      ['segue o contrato', 'application', true],
      ['e a foto\n📎 foto.jpg (arquivo não recebido)', 'chat', false],
    ]);
    expect(stored(withoutFile).ticketId).toBe(stored(withFile).ticketId);
    expect(tries).toBe(2);
  });
});
