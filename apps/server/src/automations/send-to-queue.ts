import { and, eq, exists, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { queues } from '../modules/queues/queues.schema.js';
import { tickets, ticketTraking } from '../modules/tickets/tickets.schema.js';
import { emitTicket, selectTicket } from '../modules/tickets/tickets.view.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import type { SayDeps } from './say.js';

export const SEND_TO_QUEUE = 'tickets.send-to-queue';

type MoveDeps = Pick<SayDeps, 'db' | 'realtime'>;

// Waiting since its latest cycle's queuedAt (when it became pending); updatedAt/lastMessageAt move with every message.
const waitingSince = sql`coalesce((select ${ticketTraking.queuedAt} from ${ticketTraking} where ${ticketTraking.ticketId} = ${tickets.id} order by ${ticketTraking.id} desc limit 1), ${tickets.createdAt})`;

/** Pending, no queue, no user: still waiting for the menu or a human. */
const unassigned = (): SQL =>
  and(eq(tickets.status, 'pending'), isNull(tickets.queueId), isNull(tickets.userId)) as SQL;

/** The waiting tickets due at `at`, for all companies, with the queue each one goes to. */
export function dueTickets(db: Db, at: string) {
  return db
    .select({ id: tickets.id, companyId: tickets.companyId, queueId: queues.id, minutes: whatsapps.timeSendQueue })
    .from(whatsapps)
    .innerJoin(queues, and(eq(queues.id, whatsapps.sendIdQueue), eq(queues.companyId, whatsapps.companyId)))
    .innerJoin(tickets, and(eq(tickets.companyId, whatsapps.companyId), eq(tickets.whatsappId, whatsapps.id)))
    .where(
      and(
        gt(whatsapps.timeSendQueue, 0),
        unassigned(),
        eq(tickets.isGroup, false),
        sql`${waitingSince} < ${at}::timestamptz - ${whatsapps.timeSendQueue} * interval '1 minute'`,
      ),
    );
}

/**
 * A connection's `timeSendQueue` (minutes, 0 = off) moves its pending, non-group tickets without a
 * queue or user, waiting longer than that, to its `sendIdQueue` — only when that queue exists and
 * belongs to the connection's company. For all companies in one select; each ticket is claimed by a
 * conditional update, so a second (or concurrent) run moves nothing twice.
 */
export async function sendWaitingToQueue(deps: MoveDeps, now = new Date()): Promise<number> {
  const due = await dueTickets(deps.db, now.toISOString());
  let moved = 0;
  for (const t of due) {
    const cutoff = new Date(now.getTime() - t.minutes * 60_000).toISOString();
    const [row] = await deps.db
      .update(tickets)
      .set({ queueId: t.queueId, chatbot: false, amountUsedBotQueues: 0 })
      // The same conditions again: an agent, the menu or a new cycle may have changed it since the
      // select, and the queue may have been deleted.
      .where(
        and(
          eq(tickets.id, t.id),
          unassigned(),
          sql`${waitingSince} < ${cutoff}::timestamptz`,
          exists(
            deps.db
              .select({ one: sql`1` })
              .from(queues)
              .where(and(eq(queues.id, t.queueId), eq(queues.companyId, t.companyId))),
          ),
        ),
      )
      .returning({ id: tickets.id });
    if (!row) continue;
    moved++;
    const view = await selectTicket(deps.db, t.companyId, t.id);
    if (view) emitTicket(deps.realtime, t.companyId, view, { queueId: null, userId: null });
  }
  return moved;
}

/** Every minute, for all companies. */
export function registerSendToQueue(deps: MoveDeps, jobs: Jobs): Promise<void> {
  return jobs.schedule(SEND_TO_QUEUE, '* * * * *', async () => {
    await sendWaitingToQueue(deps);
  });
}
