import type { TicketNote } from '@balcao/shared';
import { and, desc, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { getTicket } from '../tickets/tickets.service.js';
import { users } from '../users/users.schema.js';
import { ticketNotes } from './ticket-notes.schema.js';

async function noteRows(ctx: ServiceContext, where: ReturnType<typeof and>): Promise<TicketNote[]> {
  const rows = await ctx.db
    .select({
      id: ticketNotes.id,
      note: ticketNotes.note,
      ticketId: ticketNotes.ticketId,
      contactId: ticketNotes.contactId,
      userId: ticketNotes.userId,
      userName: users.name,
      createdAt: ticketNotes.createdAt,
    })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(where)
    .orderBy(desc(ticketNotes.createdAt))
    .limit(200);
  return rows.map(({ userId, userName, ...r }) => ({
    ...r,
    user: userId !== null && userName !== null ? { id: userId, name: userName } : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Notes about a contact (optionally only one ticket's), readable by whoever may see that ticket. */
export async function listNotes(ctx: ServiceContext, q: { contactId: number; ticketId?: number }) {
  if (q.ticketId) await getTicket(ctx, q.ticketId);
  else if (!isAdmin(ctx)) throw new AppError('ERR_NO_PERMISSION');
  return noteRows(
    ctx,
    and(
      eq(ticketNotes.companyId, ctx.companyId),
      eq(ticketNotes.contactId, q.contactId),
      q.ticketId ? eq(ticketNotes.ticketId, q.ticketId) : undefined,
    ),
  );
}

export async function createNote(
  ctx: ServiceContext,
  input: { note: string; ticketId: number; contactId: number },
): Promise<TicketNote> {
  const ticket = await getTicket(ctx, input.ticketId);
  if (ticket.contactId !== input.contactId) throw new AppError('ERR_NO_CONTACT_FOUND');
  const [row] = await ctx.db
    .insert(ticketNotes)
    .values({ ...input, companyId: ctx.companyId, userId: ctx.userId })
    .returning({ id: ticketNotes.id });
  const [note] = await noteRows(ctx, and(eq(ticketNotes.id, row.id)));
  return note;
}

export async function deleteNote(ctx: ServiceContext, id: number): Promise<void> {
  const [row] = await ctx.db
    .select({ ticketId: ticketNotes.ticketId, userId: ticketNotes.userId })
    .from(ticketNotes)
    .where(and(eq(ticketNotes.id, id), eq(ticketNotes.companyId, ctx.companyId)));
  if (!row) throw new AppError('ERR_NO_NOTE_FOUND');
  await getTicket(ctx, row.ticketId);
  if (row.userId !== ctx.userId && !isAdmin(ctx)) throw new AppError('ERR_NO_PERMISSION');
  await ctx.db.delete(ticketNotes).where(eq(ticketNotes.id, id));
}
