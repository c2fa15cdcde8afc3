import type { Ticket, TicketCreate, TicketsListQuery, TicketUpdate } from '@balcao/shared';
import { and, eq, inArray, isNull, ne, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { anyOfUnseen } from '../../db/named-statement.js';
import { anyOf, QueryShape } from '../../db/query-shape.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { contacts } from '../contacts/contacts.schema.js';
import { findContact } from '../contacts/contacts.service.js';
import { assertIntegrationOfCompany } from '../integrations/integrations.service.js';
import { messages } from '../messages/messages.schema.js';
import { emitMessage, viewMessages } from '../messages/messages.view.js';
import { assertPromptOfCompany } from '../prompts/prompts.service.js';
import { queues } from '../queues/queues.schema.js';
import { findQueue } from '../queues/queues.service.js';
import { ticketTags } from '../tags/tags.schema.js';
import { users } from '../users/users.schema.js';
import { findUser } from '../users/users.service.js';
import { defaultWhatsapp, findWhatsapp } from '../whatsapp/whatsapp.service.js';
import {
  canSee,
  companyKeys,
  type KeyFilter,
  type TicketAccess,
  ticketAccessOf,
  visibleTickets,
} from './tickets.access.js';
import { ticketCounts, tickets } from './tickets.schema.js';
import { finishCycle, markLeads, openCycle, startCycle, transferCycle } from './tickets.tracking.js';
import { emitTicket, emitTicketDeleted, selectTicket, selectTicketsPage, type TicketsFilter } from './tickets.view.js';

/** The UTC day `day` (yyyy-mm-dd) of a timestamp column, as a range the column's index can walk. */
const dayRange = (column: typeof tickets.createdAt | typeof tickets.updatedAt, day: Placeholder | SQL) =>
  sql`(${column} >= ${day}::date::timestamp at time zone 'UTC' and ${column} < (${day}::date + 1)::timestamp at time zone 'UTC')`;

/**
 * The caller's visibility (tickets.access) combined with the queue filter, stated as plainly as the
 * caller's rights allow: for queues the caller belongs to, the visibility rule adds nothing, and
 * repeating it in an OR keeps PostgreSQL from counting on the (company, queue, status) index alone.
 */
export function queueScope(access: TicketAccess, queueIds: number[] | undefined, shape: QueryShape): KeyFilter {
  if (!queueIds) return visibleTickets(access, shape);
  const noQueue = access.seesNoQueue;
  if (access.admin) {
    shape.choose(`queues:${queueIds.length ? 'q' : ''}${noQueue ? 'n' : ''}`);
    const chosen = queueIds.length ? shape.value('queueIds', queueIds) : undefined;
    return (t) =>
      or(chosen ? anyOfUnseen(t.queueId, chosen, 'int') : undefined, noQueue ? isNull(t.queueId) : undefined) ??
      sql`false`;
  }
  const mine = queueIds.filter((id) => access.queueIds.includes(id));
  const others = queueIds.filter((id) => !access.queueIds.includes(id));
  shape.choose(`queues:${mine.length ? 'm' : ''}${others.length ? 'o' : ''}${noQueue ? 'n' : ''}`);
  const own = mine.length ? shape.value('mine', mine) : undefined;
  const foreign = others.length
    ? { queueIds: shape.value('others', others), userId: shape.unseen('userId', access.userId, 'int') }
    : undefined;
  return (t) =>
    or(
      own ? anyOfUnseen(t.queueId, own, 'int') : undefined,
      // Another queue's ticket is visible only when it is assigned to the caller.
      foreign ? and(anyOfUnseen(t.queueId, foreign.queueIds, 'int'), eq(t.userId, foreign.userId)) : undefined,
      noQueue ? isNull(t.queueId) : undefined,
    ) ?? sql`false`;
}

/** The list's filters on the ticket's key (visibility, queues, status, assignees). */
function keyFilters(access: TicketAccess, q: TicketsListQuery, shape: QueryShape): KeyFilter[] {
  const filters = [queueScope(access, q.queueIds, shape)];
  if (q.status) {
    shape.choose('status');
    const status = shape.unseen('status', q.status, 'text');
    filters.push((t) => eq(t.status, status));
  }
  // Without show-all (or for plain users, who never have it) the open list is the caller's own;
  // a list of another status needs no such rule.
  if (!(q.showAll && access.admin)) {
    if (q.status === 'open') {
      shape.choose('own');
      const userId = shape.unseen('userId', access.userId, 'int');
      filters.push((t) => eq(t.userId, userId));
    } else if (!q.status) {
      shape.choose('own-if-open');
      const userId = shape.unseen('userId', access.userId, 'int');
      filters.push((t) => or(eq(t.userId, userId), sql`${t.status} <> 'open'`));
    }
  }
  if (q.users?.length) {
    shape.choose('users');
    const users = shape.value('users', q.users);
    filters.push((t) => anyOfUnseen(t.userId, users, 'int'));
  }
  return filters;
}

/** The list's other filters: tags, unread messages, dates. */
function ticketFilters(q: TicketsListQuery, shape: QueryShape): SQL[] {
  const filters: SQL[] = [];
  if (q.tags?.length) {
    shape.choose('tags');
    filters.push(
      inArray(
        tickets.id,
        sql`(select ${ticketTags.ticketId} from ${ticketTags} where ${anyOf(ticketTags.tagId, shape, 'tags', q.tags)})`,
      ),
    );
  }
  if (q.withUnreadMessages) {
    shape.choose('unread');
    filters.push(sql`${tickets.unreadMessages} > 0`);
  }
  if (q.date) {
    shape.choose('date');
    filters.push(dayRange(tickets.createdAt, shape.inSight('date', q.date)));
  }
  if (q.updatedAt) {
    shape.choose('updatedAt');
    filters.push(dayRange(tickets.updatedAt, shape.inSight('updatedAt', q.updatedAt)));
  }
  return filters;
}

/**
 * The ids of the tickets whose contact or one of whose messages matches the search term, as the
 * common table expression `search_matches`: read by both the page and the count, PostgreSQL runs
 * it (and its trigram index scans) once. One uncorrelated id set, so that the trigram indexes drive
 * the search instead of a scan of every ticket.
 */
function searchMatches(db: Db, shape: QueryShape, companyId: Placeholder | SQL, searchParam: string) {
  shape.choose('search');
  const term = shape.inSight('term', likePattern(searchParam));
  const contactIds = db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.companyId, companyId),
        or(sql`lower(${contacts.name}) like ${term}`, sql`${contacts.number} like ${term}`),
      ),
    );
  return db.$with('search_matches').as(
    union(
      db.select({ id: tickets.id }).from(tickets).where(inArray(tickets.contactId, contactIds)),
      db
        .select({ id: messages.ticketId })
        .from(messages)
        .where(and(eq(messages.companyId, companyId), sql`lower(${messages.body}) like ${term}`)),
    ),
  );
}

