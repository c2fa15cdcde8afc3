import { companyEvent, type Message, type Ticket } from '@balcao/shared';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Ack } from '../../channels/channel.js';
import type { Db } from '../../db/client.js';
import { preparableSql, statement } from '../../db/named-statement.js';
import { readerOf, rowsOf } from '../../db/rows.js';
import { isoOf } from '../../db/timestamps.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { contacts } from '../contacts/contacts.schema.js';
import { ticketRooms } from '../tickets/tickets.access.js';
import { tickets } from '../tickets/tickets.schema.js';
import { ticketOfRow, ticketStatement } from '../tickets/tickets.view.js';
import { messages } from './messages.schema.js';

type Row = typeof messages.$inferSelect;

/**
 * What a message shows (the page selects these only: not the send queue's state nor the provider's
 * data); its creation as Drizzle gives it, or already in the API's form (`isoOf`).
 */
type Shown = { createdAt: Date | string } & Pick<
  Row,
  | 'id'
  | 'ticketId'
  | 'contactId'
  | 'body'
  | 'fromMe'
  | 'mediaType'
  | 'mediaKey'
  | 'mediaName'
  | 'isDeleted'
  | 'isEdited'
  | 'ack'
  | 'read'
  | 'participant'
  | 'sendStatus'
  | 'sendError'
  | 'transcript'
>;
/** What a message shows of the message it quotes. */
type QuotedRow = Pick<Row, 'id' | 'body' | 'fromMe' | 'mediaType' | 'mediaKey' | 'isDeleted' | 'contactId'>;
type Person = { id: number; name: string } | null;

export const mediaUrlOf = (key: string | null) => (key ? `/media/${key}` : null);

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
    createdAt: typeof r.createdAt === 'string' ? r.createdAt : r.createdAt.toISOString(),
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

/**
 * A shown message as PostgreSQL writes it, one JSON array (`json_build_array` of `shownColumns`):
 * its columns, its contact's name and the message it quotes with that one's contact (left joins).
 * Positional, not an object: half the text of the keyed form for the database to write and Node to
 * parse, and read without Drizzle (its mapping of joined rows was a sixth of a page's CPU).
 */
type ShownTuple = unknown[];
/** A `ShownTuple` read under `shownNames`. */
interface ShownRow extends Omit<Shown, 'createdAt'> {
  /** As `to_json` writes a timestamptz. */
  createdAt: string;
  contactName: string | null;
  quotedId: number | null;
  quotedBody: string;
  quotedFromMe: boolean;
  quotedMediaType: Shown['mediaType'];
  quotedMediaKey: string | null;
  quotedIsDeleted: boolean;
  quotedContactId: number | null;
  quotedContactName: string | null;
}
const shownNames = [
  'id',
  'ticketId',
  'contactId',
  'body',
  'fromMe',
  'mediaType',
  'mediaKey',
  'mediaName',
  'isDeleted',
  'isEdited',
  'ack',
  'read',
  'participant',
  'sendStatus',
  'sendError',
  'transcript',
  'createdAt',
  'contactName',
  'quotedId',
  'quotedBody',
  'quotedFromMe',
  'quotedMediaType',
  'quotedMediaKey',
  'quotedIsDeleted',
  'quotedContactId',
  'quotedContactName',
] as const satisfies readonly (keyof ShownRow)[];
const readShown = readerOf<ShownRow>(shownNames);

/** A `ShownTuple` of the message `m` (and its contact `c`, quoted message `q` and that one's contact `qc`). */
const shownColumns = sql`json_build_array(m.id, m.ticket_id, m.contact_id, m.body, m.from_me, m.media_type,
    m.media_key, m.media_name, m.is_deleted, m.is_edited, m.ack, m.read, m.participant, m.send_status, m.send_error,
    m.transcript, m.created_at, c.name, q.id, q.body, q.from_me, q.media_type, q.media_key, q.is_deleted,
    q.contact_id, qc.name)`;

/** Shown messages read from `source` (the table, or the rows a CTE answered with its columns) as `m`: `shown` and `extra`. */
const selectShown = (source: SQL = sql`${messages}`, extra: SQL = sql``) => sql`select ${shownColumns} shown${extra}
  from ${source} m
  left join ${contacts} c on c.id = m.contact_id
  left join ${messages} q on q.id = m.quoted_msg_id
  left join ${contacts} qc on qc.id = q.contact_id`;

