import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { finishCycle } from '../modules/tickets/tickets.tracking.js';
import { emitTicket, selectTicket } from '../modules/tickets/tickets.view.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import { type SayDeps, say } from './say.js';

export const EXPIRY_QUEUE = 'tickets.inactivity-expiry';

/**
 * Inactivity expiry (DOMAIN §4), for every company: a connection's `expiresTicket` (minutes,
 * 0 = off) closes its open, non-group tickets whose last message was ours and is older than
 * that, with the connection's `expiresInactiveMessage`. Idempotent: each ticket is claimed by a
 * conditional update, so a second run (or a concurrent one) closes nothing twice.
 */
export async function expireInactiveTickets(deps: SayDeps, now = new Date()): Promise<number> {
  const at = now.toISOString();
  const due = await deps.db
    .select({
      id: tickets.id,
      companyId: tickets.companyId,
      userId: tickets.userId,
      queueId: tickets.queueId,
      minutes: whatsapps.expiresTicket,
      message: whatsapps.expiresInactiveMessage,
    })
    .from(tickets)
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(
      and(
        gt(whatsapps.expiresTicket, 0),
        eq(tickets.status, 'open'),
        eq(tickets.isGroup, false),
        eq(tickets.lastFromMe, true),
        sql`${tickets.lastMessageAt} < ${at}::timestamptz - ${whatsapps.expiresTicket} * interval '1 minute'`,
      ),
    );
  let closed = 0;
  for (const t of due) {
    const cutoff = new Date(now.getTime() - t.minutes * 60_000);
    const claimed = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(tickets)
        .set({
          status: 'closed',
          useIntegration: false,
          integrationId: null,
          promptId: null,
          chatbot: false,
          awaitingRating: false,
        })
        // The same conditions again: the contact may have written since the select.
        .where(
          and(
            eq(tickets.id, t.id),
            eq(tickets.status, 'open'),
            eq(tickets.lastFromMe, true),
            lt(tickets.lastMessageAt, cutoff),
          ),
        )
        .returning({ id: tickets.id });
      if (row) await finishCycle(tx as unknown as Db, t.id, t.userId);
      return Boolean(row);
    });
    if (!claimed) continue;
    closed++;
    const view = await selectTicket(deps.db, t.companyId, t.id);
    if (!view) continue;
    emitTicket(deps.realtime, t.companyId, view, { queueId: t.queueId, userId: t.userId });
    await say(deps, { ...view, companyId: t.companyId }, t.message);
  }
  return closed;
}

/** Every minute, for all companies. */
export function registerTicketExpiry(deps: SayDeps, jobs: Jobs): Promise<void> {
  return jobs.schedule(EXPIRY_QUEUE, '* * * * *', async () => {
    await expireInactiveTickets(deps);
  });
}