/**
 * The filter of `GET /tickets`: the company's tickets the caller may see that match the query, with
 * every value a placeholder of `shape` (the page is built once per combination of filters). A
 * filter on the ticket's key alone is counted on `ticket_counts`, the same filter over its rows.
 */
export function ticketListFilter(
  db: Db,
  caller: { companyId: number },
  access: TicketAccess,
  q: TicketsListQuery,
): TicketsFilter {
  const shape = QueryShape.bound();
  const companyId = shape.unseen('companyId', caller.companyId, 'int');
  const search = q.searchParam ? searchMatches(db, shape, companyId, q.searchParam) : undefined;
  const onKey = keyFilters(access, q, shape);
  const others = ticketFilters(q, shape);
  const where = companyKeys(
    tickets,
    companyId,
    onKey,
    ...others,
    search && inArray(tickets.id, db.select({ id: search.id }).from(search)),
  );
  const counted = search || others.length ? undefined : companyKeys(ticketCounts, companyId, onKey);
  return { where, ctes: search ? [search] : [], shape, counted };
}

/** One page of the tickets matching `filter`, newest activity first, with their count and `hasMore`. */
export async function ticketsPage(db: Db, filter: TicketsFilter, pageNumber: number) {
  const { limit, offset, size } = pageWindow(pageNumber);
  const found = await selectTicketsPage(db, filter, { limit, offset });
  const page = pageOf(found.tickets, size);
  return { tickets: page.items, count: found.count, hasMore: page.hasMore };
}

export async function listTickets(ctx: ServiceContext, q: TicketsListQuery) {
  const access = await ticketAccessOf(ctx.db, ctx);
  return ticketsPage(ctx.db, ticketListFilter(ctx.db, ctx, access, q), q.pageNumber);
}

/** A ticket the caller may see: 404 when it is not the company's, 403 when it is outside the caller's queues. */
export async function getTicket(ctx: ServiceContext, id: number): Promise<Ticket> {
  const [ticket, access] = await Promise.all([selectTicket(ctx.db, ctx.companyId, id), ticketAccessOf(ctx.db, ctx)]);
  return visibleTicket(ticket, access);
}

/** The company's ticket as read (undefined: none), if the caller's access lets them see it. */
export function visibleTicket(ticket: Ticket | undefined, access: TicketAccess): Ticket {
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!canSee(access, ticket)) throw new AppError('ERR_NO_PERMISSION');
  return ticket;
}

