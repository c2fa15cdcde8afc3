import { and, eq } from 'drizzle-orm';
import type { Revision } from '../channels/channel.js';
import type { Db } from '../db/client.js';
import { messages } from '../modules/messages/messages.schema.js';
import { emitMessage, viewMessages } from '../modules/messages/messages.view.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import { withoutNul } from '../platform/untrusted-text.js';

/**
 * A contact deleted (for everyone) or edited a message: the stored message follows, found by its
 * provider id on this connection, and the chat gets the same `appMessage` update as any other
 * change. A revision of a message we never stored, or an edit of a deleted one, changes nothing.
 */
export async function handleRevision(deps: { db: Db; realtime: Realtime }, received: Revision): Promise<boolean> {
  // Like a new message, an edit from WhatsApp is kept without its NUL characters.
  const r = withoutNul(received);
  const same = and(
    eq(messages.companyId, r.companyId),
    eq(messages.whatsappId, r.whatsappId),
    eq(messages.providerId, r.providerId),
  );
  const [row] =
    r.kind === 'delete'
      ? await deps.db.update(messages).set({ isDeleted: true }).where(same).returning()
      : await deps.db
          .update(messages)
          .set({ isEdited: true, body: r.body ?? '' })
          .where(and(same, eq(messages.isDeleted, false)))
          .returning();
  if (!row) return false;
  const ticket = await selectTicket(deps.db, r.companyId, row.ticketId);
  if (!ticket) return true;
  const [message] = await viewMessages(deps.db, [row], [ticket.contact]);
  if (message) emitMessage(deps.realtime, r.companyId, ticket, 'update', message);
  return true;
}
