import { companyEvent, type Message, mediaTypeOf, type Ticket } from '@balcao/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Ack } from '../../channels/channel.js';
import type { ChannelManager } from '../../channels/manager.js';
import type { Db } from '../../db/client.js';
import { arrayValue, insertManyQuery } from '../../db/insert-many.js';
import { preparableSql, statement } from '../../db/named-statement.js';
import { executeShaped, QueryShape } from '../../db/query-shape.js';
import { rowsOf } from '../../db/rows.js';
import { commitUnflushed } from '../../db/unflushed-commit.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import { pageOf, pageWindow } from '../../platform/pagination.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import type { Storage } from '../../platform/storage/storage.js';
import { renderTemplate } from '../../platform/templates.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { copyFileListFiles } from '../files/files.service.js';
import { copyQuickMessageMedia } from '../quick-messages/quick-messages.service.js';
import { settingSql } from '../settings/settings.service.js';
import { ticketAccessOf, ticketRooms } from '../tickets/tickets.access.js';
import { type BotChange, botChangeColumns } from '../tickets/tickets.bot-state.js';
import { tickets } from '../tickets/tickets.schema.js';
import { getTicket, visibleTicket } from '../tickets/tickets.service.js';
import { firstReplyOf } from '../tickets/tickets.tracking.js';
import { ticketOfRow, ticketStatement } from '../tickets/tickets.view.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { failedWhileDown, sendAgain, wake } from './messages.outbox.js';
import { messages } from './messages.schema.js';
import { ackMessage, emitMessage, selectTicketMessages, viewMessage, viewMessages } from './messages.view.js';

const PAGE = 20;

export interface MessagingDeps {
  channels: ChannelManager;
  storage: Storage;
  jobs: Jobs;
}

export interface UploadedFile {
  data: Buffer;
  fileName: string;
  mimetype: string;
}

/** One page of a ticket's messages, newest page first, each page in chronological order. */
export async function listMessages(ctx: ServiceContext, deps: MessagingDeps, ticketId: number, pageNumber: number) {
  // The page is read with the ticket, in one statement; it is returned only if the caller may see the ticket.
  const [found, access] = await Promise.all([
    selectTicketMessages(ctx.db, ctx.companyId, ticketId, pageWindow(pageNumber, PAGE)),
    ticketAccessOf(ctx.db, ctx),
  ]);
  const ticket = visibleTicket(found?.ticket, access);
  const page = pageOf(found?.messages ?? [], PAGE);
  if (pageNumber === 1 && ticket.unreadMessages > 0 && ticket.status === 'open')
    await markTicketRead(ctx, deps, ticket);
  return { messages: page.items.reverse(), ticket, count: found?.count ?? 0, hasMore: page.hasMore };
}

/**
 * A ticket's unread count to zero and its unread received messages read, in one round trip,
 * answering those messages (their read receipts). Built once per connection: building the two
 * updates in Drizzle took longer than the database takes to run them.
 */
const markRead = statement('mark_read', ['ticketId'], (db, p) => {
  // Reading is not activity: the ticket keeps its place in the lists (only a new message moves it up),
  // and with no indexed column changed the row is updated in place (migration 0023).
  const zeroed = db
    .update(tickets)
    .set({ unreadMessages: 0, updatedAt: sql`${tickets.updatedAt}` })
    .where(eq(tickets.id, p.ticketId));
  const read = db
    .update(messages)
    .set({ read: true, updatedAt: sql`now()` })
    // A read mark lost in a database crash only shows the messages unread again until the next
    // opening: the agent does not wait for the disk (a quarter of a millisecond here) to open a ticket.
    .where(
      and(eq(messages.ticketId, p.ticketId), eq(messages.read, false), eq(messages.fromMe, false), commitUnflushed),
    )
    .returning({ id: messages.id, providerId: messages.providerId });
  return preparableSql(db, sql`with zeroed as (${zeroed.getSQL()}) ${read.getSQL()}`);
});