export async function getTicketByUuid(ctx: ServiceContext, uuid: string): Promise<Ticket> {
  const [row] = await ctx.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.uuid, uuid), eq(tickets.companyId, ctx.companyId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  return getTicket(ctx, row.id);
}

/** ERR_OTHER_OPEN_TICKET with who holds the contact's open ticket (spec §4). */
async function otherOpenTicketError(db: Db, companyId: number, contactId: number, whatsappId: number) {
  const [row] = await db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      userId: tickets.userId,
      userName: users.name,
      queueName: queues.name,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        ne(tickets.status, 'closed'),
      ),
    )
    .limit(1);
  return new AppError('ERR_OTHER_OPEN_TICKET', {
    ticketId: row?.id ?? null,
    ticketUuid: row?.uuid ?? null,
    userId: row?.userId ?? null,
    userName: row?.userName ?? null,
    queueName: row?.queueName ?? null,
  });
}

export async function createTicket(ctx: ServiceContext, input: TicketCreate): Promise<Ticket> {
  const access = await ticketAccessOf(ctx.db, ctx);
  const contact = await findContact(ctx.db, ctx.companyId, input.contactId);
  const whatsapp = input.whatsappId
    ? await findWhatsapp(ctx.db, ctx.companyId, input.whatsappId)
    : await defaultWhatsapp(ctx.db, ctx.companyId);
  const queueId = input.queueId ?? null;
  if (queueId === null && !access.admin) throw new AppError('ERR_QUEUE_REQUIRED', {}, 'Selecione uma fila');
  if (queueId !== null) {
    await findQueue(ctx.db, ctx.companyId, queueId);
    if (!access.admin && !access.queueIds.includes(queueId)) throw new AppError('ERR_NO_PERMISSION');
  }
  const userId = input.status === 'pending' ? null : input.userId && access.admin ? input.userId : ctx.userId;
  if (userId !== null) await findUser(ctx.db, ctx.companyId, userId);

  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tickets)
      .values({
        companyId: ctx.companyId,
        contactId: contact.id,
        whatsappId: whatsapp.id,
        queueId,
        userId,
        status: input.status,
        isGroup: contact.isGroup,
      })
      .onConflictDoNothing()
      .returning({ id: tickets.id });
    if (!row) return null;
    await openCycle(tx as unknown as Db, {
      companyId: ctx.companyId,
      ticketId: row.id,
      whatsappId: whatsapp.id,
      userId,
      started: input.status === 'open',
    });
    await markLeads(tx as unknown as Db, [row.id]);
    return row.id;
  });
  if (id === null) throw await otherOpenTicketError(ctx.db, ctx.companyId, contact.id, whatsapp.id);
  // Gone before it could be read back (deleted at once, or its contact with it): the creation failed.
  const ticket = await selectTicket(ctx.db, ctx.companyId, id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  emitTicket(ctx.realtime, ctx.companyId, ticket);
  return ticket;
}

/** The new state a PUT asks for, following the transitions of spec §4. */
function nextState(ctx: ServiceContext, current: Ticket, input: TicketUpdate) {
  let status = input.status ?? current.status;
  let userId = input.userId === undefined ? current.userId : input.userId;
  const queueId = input.queueId === undefined ? current.queueId : input.queueId;
  const transfer = input.queueId !== undefined && input.queueId !== current.queueId;
  if (transfer && !input.userId && input.status === undefined) {
    status = 'pending';
    userId = null;
  }
  if (transfer && input.userId && input.status === undefined) status = 'open';
  if (status === 'open' && userId === null) userId = ctx.userId;
  if (status === 'pending' && input.userId === undefined) userId = null;
  return { status, userId, queueId, whatsappId: input.whatsappId ?? current.whatsappId };
}

/**
 * What a change gave away: a new queue, or the ticket to someone else (taking it oneself is an
 * acceptance). Null when it is no transfer, such as closing or reopening.
 */
export function transferOf(actorId: number, before: Ticket, ticket: Ticket) {
  if (before.status === 'closed' || ticket.status === 'closed') return null;
  const queueChanged = ticket.queueId !== null && ticket.queueId !== before.queueId;
  const userChanged = ticket.userId !== null && ticket.userId !== before.userId && ticket.userId !== actorId;
  return queueChanged || userChanged ? { queueChanged, userChanged } : null;
}

/**
 * The transfer's line in the conversation ("Transferido para Bruno · Suporte"): a stored message
 * that is never sent, so every reader and every reload shows it where it happened.
 */
async function recordTransfer(ctx: ServiceContext, ticket: Ticket) {
  const to = [ticket.user?.name, ticket.queue?.name].filter(Boolean).join(' · ');
  const [row] = await ctx.db
    .insert(messages)
    .values({
      companyId: ctx.companyId,
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
      contactId: ticket.contactId,
      fromMe: true,
      read: true,
      userId: ctx.userId,
      mediaType: 'transfer',
      body: to,
    })
    .returning();
  const [message] = await viewMessages(ctx.db, [row]);
  // The whole ticket goes along: the lists keep its last message instead of showing this line.
  emitMessage(ctx.realtime, ctx.companyId, ticket, 'create', message, { ticket });
}