function shownOf(t: ShownTuple): Message {
  const r = readShown(t);
  const quoted =
    r.quotedId === null
      ? undefined
      : {
          q: {
            id: r.quotedId,
            body: r.quotedBody,
            fromMe: r.quotedFromMe,
            mediaType: r.quotedMediaType,
            mediaKey: r.quotedMediaKey,
            isDeleted: r.quotedIsDeleted,
            contactId: r.quotedContactId,
          },
          contact: personOf(r.quotedContactId, r.quotedContactName),
        };
  r.createdAt = isoOf(r.createdAt);
  return messageOf(r, personOf(r.contactId, r.contactName), quoted);
}

/** The ticket's page of shown messages, newest first, as one JSON array of `ShownTuple`s. */
const pageOfTicket = (ticketId: SQL, limit: unknown, offset: unknown) =>
  sql`(select coalesce(json_agg(p.shown order by p.created_at desc, p.id desc), '[]'::json)
    from (${selectShown(sql`${messages}`, sql`, m.created_at, m.id`)}
    where m.ticket_id = ${ticketId} order by m.created_at desc, m.id desc limit ${limit} offset ${offset}) p)`;

const ticketMessagesPage = ticketStatement<'limit' | 'offset', { page: ShownTuple[]; total: number }>(
  'ticket_messages_page',
  ['limit', 'offset'],
  (ticketId, p) => ({
    page: pageOfTicket(ticketId, p.limit, p.offset).as('page'),
    total: sql<number>`(select count(*) from ${messages} where ticket_id = ${ticketId})::int`.as('total'),
  }),
);

/**
 * The company's ticket `id` with one page of its messages, newest first, their contacts and quoted
 * messages, and its message count, in one statement: the page rides on the ticket's row as JSON.
 * Undefined when the company has no such ticket; whether the caller may see it is the caller's check.
 */
export async function selectTicketMessages(
  db: Db,
  companyId: number,
  id: number,
  window: { limit: number; offset: number },
): Promise<{ ticket: Ticket; messages: Message[]; count: number } | undefined> {
  const row = await ticketMessagesPage(db, { id, companyId, ...window });
  if (!row) return undefined;
  return { ticket: ticketOfRow(row), messages: row.page.map(shownOf), count: row.total };
}

const messageById = statement('message_by_id', ['id'], (db, p) =>
  preparableSql(db, sql`${selectShown()} where m.id = ${p.id}`),
);

/** One message in the API shape, with its contact and quoted message, in one statement. */
export async function viewMessage(db: Db, id: number): Promise<Message | undefined> {
  const [row] = rowsOf<{ shown: ShownTuple }>(await messageById(db, { id }));
  return row && shownOf(row.shown);
}

/**
 * A delivery receipt: the message's ack moves forward, never back (the UPDATE decides, so two receipts
 * that race cannot move it back), and is answered as shown with its ticket's key, in one statement
 * built once per connection (a campaign's every message brings two or three).
 */
const ackForward = statement('ack_forward', ['companyId', 'whatsappId', 'providerId', 'ack'], (db, p) =>
  preparableSql(
    db,
    sql`with acked as (update ${messages} set ack = ${p.ack}, updated_at = now() from ${tickets}
      where ${messages.companyId} = ${p.companyId} and ${messages.whatsappId} = ${p.whatsappId}
        and ${messages.providerId} = ${p.providerId} and ${messages.ack} < ${p.ack} and ${tickets.id} = ${messages.ticketId}
      returning ${messages}.*, ${tickets.queueId} t_queue_id, ${tickets.userId} t_user_id)
    ${selectShown(sql`acked`, sql`, m.t_queue_id, m.t_user_id`)}`,
  ),
);

/** The message a receipt moved forward, as shown, and its ticket's key; undefined when none moved. */
export async function ackMessage(db: Db, ack: Ack) {
  const [row] = rowsOf<{ shown: ShownTuple; t_queue_id: number | null; t_user_id: number | null }>(
    await ackForward(db, ack),
  );
  if (!row) return undefined;
  const message = shownOf(row.shown);
  return { message, ticket: { id: message.ticketId, queueId: row.t_queue_id, userId: row.t_user_id } };
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
