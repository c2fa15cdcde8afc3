import { companyEvent, type Ticket, type TicketEvent } from '@balcao/shared';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { contacts } from '../contacts/contacts.schema.js';
import { queues } from '../queues/queues.schema.js';
import { tags, ticketTags } from '../tags/tags.schema.js';
import { users } from '../users/users.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { ticketRooms } from './tickets.access.js';
import { tickets } from './tickets.schema.js';

const assignee = alias(users, 'assignee');

/** Tickets with contact, user, queue and connection in one query, tags in a second one. */
export async function selectTickets(
  db: Db,
  where: SQL | undefined,
  page?: { orderBy: SQL[]; limit: number; offset: number },
): Promise<Ticket[]> {
  let query = db
    .select({
      t: tickets,
      contact: {
        id: contacts.id,
        uuid: contacts.uuid,
        name: contacts.name,
        number: contacts.number,
        email: contacts.email,
        profilePicUrl: contacts.profilePicUrl,
        isGroup: contacts.isGroup,
      },
      userName: assignee.name,
      queueName: queues.name,
      queueColor: queues.color,
      whatsappName: whatsapps.name,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(assignee, eq(assignee.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(where)
    .$dynamic();
  if (page)
    query = query
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset);
  const rows = await query;
  if (rows.length === 0) return [];
  const tagRows = await db
    .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(
      inArray(
        ticketTags.ticketId,
        rows.map((r) => r.t.id),
      ),
    )
    .orderBy(asc(tags.name));
  return rows.map(({ t, contact, userName, queueName, queueColor, whatsappName }) => ({
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    useIntegration: t.useIntegration,
    integrationId: t.integrationId,
    promptId: t.promptId,
    contactId: t.contactId,
    whatsappId: t.whatsappId,
    userId: t.userId,
    queueId: t.queueId,
    contact,
    user: t.userId !== null && userName !== null ? { id: t.userId, name: userName } : null,
    queue:
      t.queueId !== null && queueName !== null ? { id: t.queueId, name: queueName, color: queueColor ?? '' } : null,
    whatsapp: { id: t.whatsappId, name: whatsappName },
    tags: tagRows.filter((g) => g.ticketId === t.id).map(({ id, name, color }) => ({ id, name, color })),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  }));
}

export async function selectTicket(db: Db, companyId: number, id: number): Promise<Ticket | undefined> {
  const [ticket] = await selectTickets(db, and(eq(tickets.id, id), eq(tickets.companyId, companyId)));
  return ticket;
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
