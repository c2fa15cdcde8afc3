import { z } from 'zod';
import { INT4, int4, intId, pageQuery } from './common.js';
import { ticketSchema } from './tickets.js';

/**
 * Kanban (DOMAIN §13, spec part 2 §7): lanes are the company's tags with `kanban=1`, plus the first
 * lane "Em aberto" (open/pending tickets without a kanban tag). A ticket sits in at most one lane.
 */

/** `PUT /ticket-tags/{ticketId}/{tagId}`. */
export const ticketTagParams = z.object({ ticketId: intId(), tagId: intId() });
/** `DELETE /ticket-tags/{ticketId}`. */
export const ticketTagTicketParam = z.object({ ticketId: intId() });

/**
 * What both ticket-tag writes answer and what `company-{id}-ticketTag` carries: the ticket's tags
 * after the change, and its lane (`null`: "Em aberto").
 */
export const ticketTagReply = z.object({
  ticketId: z.number(),
  tagIds: z.array(z.number()),
  laneTagId: z.number().nullable(),
});
export type TicketTagReply = z.infer<typeof ticketTagReply>;
/** Payload of `company-{id}-ticketTag`, sent to the ticket's audience (its `company-{id}-ticket` rooms). */
export type TicketTagEvent = { action: 'update' } & TicketTagReply;

const laneIds = z.array(int4({ min: 1, max: INT4.max })).max(500);
/** `queueIds` as the tickets list sends it (a JSON array), or a comma-separated list. */
const idList = z
  .string()
  .max(2000)
  .transform((s, ctx) => {
    const text = s.trim();
    let raw: unknown = [];
    try {
      raw = text.startsWith('[') ? JSON.parse(text) : text ? text.split(',') : [];
    } catch {
      raw = null;
    }
    const ids = laneIds.safeParse(raw);
    if (ids.success) return ids.data;
    ctx.addIssue({ code: 'custom', message: 'expected a list of ids' });
    return z.NEVER;
  });

/** The first lane's key in `GET /ticket/kanban?lane=open`. */
export const KANBAN_OPEN_LANE = 'open';

/**
 * `GET /ticket/kanban`: the open/pending tickets the caller may see, most recent activity first.
 * `tagId` pages one tag's lane, `lane=open` the "Em aberto" lane; neither pages the whole board.
 */
export const kanbanQuery = z.object({
  queueIds: idList.optional(),
  pageNumber: pageQuery.shape.pageNumber,
  tagId: intId().optional(),
  lane: z.literal(KANBAN_OPEN_LANE).optional(),
});
export type KanbanQuery = z.infer<typeof kanbanQuery>;
export const kanbanReply = z.object({ tickets: z.array(ticketSchema), count: z.number(), hasMore: z.boolean() });
export type KanbanReply = z.infer<typeof kanbanReply>;
