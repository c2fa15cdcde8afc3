import { companyEvent, type KanbanQuery, type TicketTagEvent, type TicketTagReply } from '@balcao/shared';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { tags, ticketTags } from '../tags/tags.schema.js';
import { findTag } from '../tags/tags.service.js';
import { companyTickets, ticketAccessOf, ticketRooms } from '../tickets/tickets.access.js';
import { tickets } from '../tickets/tickets.schema.js';
import { getTicket, queueScope, ticketsPage } from '../tickets/tickets.service.js';
import { emitTicket, selectTicket } from '../tickets/tickets.view.js';

/** The kanban tags of the caller's company, as a sub-select. */
const kanbanTagIds = (companyId: number) =>
  sql`(select ${tags.id} from ${tags} where ${tags.companyId} = ${companyId} and ${tags.kanban} = 1)`;

/**
 * Locks the ticket's row for the rest of the transaction: concurrent moves of one ticket run one
 * after the other, so that each sees the lanes the previous one left (DOMAIN §13, one lane).
 */
async function lockTicket(tx: Db, companyId: number, ticketId: number) {
  const [row] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)))
    .for('update');
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
}

async function tagsOfTicket(db: Db, ticketId: number): Promise<{ tagIds: number[]; laneTagId: number | null }> {
  const rows = await db
    .select({ id: tags.id, kanban: tags.kanban })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(eq(ticketTags.ticketId, ticketId))
    .orderBy(asc(tags.name));
  return { tagIds: rows.map((r) => r.id), laneTagId: rows.find((r) => r.kanban === 1)?.id ?? null };
}

/**
 * After the commit: `company-{id}-ticketTag` `{action: 'update', ticketId, tagIds, laneTagId}` to the
 * ticket's audience (the rooms of `company-{id}-ticket`), and the ticket itself so that ticket lists
 * show its new tags.
 */
async function announce(ctx: ServiceContext, ticketId: number, state: Omit<TicketTagReply, 'ticketId'>) {
  const ticket = await selectTicket(ctx.db, ctx.companyId, ticketId);
  if (!ticket) return;
  const event: TicketTagEvent = { action: 'update', ticketId, ...state };
  ctx.realtime.toRooms(ticketRooms(ctx.companyId, ticket), companyEvent.ticketTag(ctx.companyId), event);
  emitTicket(ctx.realtime, ctx.companyId, ticket);
}

/**
 * `PUT /ticket-tags/{ticketId}/{tagId}`: adds the tag to a ticket the caller may see; a kanban tag
 * first leaves the ticket's other lanes, in the same transaction. Adding it twice changes nothing.
 */
export async function addTicketTag(ctx: ServiceContext, ticketId: number, tagId: number): Promise<TicketTagReply> {
  await getTicket(ctx, ticketId);
  const tag = await findTag(ctx.db, ctx.companyId, tagId);
  await ctx.db.transaction(async (tx) => {
    await lockTicket(tx, ctx.companyId, ticketId);
    if (tag.kanban === 1) {
      await tx
        .delete(ticketTags)
        .where(
          and(
            eq(ticketTags.ticketId, ticketId),
            ne(ticketTags.tagId, tagId),
            inArray(ticketTags.tagId, kanbanTagIds(ctx.companyId)),
          ),
        );
    }
    await tx.insert(ticketTags).values({ ticketId, tagId }).onConflictDoNothing();
  });
  const state = await tagsOfTicket(ctx.db, ticketId);
  await announce(ctx, ticketId, state);
  return { ticketId, ...state };
}

/** `DELETE /ticket-tags/{ticketId}`: the ticket back to "Em aberto"; its other tags stay. */
export async function removeKanbanTags(ctx: ServiceContext, ticketId: number): Promise<TicketTagReply> {
  await getTicket(ctx, ticketId);
  await ctx.db.transaction(async (tx) => {
    await lockTicket(tx, ctx.companyId, ticketId);
    await tx
      .delete(ticketTags)
      .where(and(eq(ticketTags.ticketId, ticketId), inArray(ticketTags.tagId, kanbanTagIds(ctx.companyId))));
  });
  const state = await tagsOfTicket(ctx.db, ticketId);
  await announce(ctx, ticketId, state);
  return { ticketId, ...state };
}

/** Filter of one lane: a kanban tag's tickets, or those without any kanban tag ("Em aberto"). */
function laneFilter(companyId: number, q: KanbanQuery): SQL | undefined {
  if (q.tagId !== undefined) {
    return inArray(
      tickets.id,
      sql`(select ${ticketTags.ticketId} from ${ticketTags} where ${ticketTags.tagId} = ${q.tagId})`,
    );
  }
  if (q.lane === 'open') {
    return sql`not exists (select 1 from ${ticketTags} where ${ticketTags.ticketId} = ${tickets.id} and ${ticketTags.tagId} in ${kanbanTagIds(companyId)})`;
  }
  return undefined;
}

/**
 * `GET /ticket/kanban`: the open and pending tickets the caller may see (the tickets module's
 * visibility and `queueIds` rule), with their tags, most recent activity first, one page of the
 * board or of one lane.
 */
export async function kanbanTickets(ctx: ServiceContext, q: KanbanQuery) {
  if (q.tagId !== undefined) await findTag(ctx.db, ctx.companyId, q.tagId);
  const access = await ticketAccessOf(ctx.db, ctx);
  const where = companyTickets(
    ctx.companyId,
    inArray(tickets.status, ['open', 'pending']),
    queueScope(access, q.queueIds),
    laneFilter(ctx.companyId, q),
  );
  return ticketsPage(ctx.db, where, q.pageNumber);
}