/** Opening a ticket reads its messages: unread count to zero, read receipts to the contact. */
async function markTicketRead(
  ctx: ServiceContext,
  deps: MessagingDeps,
  ticket: {
    id: number;
    queueId: number | null;
    userId: number | null;
    contact: { number: string };
    whatsappId: number;
  },
) {
  // The id is a bigint: text from node-postgres, a number from PGlite.
  const unread = rowsOf<{ id: string | number; provider_id: string | null }>(
    await markRead(ctx.db, { ticketId: ticket.id }),
  );
  ctx.realtime.toRooms(ticketRooms(ctx.companyId, ticket), companyEvent.ticket(ctx.companyId), {
    action: 'updateUnread',
    ticketId: ticket.id,
  });
  // Read receipts are a courtesy, sent while the page goes back: the agent never waits for the
  // provider, and a connection this instance does not hold (stopped, or on another instance) is skipped.
  if (!deps.channels.holds(ticket.whatsappId)) return;
  // Oldest first, as the channels expect them (RETURNING promises no order).
  const refs = unread
    .sort((a, b) => Number(a.id) - Number(b.id))
    .flatMap((m) => (m.provider_id ? [{ providerId: m.provider_id }] : []));
  Promise.resolve()
    .then(() => deps.channels.get(ticket.whatsappId).markRead(ticket.contact.number, refs))
    .catch(() => undefined);
}

/**
 * Stores the agent's message(s) as pending and hands them to the durable send job. Rejected at
 * once when the connection is not connected, so nothing is stored that cannot be sent. The body's
 * variables (DOMAIN §6) are rendered for the ticket's contact, and a quick reply's file goes along.
 */
export async function sendMessages(
  ctx: ServiceContext,
  deps: MessagingDeps,
  ticketId: number,
  input: { body: string; quotedMsgId?: number; quickMessageId?: number; files: UploadedFile[] },
): Promise<Message[]> {
  const { ticket, connected, timeZone } = await ticketToSendInto(ctx, ticketId);
  const empty = () => new AppError('ERR_VALIDATION', {}, 'Empty message');
  if (!input.body.trim() && input.files.length === 0 && !input.quickMessageId) throw empty();
  assertConnected(connected);
  let quotedMsgId: number | null = null;
  if (input.quotedMsgId) {
    const [quoted] = await ctx.db
      .select({
        id: messages.id,
        providerId: messages.providerId,
        sendStatus: messages.sendStatus,
        isDeleted: messages.isDeleted,
      })
      .from(messages)
      .where(and(eq(messages.id, input.quotedMsgId), eq(messages.ticketId, ticketId)));
    if (!quoted) throw new AppError('ERR_NO_MESSAGE_FOUND');
    // WhatsApp quotes only what it has: not a message deleted or never sent (one still pending
    // leaves first: a ticket's messages go out in order).
    const unsent = !quoted.providerId && quoted.sendStatus !== 'pending' && quoted.sendStatus !== 'sending';
    if (quoted.isDeleted || unsent) throw new AppError('ERR_FETCH_WAPP_MSG');
    quotedMsgId = quoted.id;
  }
  // Copied once nothing else can refuse the message, so a refusal leaves no orphan file.
  const quickMedia = input.quickMessageId ? await copyQuickMessageMedia(ctx, deps.storage, input.quickMessageId) : null;
  if (!input.body.trim() && input.files.length === 0 && !quickMedia) throw empty();
  const uploaded = await Promise.all(
    input.files.map(async (f) => ({ file: f, key: (await deps.storage.put(ctx.companyId, f.data, f.fileName)).key })),
  );
  const stored = quickMedia ? [{ file: quickMedia, key: quickMedia.key }, ...uploaded] : uploaded;
  const body = renderFor(ticket, timeZone, input.body);
  const base = { ...agentMessage(ctx, ticket), quotedMsgId };
  const values = stored.length
    ? stored.map(({ file, key }, i) => ({
        ...base,
        body: i === 0 ? body : '',
        mediaType: mediaTypeOf(file.mimetype),
        mediaKey: key,
        mediaName: file.fileName,
        mediaMime: file.mimetype,
      }))
    : [{ ...base, body, mediaType: 'chat' as const }];
  const lastMessage = body || stored.at(-1)?.file.fileName || '';
  return queueOutbound(
    { db: ctx.db, realtime: ctx.realtime, jobs: deps.jobs },
    ctx.companyId,
    ticket,
    values,
    lastMessage,
  );
}

