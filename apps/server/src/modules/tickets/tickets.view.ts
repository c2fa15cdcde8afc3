import { companyEvent, type Ticket, type TicketEvent } from '@balcao/shared';
import { and, count, desc, eq, getTableName, inArray, type SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { AnyPgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { anyOfUnseen, statement } from '../../db/named-statement.js';
import { type QueryShape, shaped } from '../../db/query-shape.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { contacts } from '../contacts/contacts.schema.js';
import { queues } from '../queues/queues.schema.js';
import { tags, ticketTags } from '../tags/tags.schema.js';
import { users } from '../users/users.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { ticketRooms } from './tickets.access.js';
import { ticketCounts, tickets } from './tickets.schema.js';

/**
 * A column as `"table"."column"`. Drizzle writes a one-table select's columns unqualified, also
 * inside its subqueries, where an unqualified name would find the subquery's own table first.
 */
const qualified = (column: AnyPgColumn) =>
  sql.raw(`${JSON.stringify(getTableName(column.table))}.${JSON.stringify(column.name)}`);

/**
 * One of the ticket's details, a primary-key subquery built as JSON (null when `ref` is): beside
 * the tickets table the planner has no join order to search, which halves the planning of every
 * ticket read (the list's statements whose filters it sees are planned on each call).
 */
function detailOf<T>(fields: Record<string, AnyPgColumn>, key: AnyPgColumn, ref: AnyPgColumn) {
  const pairs = Object.entries(fields).map(([name, column]) => sql`'${sql.raw(name)}', ${qualified(column)}`);
  return sql<T>`(select json_build_object(${sql.join(pairs, sql`, `)})
    from ${key.table} where ${qualified(key)} = ${qualified(ref)})`;
}

const contactOf = detailOf<Ticket['contact']>(
  {
    id: contacts.id,
    uuid: contacts.uuid,
    name: contacts.name,
    number: contacts.number,
    email: contacts.email,
    profilePicUrl: contacts.profilePicUrl,
    isGroup: contacts.isGroup,
  },
  contacts.id,
  tickets.contactId,
);
const userOf = detailOf<Ticket['user']>({ id: users.id, name: users.name }, users.id, tickets.userId);
const queueOf = detailOf<Ticket['queue']>(
  { id: queues.id, name: queues.name, color: queues.color },
  queues.id,
  tickets.queueId,
);
const whatsappOf = detailOf<Ticket['whatsapp']>(
  { id: whatsapps.id, name: whatsapps.name },
  whatsapps.id,
  tickets.whatsappId,
);

/** The ticket's tags by name, as one JSON array. */
const tagList = sql<Ticket['tags']>`coalesce((
  select json_agg(json_build_object('id', ${qualified(tags.id)}, 'name', ${qualified(tags.name)}, 'color', ${qualified(tags.color)}) order by ${qualified(tags.name)})
  from ${ticketTags} join ${tags} on ${qualified(tags.id)} = ${qualified(ticketTags.tagId)}
  where ${qualified(ticketTags.ticketId)} = ${qualified(tickets.id)}), '[]'::json)`;

const ticketFields = {
  id: tickets.id,
  uuid: tickets.uuid,
  status: tickets.status,
  lastMessage: tickets.lastMessage,
  unreadMessages: tickets.unreadMessages,
  isGroup: tickets.isGroup,
  chatbot: tickets.chatbot,
  useIntegration: tickets.useIntegration,
  integrationId: tickets.integrationId,
  promptId: tickets.promptId,
  contactId: tickets.contactId,
  whatsappId: tickets.whatsappId,
  userId: tickets.userId,
  queueId: tickets.queueId,
  contact: contactOf,
  user: userOf,
  queue: queueOf,
  whatsapp: whatsappOf,
  tags: tagList,
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
};

/** Tickets with their contact, user, queue, connection and tags, in one statement; `extra` adds fields. */
function ticketRows<Extra extends SelectedFields>(db: Db, extra: Extra, ctes: WithSubquery[] = []) {
  return db
    .with(...ctes)
    .select({ ...ticketFields, ...extra })
    .from(tickets)
    .$dynamic();
}

type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketRows<Record<never, never>>>['execute']>>[number];

/**
 * The row in the API's shape. A spread, not a rest: V8 copies an object with some keys left out
 * through a slow generic path (about 5 µs per row here, a twentieth of a list request's CPU).
 */
function ticketOf(row: TicketRow): Ticket {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

const ticketById = statement('ticket_by_id', ['id', 'companyId'], (db, p) =>
  ticketRows(db, {}).where(and(eq(tickets.id, p.id), eq(tickets.companyId, p.companyId))),
);

export async function selectTicket(db: Db, companyId: number, id: number): Promise<Ticket | undefined> {
  const [row] = await ticketById(db, { id, companyId });
  return row && ticketOf(row);
}

// One array parameter: an IN list would be a new statement, parsed and planned, for each length.
const ticketsByIds = statement('tickets_by_ids', ['ids', 'companyId'], (db, p) =>
  ticketRows(db, {}).where(and(anyOfUnseen(tickets.id, p.ids, 'int'), eq(tickets.companyId, p.companyId))),
);

/** The company's tickets among `ids`, in no particular order. */
export async function selectTicketsOf(db: Db, companyId: number, ids: readonly number[]): Promise<Ticket[]> {
  const rows = await ticketsByIds(db, { ids, companyId });
  return rows.map(ticketOf);
}

const newestFirst = [desc(tickets.updatedAt), desc(tickets.id)];

/** Which tickets a page shows: `where` reads `ctes`, and its values are `shape`'s placeholders. */
export interface TicketsFilter {
  where: SQL | undefined;
  ctes: WithSubquery[];
  shape: QueryShape;
  /**
   * The same filter over `ticket_counts`, when it reads nothing but the ticket's key: the count
   * then sums a few rows per key instead of walking every matching ticket.
   */
  counted?: SQL;
}

/** The count of the tickets a filter on their key matches, from `ticket_counts`. */
const summedCounts = (db: Db, counted: SQL) =>
  db
    .select({ total: sql<number>`coalesce(sum(${ticketCounts.count}), 0)::int` })
    .from(ticketCounts)
    .where(counted);

/**
 * The page's statement: the page is chosen on the tickets table alone (the planner never joins
 * thousands of candidates to contacts just to keep twenty), then only its rows get their details,
 * and the count of all the matching tickets (summed, see `TicketsFilter.counted`) rides on each
 * row. The page's size is written in the text, and so is the first page's absence of an offset; a
 * later page's offset is unseen (QueryShape.unseen). With a LIMIT it cannot see, PostgreSQL would
 * assume a tenth of the matching tickets and join them all; with an unseen offset on the first
 * page, it would sort a whole lane instead of walking an index to its first twenty rows.
 */
export function ticketsPageQuery(
  db: Db,
  { where, ctes, counted }: TicketsFilter,
  window: { limit: number; offset?: SQL },
) {
  const pageIds = sql`(select ${tickets.id} from ${tickets} where ${where ?? sql`true`}
    order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${sql.raw(String(window.limit))}${window.offset ? sql` offset ${window.offset}` : sql``})`;
  const total = counted ? sql<number>`(${summedCounts(db, counted)})` : db.$count(tickets, where);
  return ticketRows(db, { total }, ctes)
    .where(inArray(tickets.id, pageIds))
    .orderBy(...newestFirst);
}

/**
 * One page of the tickets matching the filter, newest activity first, with the count of them all,
 * in one statement built once per shape of the filter. With every value of the filter unseen, as
 * the list's common filters are, PostgreSQL plans it once per connection. The count rides on the
 * page's rows: with none, it is 0 on the first page and needs a statement of its own beyond it.
 */
export async function selectTicketsPage(
  db: Db,
  filter: TicketsFilter,
  window: { limit: number; offset: number },
): Promise<{ tickets: Ticket[]; count: number }> {
  const { shape } = filter;
  const later = window.offset > 0;
  shape.choose(`limit ${window.limit}${later ? ' offset' : ''}`);
  // Each call binds its offset: the build below runs on the shape's first call only.
  const page = { limit: window.limit, offset: later ? shape.unseen('offset', window.offset, 'int') : undefined };
  const rows = await shaped('tickets_page', db, shape, () => ticketsPageQuery(db, filter, page));
  // The page's tickets keep the count they carried: the reply's schema leaves it out.
  if (rows.length) return { tickets: rows.map(ticketOf), count: rows[0].total };
  if (window.offset === 0) return { tickets: [], count: 0 };
  const [{ total }] = await shaped('tickets_count', db, shape, () =>
    filter.counted
      ? summedCounts(db, filter.counted)
      : db
          .with(...filter.ctes)
          .select({ total: count() })
          .from(tickets)
          .where(filter.where),
  );
  return { tickets: [], count: total };
}

/**
 * Tells every socket that may see the ticket, before and after a change, so that lists which
 * lost it remove it (spec §4 live list behaviour).
 */
export function emitTicket(
  realtime: Realtime,
  companyId: number,
  ticket: Ticket,
  before?: { queueId: number | null; userId: number | null },
  transferredTo?: number,
) {
  const targets = new Set(ticketRooms(companyId, ticket));
  if (before) for (const r of ticketRooms(companyId, before)) targets.add(r);
  const event: TicketEvent = { action: 'update', ticket, ...(transferredTo === undefined ? {} : { transferredTo }) };
  realtime.toRooms([...targets], companyEvent.ticket(companyId), event);
}

export function emitTicketDeleted(
  realtime: Realtime,
  companyId: number,
  t: { id: number; queueId: number | null; userId: number | null },
) {
  realtime.toRooms(ticketRooms(companyId, t), companyEvent.ticket(companyId), { action: 'delete', ticketId: t.id });
}
