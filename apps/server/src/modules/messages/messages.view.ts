import { companyEvent, type Message } from '@balcao/shared';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { contacts } from '../contacts/contacts.schema.js';
import { ticketRooms } from '../tickets/tickets.access.js';
import { messages } from './messages.schema.js';

type Row = typeof messages.$inferSelect;

export const mediaUrlOf = (key: string | null) => (key ? `/media/${key}` : null);

/**
 * Messages in the API shape, with their contacts and quoted messages fetched in two queries;
 * contacts the caller already holds (`known`) are not fetched again.
 */
export async function viewMessages(
  db: Db,
  rows: Row[],
  known: { id: number; name: string }[] = [],
): Promise<Message[]> {
  if (rows.length === 0) return [];
  const quotedIds = [...new Set(rows.map((r) => r.quotedMsgId).filter((id): id is number => id !== null))];
  const quoted = quotedIds.length ? await db.select().from(messages).where(inArray(messages.id, quotedIds)) : [];
  const contactIds = [
    ...new Set([...rows, ...quoted].map((r) => r.contactId).filter((id): id is number => id !== null)),
  ];
  const missing = contactIds.filter((id) => !known.some((k) => k.id === id));
  const fetched = missing.length
    ? await db.select({ id: contacts.id, name: contacts.name }).from(contacts).where(inArray(contacts.id, missing))
    : [];
  const people = [...known, ...fetched];
  const contactOf = (id: number | null) => people.find((p) => p.id === id) ?? null;
  return rows.map((r) => {
    const q = quoted.find((m) => m.id === r.quotedMsgId);
    return {
      id: r.id,
      ticketId: r.ticketId,
      body: r.isDeleted ? '' : r.body,
      fromMe: r.fromMe,
      mediaType: r.mediaType,
      mediaUrl: r.isDeleted ? null : mediaUrlOf(r.mediaKey),
      mediaName: r.mediaName,
      isDeleted: r.isDeleted,
      isEdited: r.isEdited,
      ack: r.ack,
      read: r.read,
      participant: r.participant,
      sendStatus: r.sendStatus,
      sendError: r.sendError,
      quotedMsg: q
        ? {
            id: q.id,
            body: q.isDeleted ? '' : q.body,
            fromMe: q.fromMe,
            mediaType: q.mediaType,
            mediaUrl: q.isDeleted ? null : mediaUrlOf(q.mediaKey),
            isDeleted: q.isDeleted,
            contact: contactOf(q.contactId),
          }
        : null,
      contact: contactOf(r.contactId),
      transcript: r.isDeleted ? null : r.transcript,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

export async function viewMessage(db: Db, id: number): Promise<Message | undefined> {
  const rows = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  const [message] = await viewMessages(db, rows);
  return message;
}

/** `appMessage` events go to the same rooms as the ticket's own events. */
export function emitMessage(
  realtime: Realtime,
  companyId: number,
  ticket: { id: number; queueId: number | null; userId: number | null; status?: string },
  action: 'create' | 'update',
  message: Message,
  extra: Record<string, unknown> = {},
) {
  realtime.toRooms(ticketRooms(companyId, ticket), companyEvent.appMessage(companyId), { action, message, ...extra });
}
