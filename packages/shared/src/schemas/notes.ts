import { z } from 'zod';
import { intId, pageQuery, updateOf } from './common.js';

export const ticketNoteSchema = z.object({
  id: z.number(),
  note: z.string(),
  ticketId: z.number(),
  contactId: z.number(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type TicketNote = z.infer<typeof ticketNoteSchema>;

export const ticketNoteInput = z.object({
  note: z.string().trim().min(2, 'Muito curto!').max(5000, 'Muito longo!'),
  ticketId: intId(),
  contactId: intId(),
});
export const ticketNotesQuery = z.object({
  ticketId: intId().optional(),
  contactId: intId(),
});

export const quickMessageSchema = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  userId: z.number().nullable(),
  isMedia: z.boolean(),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
});
export type QuickMessage = z.infer<typeof quickMessageSchema>;
export const quickMessageInput = z.object({
  shortcode: z.string().trim().min(1, 'Obrigatório').max(100, 'Muito longo!'),
  message: z.string().trim().min(1, 'Obrigatório').max(4000, 'Muito longo!'),
  geral: z.boolean().default(true),
});
export const quickMessageUpdate = updateOf(quickMessageInput);
export const quickMessagesListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: pageQuery.shape.pageNumber,
});
export const quickMessagesListReply = z.object({
  records: z.array(quickMessageSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
