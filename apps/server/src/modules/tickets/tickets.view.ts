import { companyEvent, type Ticket, type TicketEvent } from '@balcao/shared';
import {
  and,
  count,
  desc,
  eq,
  getTableName,
  inArray,
  type Placeholder,
  type SQL,
  sql,
  type WithSubquery,
} from 'drizzle-orm';
import type { AnyPgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { anyOfUnseen, preparableSql, statement } from '../../db/named-statement.js';
import { type QueryShape, shaped } from '../../db/query-shape.js';
import { asJsonRows, jsonRowsOf, outputNames } from '../../db/rows.js';
import { isoOf } from '../../db/timestamps.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { contacts } from '../contacts/contacts.schema.js';
import { contactColumns } from '../contacts/contacts.service.js';
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

/** What a ticket shows of its contact: the contact's columns without its timestamps. */
const { createdAt: _created, updatedAt: _updated, ...contactFields } = contactColumns;
const userFields = { id: users.id, name: users.name };
const queueFields = { id: queues.id, name: queues.name, color: queues.color };
const whatsappFields = { id: whatsapps.id, name: whatsapps.name };

/**
 * One of the ticket's details, a primary-key subquery built as JSON (null when `ref` is): beside
 * the tickets table the planner has no join order to search.
 */
function detailOf(fields: Record<string, AnyPgColumn>, key: AnyPgColumn, ref: AnyPgColumn) {
  const pairs = Object.entries(fields).map(([name, column]) => sql`'${sql.raw(name)}', ${qualified(column)}`);
  return sql`(select json_build_object(${sql.join(pairs, sql`, `)})
    from ${key.table} where ${qualified(key)} = ${qualified(ref)})`;
}

/** The ticket's tags by name, as one JSON array. */
const tagList = sql`coalesce((
  select json_agg(json_build_object('id', ${qualified(tags.id)}, 'name', ${qualified(tags.name)}, 'color', ${qualified(tags.color)}) order by ${qualified(tags.name)})
  from ${ticketTags} join ${tags} on ${qualified(tags.id)} = ${qualified(ticketTags.tagId)}
  where ${qualified(ticketTags.ticketId)} = ${qualified(tickets.id)}), '[]'::json)`;

/** The ticket's own columns, under their names in the table (`TicketRow`). */
const ticketColumns = {
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
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
  tags: tagList.as('tags'),
};

/**
 * A ticket as the driver gives it, mapped by hand: Drizzle's mapping (a type check per field and
 * row) was a tenth of a list request's CPU once the details were joined.
 */
interface TicketRow {
  id: number;
  uuid: string;
  status: Ticket['status'];
  last_message: string;
  unread_messages: number;
  is_group: boolean;
  chatbot: boolean;
  use_integration: boolean;
  integration_id: number | null;
  prompt_id: number | null;
  contact_id: number;
  whatsapp_id: number;
  user_id: number | null;
  queue_id: number | null;
  tags: Ticket['tags'];
  /** As Drizzle's drivers are set to give timestamps: text. */
  created_at: string;
  updated_at: string;
}
type Details = Pick<Ticket, 'contact' | 'user' | 'queue' | 'whatsapp'>;

/** The details joined: the related rows' columns beside the ticket's. */
export interface JoinedRow extends TicketRow {
  c_uuid: string;
  c_name: string;
  c_number: string;
  c_email: string;
  c_profile_pic_url: string;
  c_is_group: boolean;
  u_name: string | null;
  q_name: string | null;
  q_color: string | null;
  w_name: string;
}

/** Columns of a joined table under `prefix_name` (`JoinedRow`). */
const prefixed = (prefix: string, columns: AnyPgColumn[]) =>
  Object.fromEntries(columns.map((c) => [`${prefix}_${c.name}`, sql`${c}`.as(`${prefix}_${c.name}`)]));

/**
 * How a statement reads each ticket's contact, user, queue and connection. Joined, as columns:
 * PostgreSQL runs the pending list's statement in two thirds of the time its per-row JSON
 * subqueries take, but plans it in about three times as long (2.6 against 0.9 ms on the bench).
 * So joins serve the statements planned once per connection, subqueries those planned on each
 * call (QueryShape.plannedPerCall: a search term or a day in sight).
 */
const detailForms = {
  joined: {
    fields: {
      // The id is the ticket's contact_id.
      ...prefixed(
        'c',
        Object.values(contactFields).filter((c) => c !== contacts.id),
      ),
      ...prefixed('u', [users.name]),
      ...prefixed('q', [queues.name, queues.color]),
      ...prefixed('w', [whatsapps.name]),
    },
    of: (r: JoinedRow): Details => ({
      contact: {
        id: r.contact_id,
        uuid: r.c_uuid,
        name: r.c_name,
        number: r.c_number,
        email: r.c_email,
        profilePicUrl: r.c_profile_pic_url,
        isGroup: r.c_is_group,
      },
      user: r.user_id === null || r.u_name === null ? null : { id: r.user_id, name: r.u_name },
      queue:
        r.queue_id === null || r.q_name === null || r.q_color === null
          ? null
          : { id: r.queue_id, name: r.q_name, color: r.q_color },
      whatsapp: { id: r.whatsapp_id, name: r.w_name },
    }),
  },
  subqueries: {
    fields: {
      contact: detailOf(contactFields, contacts.id, tickets.contactId).as('contact'),
      user: detailOf(userFields, users.id, tickets.userId).as('user'),
      queue: detailOf(queueFields, queues.id, tickets.queueId).as('queue'),
      whatsapp: detailOf(whatsappFields, whatsapps.id, tickets.whatsappId).as('whatsapp'),
    },
    of: (r: TicketRow & Details): Details => ({
      contact: r.contact,
      user: r.user,
      queue: r.queue,
      whatsapp: r.whatsapp,
    }),
  },
};
type DetailForm = keyof typeof detailForms;

/** The columns of a ticket's row in each form, in the order its JSON array holds them (`asJsonRows`). */
const rowNames: Record<DetailForm, string[]> = {
  joined: outputNames({ ...ticketColumns, ...detailForms.joined.fields }),
  subqueries: outputNames({ ...ticketColumns, ...detailForms.subqueries.fields }),
};
/** A list page's rows: the ticket's, then the count of all the tickets the filter matches. */
const pageNames: Record<DetailForm, string[]> = {
  joined: [...rowNames.joined, 'total'],
  subqueries: [...rowNames.subqueries, 'total'],
};

/** Tickets with their contact, user, queue, connection and tags, in one statement; `extra` adds fields. */
function ticketRows(db: Db, form: DetailForm, extra: SelectedFields = {}, ctes: WithSubquery[] = []) {
  const query = db
    .with(...ctes)
    .select({ ...ticketColumns, ...detailForms[form].fields, ...extra })
    .from(tickets)
    .$dynamic();
  if (form === 'subqueries') return query;
  return query
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId));
}