/**
 * The ticket an agent sends into with its connection's status and the company's time zone (for the
 * body's variables), in one statement built once per connection.
 */
const ticketToSend = ticketStatement<never, { w_status: string; time_zone: string }>('ticket_to_send', [], () => ({
  w_status: sql<string>`${whatsapps.status}`.as('w_status'),
  time_zone: settingSql(tickets.companyId, 'timezone').as('time_zone'),
}));

/** The ticket `ticketId` if the caller may see it (getTicket's rule), whether its connection is up, and the time zone. */
async function ticketToSendInto(ctx: ServiceContext, ticketId: number) {
  const [row, access] = await Promise.all([
    ticketToSend(ctx.db, { id: ticketId, companyId: ctx.companyId }),
    ticketAccessOf(ctx.db, ctx),
  ]);
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  return {
    ticket: visibleTicket(ticketOfRow(row), access),
    connected: row.w_status === 'CONNECTED',
    timeZone: row.time_zone,
  };
}

/** Nothing is stored that cannot be sent: the ticket's connection must be up. */
function assertConnected(connected: boolean) {
  if (!connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
}

/** A body's variables (DOMAIN §6) rendered for the ticket's contact in the company's time zone. */
const renderFor = (ticket: Ticket, timeZone: string, text: string) =>
  renderTemplate(text, { contact: ticket.contact, ticket, now: new Date(), timeZone });

/** The columns every message an agent sends into a ticket shares: pending for the outbox. */
const agentMessage = (ctx: ServiceContext, ticket: Ticket) => ({
  companyId: ctx.companyId,
  ticketId: ticket.id,
  whatsappId: ticket.whatsappId,
  contactId: ticket.contactId,
  fromMe: true,
  read: true,
  userId: ctx.userId,
  sendStatus: 'pending' as const,
});

/**
 * Sends a file list into a ticket (beyond the spec; DOMAIN §15): the list's message, its variables
 * rendered, then each of its files, as the agent's ordinary messages through the outbox. The files
 * are copies read through the files module's one lookup, taken once nothing else can refuse.
 */
export async function sendFileList(
  ctx: ServiceContext,
  deps: MessagingDeps,
  ticketId: number,
  fileListId: number,
): Promise<Message[]> {
  const { ticket, connected, timeZone } = await ticketToSendInto(ctx, ticketId);
  assertConnected(connected);
  const list = await copyFileListFiles(ctx, deps.storage, fileListId);
  const body = renderFor(ticket, timeZone, list.message);
  const base = agentMessage(ctx, ticket);
  const values = [
    { ...base, body, mediaType: 'chat' as const },
    ...list.files.map((file) => ({
      ...base,
      body: '',
      mediaType: mediaTypeOf(file.mimetype),
      mediaKey: file.key,
      mediaName: file.fileName,
      mediaMime: file.mimetype,
    })),
  ];
  return queueOutbound(
    { db: ctx.db, realtime: ctx.realtime, jobs: deps.jobs },
    ctx.companyId,
    ticket,
    values,
    body || (list.files.at(-1)?.fileName ?? ''),
  );
}

export interface OutboundDeps {
  db: Db;
  realtime: Realtime;
  jobs: Jobs;
}

/**
 * The common tail of the messages people send (automatic ones go through `queueOutboundMany`):
 * stored as pending with the ticket's last message in one statement (data-modifying CTEs: all or nothing, one round trip),
 * announced, then handed to the outbox.
 */
export async function queueOutbound(
  deps: OutboundDeps,
  companyId: number,
  ticket: Ticket,
  values: (typeof messages.$inferInsert)[],
  lastMessage: string,
): Promise<Message[]> {
  const { db } = deps;
  // Built once per shape (its columns, whether it answers): Drizzle took longer to build this
  // statement than the database to run it.
  const shape = QueryShape.bound();
  const now = shape.value('now', new Date());
  const ticketId = shape.value('ticketId', ticket.id);
  const ctes = [
    sql`last_of_ticket as (update ${tickets} set last_message = ${shape.value('lastMessage', lastMessage)},
      last_message_at = ${now}, last_from_me = true, updated_at = ${now}
      where id = ${ticketId} and company_id = ${shape.value('companyId', companyId)})`,
  ];
  // A person's message answers the contact (the dashboard's first response); an automation's does not.
  if (values.some((v) => v.userId && !v.isAutomatic)) {
    shape.choose('first reply');
    const replied = arrayValue(shape, 'replied', [ticket.id], 'int');
    ctes.push(sql`first_reply as (${firstReplyOf(db, replied, sql`${now}::timestamptz`).getSQL()})`);
  }
  const insert = insertManyQuery(messages, values, {}, shape);
  const query = sql`with ${sql.join(ctes, sql`, `)} ${insert.query}`;
  const rows = insert.rowsOf(rowsOf(await executeShaped('agent_messages', db, shape, query)));
  // In the order given, which the ids follow (RETURNING promises no order).
  rows.sort((a, b) => a.id - b.id);
  const created = await viewMessages(db, rows, [ticket.contact]);
  await announceQueued(deps, companyId, ticket, created, lastMessage);
  return created;
}

/** Announces a ticket's new outbound messages, then wakes its outbox. */
async function announceQueued(
  deps: OutboundDeps,
  companyId: number,
  ticket: Ticket,
  created: Message[],
  lastMessage: string,
) {
  for (const message of created) {
    emitMessage(deps.realtime, companyId, ticket, 'create', message, { ticket: { ...ticket, lastMessage } });
  }
  // A wake-up only: the rows are the durable work, and the outbox sweeper finds them even if
  // the process dies before this job is written.
  await wake(deps.jobs, ticket.id);
}

/** One outbound message for one ticket, for `queueOutboundMany`. */
export interface QueuedOutbound {
  ticket: Ticket;
  value: typeof messages.$inferInsert;
  lastMessage: string;
  ticketChange?: BotChange;
}

/**
 * `queueOutbound` for one message on each of several tickets of the company (no ticket twice):
 * the messages, the tickets' last message and their changes are written by one statement, which
 * rejects when nothing was stored. Each message is then announced; that outcome is each one's own.
 */
export async function queueOutboundMany(
  deps: OutboundDeps,
  companyId: number,
  items: QueuedOutbound[],
): Promise<PromiseSettledResult<Message>[]> {
  const stored = await storeOutboundMany(deps.db, companyId, items);
  return Promise.allSettled(
    items.map(async (item, i) => {
      await announceQueued(deps, companyId, item.ticket, [stored[i]], item.lastMessage);
      return stored[i];
    }),
  );
}

/** The statement of `queueOutboundMany`; its messages in the order of `items`. */
async function storeOutboundMany(db: Db, companyId: number, items: QueuedOutbound[]): Promise<Message[]> {
  const shape = QueryShape.bound();
  const now = shape.value('now', new Date());
  const { arrays, names, sets } = botChangeColumns(
    items.map((i) => i.ticketChange),
    shape,
  );
  const insert = insertManyQuery(
    messages,
    items.map((i) => i.value),
    {},
    shape,
  );
  const query = sql`with c as (
      select * from unnest(${arrayValue(
        shape,
        'ids',
        items.map((i) => i.ticket.id),
        'int',
      )}, ${arrayValue(
        shape,
        'lastMessages',
        items.map((i) => i.lastMessage),
        'text',
      )}, ${arrays}) as c(id, last_message, ${names})
    ), last_of_ticket as (
      update ${tickets} t set last_message = c.last_message, last_message_at = ${now}, last_from_me = true,
        updated_at = ${now}, ${sets}
      from c where t.id = c.id and t.company_id = ${shape.value('companyId', companyId)}
    ) ${insert.query}`;
  const result = (await executeShaped('outbound_messages', db, shape, query)) as unknown as {
    rows: Record<string, unknown>[];
  };
  const created = await viewMessages(
    db,
    insert.rowsOf(result.rows),
    items.map((i) => i.ticket.contact),
  );
  // One message per ticket: RETURNING's order is not the statement's promise, the ticket is.
  const byTicket = new Map(created.map((m) => [m.ticketId, m]));
  return items.map((item) => byTicket.get(item.ticket.id) as Message);
}

export async function deleteMessage(ctx: ServiceContext, deps: MessagingDeps, id: number): Promise<Message> {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.companyId, ctx.companyId)));
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = await getTicket(ctx, row.ticketId);
  if (!row.fromMe) throw new AppError('ERR_DELETE_WAPP_MSG', {}, 'Only messages sent by the company can be deleted');
  if (row.providerId) {
    try {
      await deps.channels.get(row.whatsappId).deleteMessage(ticket.contact.number, { providerId: row.providerId });
    } catch (err) {
      throw err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED'
        ? err
        : new AppError('ERR_DELETE_WAPP_MSG');
    }
  }
  await ctx.db.update(messages).set({ isDeleted: true }).where(eq(messages.id, id));
  const message = await viewMessage(ctx.db, id);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  emitMessage(ctx.realtime, ctx.companyId, ticket, 'update', message);
  return message;
}

