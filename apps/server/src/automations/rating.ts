import { isRatingAnswer } from '@balcao/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { getSetting } from '../modules/settings/settings.service.js';
import { tickets, ticketTraking, userRatings } from '../modules/tickets/tickets.schema.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import { whatsappRow } from '../modules/whatsapp/whatsapp.service.js';
import { inboundContext } from './context.js';
import type { InboundStep } from './index.js';
import { joinParts, type SayDeps, say } from './say.js';
import type { AutomationTicket } from './send-automatic.js';

/**
 * Closing with a rating (DOMAIN §4). A ticket resolved by an agent with setting `userRating`
 * enabled (not a group) stays `closed` with `awaitingRating=true` after the connection's
 * `ratingMessage` and the 1–5 prompt; the contact's 1–5 answer is recorded here, any other answer
 * reopens the ticket in the inbound pipeline (see `isRatingAnswer`).
 */

export const RATING_PROMPT = [
  'Avalie nosso atendimento com uma nota de 1 a 5:',
  '*[ 1 ]* - Muito insatisfeito',
  '*[ 2 ]* - Insatisfeito',
  '*[ 3 ]* - Regular',
  '*[ 4 ]* - Satisfeito',
  '*[ 5 ]* - Muito satisfeito',
].join('\n');

/** After an agent closed the ticket: the rating prompt, or the completion message. */
export async function afterClose(deps: SayDeps, ticket: AutomationTicket): Promise<void> {
  const connection = await whatsappRow(deps.db, ticket.companyId, ticket.whatsappId);
  if (!ticket.isGroup && (await getSetting(deps.db, ticket.companyId, 'userRating')) === 'enabled') {
    // Flagged before the prompt leaves, so a quick answer finds the ticket waiting.
    const [waiting] = await deps.db
      .update(tickets)
      .set({ awaitingRating: true })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.status, 'closed')))
      .returning({ id: tickets.id });
    if (waiting) await say(deps, ticket, joinParts(connection.ratingMessage, RATING_PROMPT));
    return;
  }
  await say(deps, ticket, connection.complationMessage);
}

/** Records the rating once: the first answer to clear `awaitingRating` wins. */
async function recordRating(db: Db, companyId: number, ticketId: number, rate: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(tickets)
      .set({ awaitingRating: false })
      .where(
        and(
          eq(tickets.id, ticketId),
          eq(tickets.companyId, companyId),
          eq(tickets.status, 'closed'),
          eq(tickets.awaitingRating, true),
        ),
      )
      .returning({ userId: tickets.userId });
    if (!claimed) return false;
    await tx.insert(userRatings).values({ companyId, ticketId, userId: claimed.userId, rate });
    const [cycle] = await tx
      .select({ id: ticketTraking.id })
      .from(ticketTraking)
      .where(eq(ticketTraking.ticketId, ticketId))
      .orderBy(desc(ticketTraking.id))
      .limit(1);
    if (cycle)
      await tx.update(ticketTraking).set({ ratingAt: new Date(), rated: true }).where(eq(ticketTraking.id, cycle.id));
    return true;
  });
}

/** First inbound step: the contact's 1–5 answer to a pending rating, on the still-closed ticket. */
export const runRatingAnswer: InboundStep = async (deps, stored, ctx = inboundContext(deps, stored)) => {
  if (stored.fromMe || stored.ticketOpened) return;
  const state = await ctx.ticket(stored);
  if (state?.status !== 'closed' || !state.awaitingRating) return;
  const body = await ctx.body(stored);
  if (body === undefined || !isRatingAnswer(body)) return;
  if (!(await recordRating(deps.db, stored.companyId, stored.ticketId, Number(body.trim())))) return 'handled';
  const view = await selectTicket(deps.db, stored.companyId, stored.ticketId);
  if (!view) return 'handled';
  const connection = await ctx.connection(stored.companyId, stored.whatsappId);
  await say(deps, { ...view, companyId: stored.companyId }, connection.complationMessage);
  return 'handled';
};
