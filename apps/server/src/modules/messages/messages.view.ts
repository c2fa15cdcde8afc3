import { companyEvent, type Message } from '@balcao/shared';
import { desc, eq, inArray } from 'drizzle-orm';
import { alias, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { statement } from '../../db/named-statement.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { contacts } from '../contacts/contacts.schema.js';
import { ticketRooms } from '../tickets/tickets.access.js';
import { messages } from './messages.schema.js';

type Row = typeof messages.$inferSelect;

/** The columns a message shows (the page selects these only: not the send queue's state nor the provider's data). */
const shownFields = {
  id: messages.id,
  ticketId: messages.ticketId,
  contactId: messages.contactId,
  body: messages.body,
  fromMe: messages.fromMe,
  mediaType: messages.mediaType,
  mediaKey: messages.mediaKey,
  mediaName: messages.mediaName,
  isDeleted: messages.isDeleted,
  isEdited: messages.isEdited,
  ack: messages.ack,
  read: messages.read,
  participant: messages.participant,
  sendStatus: messages.sendStatus,
  sendError: messages.sendError,
  transcript: messages.transcript,
  createdAt: messages.createdAt,
};
type Shown = Pick<Row, keyof typeof shownFields>;
type Person = { id: number; name: string } | null;

export const mediaUrlOf = (key: string | null) => (key ? `/media/${key}` : null);

const quotedMsg = alias(messages, 'quoted_msg');
const quotedContact = alias(contacts, 'quoted_contact');

/** What a message shows of the message it quotes. */
const quotedFields = {
  id: quotedMsg.id,
  body: quotedMsg.body,
  fromMe: quotedMsg.fromMe,
  mediaType: quotedMsg.mediaType,
  mediaKey: quotedMsg.mediaKey,
  isDeleted: quotedMsg.isDeleted,
  contactId: quotedMsg.contactId,
};
type QuotedRow = Pick<Row, keyof typeof quotedFields>;

const personOf = (id: number | null, name: string | null): Person =>
  id !== null && name !== null ? { id, name } : null;

/** A stored message in the API shape, given the contact of each message and the quoted one if any. */
function messageOf(r: Shown, contact: Person, quoted?: { q: QuotedRow; contact: Person }): Message {
  const q = quoted?.q;
  return {
    id: r.id,
    ticketId: r.ticketId,
    body: r.isDeleted ? '' : r.body,
    fromMe: r.fromMe,
    mediaType: r.mediaType,
    mediaUrl: r.isDeleted ? null : mediaUrlOf(r.mediaKey),
    mediaName: r.mediaName,
    isDeleted: r.isDeleted,
    isEdited: r.isEdited,
    ack: r.ack,
    read: r.read,
    participant: r.participant,
    sendStatus: r.sendStatus,
    sendError: r.sendError,
    quotedMsg: q
      ? {
          id: q.id,
          body: q.isDeleted ? '' : q.body,
          fromMe: q.fromMe,
          mediaType: q.mediaType,
          mediaUrl: q.isDeleted ? null : mediaUrlOf(q.mediaKey),
          isDeleted: q.isDeleted,
          contact: quoted.contact,
        }
      : null,
    contact,
    transcript: r.isDeleted ? null : r.transcript,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Messages in the API shape, with their contacts and quoted messages fetched in two queries;
 * contacts the caller already holds (`known`) are not fetched again.
 */
export async function viewMessages(
  db: Db,
  rows: Row[],
  known: { id: number; name: string }[] = [],
): Promise<Message[]> {
  if (rows.length === 0) return [];
  const quotedIds = [...new Set(rows.map((r) => r.quotedMsgId).filter((id): id is number => id !== null))];
  const quoted = quotedIds.length ? await db.select().from(messages).where(inArray(messages.id, quotedIds)) : [];
  const contactIds = [
    ...new Set([...rows, ...quoted].map((r) => r.contactId).filter((id): id is number => id !== null)),
  ];
  const missing = contactIds.filter((id) => !known.some((k) => k.id === id));
  const fetched = missing.length
    ? await db.select({ id: contacts.id, name: contacts.name }).from(contacts).where(inArray(contacts.id, missing))
    : [];
  const people = [...known, ...fetched];
  const contactOf = (id: number | null) => people.find((p) => p.id === id) ?? null;
  return rows.map((r) => {
    const q = quoted.find((m) => m.id === r.quotedMsgId);
    return messageOf(r, contactOf(r.contactId), q && { q, contact: contactOf(q.contactId) });
  });
}

/** A message with its contact's name and the message it quotes, each a left join. */
const shownColumns = {
  m: shownFields,
  contactName: contacts.name,
  quoted: quotedFields,
  quotedContactName: quotedContact.name,
};
type ShownRow = {
  m: Shown;
  contactName: string | null;
  quoted: QuotedRow | null;
  quotedContactName: string | null;
};

function selectShown<T extends SelectedFields>(db: Db, extra: T) {
  return db
    .select({ ...shownColumns, ...extra })
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quotedMsg, eq(quotedMsg.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quotedMsg.contactId));
}

const shownOf = ({ m, contactName, quoted, quotedContactName }: ShownRow): Message =>
  messageOf(
    m,
    personOf(m.contactId, contactName),
    quoted ? { q: quoted, contact: personOf(quoted.contactId, quotedContactName) } : undefined,
  );

const messagesPage = statement('messages_page', ['ticketId', 'limit', 'offset'], (db, p) =>
  selectShown(db, { total: db.$count(messages, eq(messages.ticketId, p.ticketId)) })
    .where(eq(messages.ticketId, p.ticketId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(p.limit)
    .offset(p.offset),
);

/**
 * One page of a ticket's messages, newest first, with their contacts, quoted messages and the
 * ticket's message count, in one statement. The count rides on the page's rows: with none, it is
 * 0 on the first page and needs a statement of its own beyond it.
 */
export async function selectMessagesPage(
  db: Db,
  ticketId: number,
  window: { limit: number; offset: number },
): Promise<{ messages: Message[]; count: number }> {
  const rows = await messagesPage(db, { ticketId, ...window });
  if (rows.length) return { messages: rows.map(shownOf), count: rows[0].total };
  return { messages: [], count: window.offset === 0 ? 0 : await db.$count(messages, eq(messages.ticketId, ticketId)) };
}

const messageById = statement('message_by_id', ['id'], (db, p) => selectShown(db, {}).where(eq(messages.id, p.id)));

/** One message in the API shape, with its contact and quoted message, in one statement. */
export async function viewMessage(db: Db, id: number): Promise<Message | undefined> {
  const [row] = await messageById(db, { id });
  return row && shownOf(row);
}

/** `appMessage` events go to the same rooms as the ticket's own events. */
export function emitMessage(
  realtime: Realtime,
  companyId: number,
  ticket: { id: number; queueId: number | null; userId: number | null; status?: string },
  action: 'create' | 'update',
  message: Message,
  extra: Record<string, unknown> = {},
) {
  realtime.toRooms(ticketRooms(companyId, ticket), companyEvent.appMessage(companyId), { action, message, ...extra });
}
