import { z } from 'zod';
import { int4, intId, pageQuery, updateOf } from './common.js';

export const tagSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.number(),
  ticketsCount: z.number().optional(),
  /** `GET /tags?includeTickets=true`: the open and pending tickets carrying the tag that the caller may see. */
  tickets: z.array(z.object({ id: z.number(), uuid: z.string(), status: z.string() })).optional(),
  /** `GET /tags?includeTicketTag=true`: the same tickets as (ticket, tag) pairs. */
  ticketTags: z.array(z.object({ ticketId: z.number(), tagId: z.number() })).optional(),
});
export type Tag = z.infer<typeof tagSchema>;

export const tagInput = z.object({
  name: z.string().trim().min(3, 'Mensagem muito curta').max(50, 'Muito longo!'),
  color: z.string().trim().min(3).max(9).default('#5C59A0'),
  kanban: int4({ min: 0, max: 1 }).default(0),
});
export const tagUpdate = updateOf(tagInput);
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');
/** Spec part 2 §7 `GET /tags (searchParam, pageNumber, includeTickets, includeTicketTag)`. */
export const tagsListQuery = pageQuery.extend({ includeTickets: flag.optional(), includeTicketTag: flag.optional() });
export const tagsListReply = z.object({ tags: z.array(tagSchema), count: z.number(), hasMore: z.boolean() });
/** `GET /tags/kanban`: the kanban lanes, under the spec's key `lista`. */
export const tagsKanbanReply = z.object({ lista: z.array(tagSchema) });
export const tagsSyncInput = z.object({
  ticketId: intId(),
  tags: z.array(z.object({ id: intId() }).passthrough()).max(100),
});