/** Messages back in the outbox, announced so that their chats drop the error mark. */
async function announceAgain(deps: OutboundDeps, companyId: number, rows: (typeof messages.$inferSelect)[]) {
  if (!rows.length) return [];
  const owners = await deps.db
    .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(inArray(tickets.id, [...new Set(rows.map((r) => r.ticketId))]));
  const shown = await viewMessages(deps.db, rows);
  for (const message of shown) {
    const ticket = owners.find((t) => t.id === message.ticketId);
    if (ticket) emitMessage(deps.realtime, companyId, ticket, 'update', message);
  }
  return shown;
}

/** "Try again" on a message that failed: it goes back to the outbox with fresh attempts. */
export async function retryMessage(ctx: ServiceContext, deps: MessagingDeps, id: number): Promise<Message> {
  const [row] = await ctx.db
    .select({ ticketId: messages.ticketId, sendStatus: messages.sendStatus, isDeleted: messages.isDeleted })
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.companyId, ctx.companyId)));
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
  await getTicket(ctx, row.ticketId);
  if (row.sendStatus !== 'failed' || row.isDeleted)
    throw new AppError('ERR_VALIDATION', {}, 'Only a failed message can be sent again');
  const rows = await sendAgain(
    ctx.db,
    deps.jobs,
    and(eq(messages.id, id), eq(messages.companyId, ctx.companyId)) as SQL,
  );
  const [message] = await announceAgain({ db: ctx.db, realtime: ctx.realtime, jobs: deps.jobs }, ctx.companyId, rows);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return message;
}

/** A connection is back: what failed because it was down goes out now, in order. */
export async function resendFailedWhileDown(deps: OutboundDeps, companyId: number, whatsappId: number) {
  const rows = await sendAgain(
    deps.db,
    deps.jobs,
    and(eq(messages.companyId, companyId), failedWhileDown(whatsappId)) as SQL,
  );
  await announceAgain(deps, companyId, rows);
}

/** A connection's stored message by its provider id: what a reply quotes on the provider's side. */
export async function messageByProviderId(db: Db, companyId: number, whatsappId: number, providerId: string) {
  const [row] = await db
    .select({ body: messages.body, fromMe: messages.fromMe, participant: messages.participant })
    .from(messages)
    .where(
      and(eq(messages.companyId, companyId), eq(messages.whatsappId, whatsappId), eq(messages.providerId, providerId)),
    )
    .limit(1);
  return row;
}

/** A delivery receipt: acks only move forward, and the message's ticket hears of each move. */
export async function applyAck(db: Db, realtime: Realtime, ack: Ack): Promise<void> {
  const acked = await ackMessage(db, ack);
  if (acked) emitMessage(realtime, ack.companyId, acked.ticket, 'update', acked.message);
}
