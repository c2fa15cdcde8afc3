import { z } from 'zod';
import { int4, intId, pageQuery } from './common.js';
import { contactSchema } from './contacts.js';
import { tagSchema } from './tags.js';
import { queueRef } from './users.js';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const ticketSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.enum(TICKET_STATUSES),
  lastMessage: z.string(),
  unreadMessages: z.number(),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  useIntegration: z.boolean(),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
  contactId: z.number(),
  whatsappId: z.number(),
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  contact: contactSchema.pick({
    id: true,
    name: true,
    number: true,
    email: true,
    profilePicUrl: true,
    isGroup: true,
    uuid: true,
  }),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queue: queueRef.nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }),
  tags: z.array(tagSchema.pick({ id: true, name: true, color: true })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

const idArray = z.array(int4());
/** `queueIds`, `tags` and `users` arrive JSON-encoded in the query string (spec §7). */
const jsonIds = z
  .string()
  .max(2000)
  .transform((s, ctx) => {
    try {
      const ids = idArray.safeParse(JSON.parse(s));
      if (ids.success) return ids.data;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'expected a JSON array of ids' });
    return z.NEVER;
  });
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const ticketsListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: pageQuery.shape.pageNumber,
  status: z.enum(TICKET_STATUSES).optional(),
  showAll: flag.optional(),
  withUnreadMessages: flag.optional(),
  queueIds: jsonIds.optional(),
  tags: jsonIds.optional(),
  users: jsonIds.optional(),
  /** Tickets created on this day (yyyy-mm-dd). */
  date: z.iso.date().optional(),
  /** Tickets updated on this day (yyyy-mm-dd). */
  updatedAt: z.iso.date().optional(),
});
export type TicketsListQuery = z.infer<typeof ticketsListQuery>;
export const ticketsListReply = z.object({ tickets: z.array(ticketSchema), count: z.number(), hasMore: z.boolean() });

export const ticketCreate = z.object({
  contactId: intId(),
  queueId: intId().nullable().optional(),
  whatsappId: intId().nullable().optional(),
  userId: intId().nullable().optional(),
  status: z.enum(TICKET_STATUSES).default('open'),
});
export type TicketCreate = z.infer<typeof ticketCreate>;

export const ticketUpdate = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: intId().nullable().optional(),
  queueId: intId().nullable().optional(),
  whatsappId: intId().nullable().optional(),
  useIntegration: z.boolean().optional(),
  promptId: z
    .union([intId(), z.literal(false)])
    .nullable()
    .optional(),
  integrationId: z
    .union([intId(), z.literal(false)])
    .nullable()
    .optional(),
});
export type TicketUpdate = z.infer<typeof ticketUpdate>;

/** Body of ERR_OTHER_OPEN_TICKET (spec §4): who holds the contact's open ticket. */
export interface OtherOpenTicketBody {
  error: 'ERR_OTHER_OPEN_TICKET';
  message: string;
  ticketId: number;
  ticketUuid: string;
  userId: number | null;
  userName: string | null;
  queueName: string | null;
}

export interface TicketEvent {
  action: 'update' | 'delete' | 'updateUnread';
  ticket?: Ticket;
  ticketId?: number;
  /** Set when this update handed the ticket to another user than the one who made it: that user is alerted. */
  transferredTo?: number;
}