/** The driver's rows of a ticket statement of `form`, in the API's shape. */
function ticketsOf(form: DetailForm, rows: TicketRow[]): Ticket[] {
  const details = detailForms[form].of as (r: TicketRow) => Details;
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    status: r.status,
    lastMessage: r.last_message,
    unreadMessages: r.unread_messages,
    isGroup: r.is_group,
    chatbot: r.chatbot,
    useIntegration: r.use_integration,
    integrationId: r.integration_id,
    promptId: r.prompt_id,
    contactId: r.contact_id,
    whatsappId: r.whatsapp_id,
    userId: r.user_id,
    queueId: r.queue_id,
    ...details(r),
    tags: r.tags,
    createdAt: isoOf(r.created_at),
    updatedAt: isoOf(r.updated_at),
  }));
}

/**
 * A statement reading the company's ticket `id` with its details joined and, beside them, the fields
 * `extra` builds on the ticket's id and the statement's other `keys`: another module's rows of the
 * ticket ride on its row, one statement for both, built once per connection (`statement`). It
 * answers the row with the extra fields under their aliases, undefined when the company has no such
 * ticket.
 */
export function ticketStatement<const K extends string, T = unknown>(
  name: string,
  keys: readonly K[],
  extra: (ticketId: SQL, p: Record<K, Placeholder<K>>) => SelectedFields = () => ({}),
): (db: Db, values: Record<K | 'id' | 'companyId', unknown>) => Promise<(JoinedRow & T) | undefined> {
  const placeholders = Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as Record<K, Placeholder<K>>;
  const fields = extra(qualified(tickets.id), placeholders);
  const names = [...rowNames.joined, ...outputNames(fields)];
  const run = statement(name, ['id', 'companyId', ...keys], (db, p) =>
    preparableSql(
      db,
      asJsonRows(
        ticketRows(db, 'joined', fields)
          .where(and(eq(tickets.id, p.id), eq(tickets.companyId, p.companyId)))
          .getSQL(),
        names,
      ),
    ),
  );
  return async (db, values) => jsonRowsOf<JoinedRow & T>(await run(db, values), names)[0];
}

