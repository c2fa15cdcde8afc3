import { companyEvent, type KanbanQuery, type TicketTagEvent, type TicketTagReply } from '@balcao/shared';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { QueryShape } from '../../db/query-shape.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { tags, ticketTags } from '../tags/tags.schema.js';
import { findTag, refreshLanes } from '../tags/tags.service.js';
import { companyKeys, type KeyFilter, type TicketKey, ticketAccessOf, ticketRooms } from '../tickets/tickets.access.js';
import { ticketCounts, tickets } from '../tickets/tickets.schema.js';
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
  // The lane refreshLanes writes: the lowest kanban tag id.
  const lanes = rows.filter((r) => r.kanban === 1).map((r) => r.id);
  return { tagIds: rows.map((r) => r.id), laneTagId: lanes.length ? Math.min(...lanes) : null };
}

/**
 * After the commit: `company-{id}-ticketTag` `{action: 'update', ticketId, tagIds, laneTagId}` to the
 * ticket's audience (the rooms of `company-{id}-ticket`), and the ticket itself so that ticket lists
 * show its new tags.
 */
async function announce(ctx: ServiceContext, ticketId: number, state: Omit<TicketTagReply, 'ticketId'>) {
  const ticket = await selectTicket(ctx.db, ctx.companyId, ticketId);
  if (!ticket) return undefined;
  const event: TicketTagEvent = { action: 'update', ticketId, ...state };
  ctx.realtime.toRooms(ticketRooms(ctx.companyId, ticket), companyEvent.ticketTag(ctx.companyId), event);
  emitTicket(ctx.realtime, ctx.companyId, ticket);
  return ticket;
}

/**
 * `POST /tags/sync`: the ticket's tags become exactly `tagIds`, except that a ticket sits in one lane:
 * of several kanban tags named, the last one the ticket did not have wins (the picker's newest
 * choice), else the one it has stays.
 */
export async function syncTicketTags(ctx: ServiceContext, ticketId: number, tagIds: number[]) {
  await getTicket(ctx, ticketId);
  const named = [...new Set(tagIds)];
  await assertOwned(ctx.db, tags, ctx.companyId, named, 'ERR_NO_TAG_FOUND');
  await ctx.db.transaction(async (tx) => {
    await lockTicket(tx, ctx.companyId, ticketId);
    const { laneTagId } = await tagsOfTicket(tx, ticketId);
    const lanes = new Set(
      named.length
        ? (
            await tx
              .select({ id: tags.id })
              .from(tags)
              .where(and(inArray(tags.id, named), eq(tags.kanban, 1)))
          ).map((r) => r.id)
        : [],
    );
    const lane = named.filter((id) => lanes.has(id) && id !== laneTagId).at(-1) ?? laneTagId;
    const kept = named.filter((id) => !lanes.has(id) || id === lane);
    await tx.delete(ticketTags).where(eq(ticketTags.ticketId, ticketId));
    if (kept.length) await tx.insert(ticketTags).values(kept.map((tagId) => ({ ticketId, tagId })));
    await refreshLanes(tx, eq(tickets.id, ticketId));
  });
  const ticket = await announce(ctx, ticketId, await tagsOfTicket(ctx.db, ticketId));
  return ticket?.tags ?? [];
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
    await refreshLanes(tx, eq(tickets.id, ticketId));
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
    await refreshLanes(tx, eq(tickets.id, ticketId));
  });
  const state = await tagsOfTicket(ctx.db, ticketId);
  await announce(ctx, ticketId, state);
  return { ticketId, ...state };
}

/** Filter of one lane: a kanban tag's tickets, or those without a lane ("Em aberto"), by `tickets.lane_tag_id`. */
function laneFilter(q: KanbanQuery, shape: QueryShape): KeyFilter {
  if (q.tagId !== undefined) {
    shape.choose('lane');
    const tagId = shape.unseen('tagId', q.tagId, 'int');
    return (t) => eq(t.laneTagId, tagId);
  }
  if (q.lane === 'open') {
    shape.choose('lane:open');
    return (t) => isNull(t.laneTagId);
  }
  shape.choose('board');
  return () => undefined;
}

/**
 * `GET /ticket/kanban`: the open and pending tickets the caller may see (the tickets module's
 * visibility and `queueIds` rule), with their tags, most recent activity first, one page of the
 * board or of one lane. A lane's page walks `tickets_company_lane_idx` (the whole board's,
 * `tickets_company_active_updated_idx`) and stops after a page; its count sums `ticket_counts`.
 */
export async function kanbanTickets(ctx: ServiceContext, q: KanbanQuery) {
  const [access] = await Promise.all([
    ticketAccessOf(ctx.db, ctx),
    q.tagId !== undefined ? findTag(ctx.db, ctx.companyId, q.tagId) : undefined,
  ]);
  const shape = QueryShape.bound();
  const companyId = shape.unseen('companyId', ctx.companyId, 'int');
  const onKey = [queueScope(access, q.queueIds, shape), laneFilter(q, shape)];
  // The active statuses in the text, as the partial indexes state them: a generic plan can use them.
  const on = (t: TicketKey) => companyKeys(t, companyId, onKey, sql`${t.status} in ('open', 'pending')`);
  return ticketsPage(ctx.db, { where: on(tickets), ctes: [], shape, counted: on(ticketCounts) }, q.pageNumber);
}