/** A saved change of a ticket, for the automations that follow it (DOMAIN §4). */
export interface TicketTransition {
  ctx: ServiceContext;
  before: Ticket;
  ticket: Ticket;
}

/**
 * `after` runs once the change is saved and announced (the closing automations); the caller
 * passes it, so this service does not depend on the automations that depend on it.
 */
export async function updateTicket(
  ctx: ServiceContext,
  id: number,
  input: TicketUpdate,
  after?: (change: TicketTransition) => Promise<void>,
): Promise<Ticket> {
  const current = await getTicket(ctx, id);
  const next = nextState(ctx, current, input);
  if (next.queueId !== null && next.queueId !== current.queueId) await findQueue(ctx.db, ctx.companyId, next.queueId);
  if (next.userId !== null && next.userId !== current.userId) await findUser(ctx.db, ctx.companyId, next.userId);
  if (next.whatsappId !== current.whatsappId) await findWhatsapp(ctx.db, ctx.companyId, next.whatsappId);
  // A prompt or integration the ticket is handed to must be the company's (false and null clear it).
  if (input.promptId !== current.promptId) await assertPromptOfCompany(ctx.db, ctx.companyId, input.promptId || null);
  if (input.integrationId !== current.integrationId) {
    await assertIntegrationOfCompany(ctx.db, ctx.companyId, input.integrationId || null);
  }
  const closing = next.status === 'closed' && current.status !== 'closed';
  const accepting = next.status === 'open' && (current.status !== 'open' || next.userId !== current.userId);

  const updated = await ctx.db
    .transaction(async (tx) => {
      const rows = await tx
        .update(tickets)
        .set({
          ...next,
          ...(closing ? { useIntegration: false, integrationId: null, promptId: null, chatbot: false } : {}),
          // A rating is only awaited by a ticket that stays closed (set again after closing, DOMAIN §4).
          ...(closing || next.status !== 'closed' ? { awaitingRating: false } : {}),
          ...(input.useIntegration !== undefined ? { useIntegration: input.useIntegration } : {}),
          ...(typeof input.promptId === 'number' ? { promptId: input.promptId } : {}),
          ...(typeof input.integrationId === 'number' ? { integrationId: input.integrationId } : {}),
        })
        .where(and(eq(tickets.id, id), eq(tickets.companyId, ctx.companyId)))
        .returning({ id: tickets.id })
        .then(
          () => true,
          (err: { code?: string; cause?: { code?: string } }) => {
            // Another non-closed ticket of this contact on that connection (the partial unique index).
            if (err.code === '23505' || err.cause?.code === '23505') return false;
            throw err;
          },
        );
      if (!rows) throw new AppError('ERR_OTHER_OPEN_TICKET');
      const db = tx as unknown as Db;
      if (closing) await finishCycle(db, id, next.userId);
      else if (current.status === 'closed')
        await openCycle(db, {
          companyId: ctx.companyId,
          ticketId: id,
          whatsappId: next.whatsappId,
          userId: next.userId,
          started: next.status === 'open',
        });
      else if (accepting && next.userId !== null)
        await startCycle(db, {
          companyId: ctx.companyId,
          ticketId: id,
          whatsappId: next.whatsappId,
          userId: next.userId,
        });
      if (transferOf(ctx.userId, current, { ...current, ...next })) await transferCycle(db, id);
    })
    .then(
      () => true,
      (err) => {
        if (err instanceof AppError && err.code === 'ERR_OTHER_OPEN_TICKET') return false;
        throw err;
      },
    );
  if (!updated) throw await otherOpenTicketError(ctx.db, ctx.companyId, current.contactId, next.whatsappId);
  const ticket = await selectTicket(ctx.db, ctx.companyId, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const transfer = transferOf(ctx.userId, current, ticket);
  emitTicket(
    ctx.realtime,
    ctx.companyId,
    ticket,
    current,
    transfer?.userChanged ? (ticket.userId ?? undefined) : undefined,
  );
  if (transfer) await recordTransfer(ctx, ticket);
  if (after) await after({ ctx, before: current, ticket });
  return ticket;
}

export async function deleteTicket(ctx: ServiceContext, id: number): Promise<void> {
  const ticket = await getTicket(ctx, id);
  await ctx.db.delete(tickets).where(and(eq(tickets.id, id), eq(tickets.companyId, ctx.companyId)));
  emitTicketDeleted(ctx.realtime, ctx.companyId, ticket);
}