/** A row of a `ticketStatement` as the API's ticket. */
export const ticketOfRow = (row: JoinedRow): Ticket => ticketsOf('joined', [row])[0];

const ticketById = ticketStatement('ticket_by_id', []);

export async function selectTicket(db: Db, companyId: number, id: number): Promise<Ticket | undefined> {
  const row = await ticketById(db, { id, companyId });
  return row === undefined ? undefined : ticketOfRow(row);
}

// One array parameter: an IN list would be a new statement, parsed and planned, for each length.
const ticketsByIds = statement('tickets_by_ids', ['ids', 'companyId'], (db, p) =>
  preparableSql(
    db,
    asJsonRows(
      ticketRows(db, 'joined')
        .where(and(anyOfUnseen(tickets.id, p.ids, 'int'), eq(tickets.companyId, p.companyId)))
        .getSQL(),
      rowNames.joined,
    ),
  ),
);

/** The company's tickets among `ids`, in no particular order. */
export async function selectTicketsOf(db: Db, companyId: number, ids: readonly number[]): Promise<Ticket[]> {
  return ticketsOf('joined', jsonRowsOf(await ticketsByIds(db, { ids, companyId }), rowNames.joined));
}

const newestFirst = [desc(tickets.updatedAt), desc(tickets.id)];
/** `newestFirst` over a page's rows wrapped by `asJsonRows` (as `r`). */
const newestFirstOfRow = sql`r.${sql.identifier(tickets.updatedAt.name)} desc, r.${sql.identifier(tickets.id.name)} desc`;

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
  { where, ctes, counted, shape }: TicketsFilter,
  window: { limit: number; offset?: SQL },
) {
  const pageIds = sql`(select ${tickets.id} from ${tickets} where ${where ?? sql`true`}
    order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${sql.raw(String(window.limit))}${window.offset ? sql` offset ${window.offset}` : sql``})`;
  const total = counted ? sql`(${summedCounts(db, counted)})` : sql`(${db.$count(tickets, where)})`;
  return ticketRows(db, detailFormOf(shape), { total: sql<number>`${total}::int`.as('total') }, ctes)
    .where(inArray(tickets.id, pageIds))
    .orderBy(...newestFirst);
}

const detailFormOf = (shape: QueryShape): DetailForm => (shape.plannedPerCall ? 'subqueries' : 'joined');

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
  const form = detailFormOf(shape);
  const result = await shaped('tickets_page', db, shape, () =>
    preparableSql(db, asJsonRows(ticketsPageQuery(db, filter, page).getSQL(), pageNames[form], newestFirstOfRow)),
  );
  const rows = jsonRowsOf<TicketRow & { total: number }>(result, pageNames[form]);
  if (rows.length) return { tickets: ticketsOf(form, rows), count: rows[0].total };
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
