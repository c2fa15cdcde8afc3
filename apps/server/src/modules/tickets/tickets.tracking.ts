import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { ticketTraking } from './tickets.schema.js';

type Tx = Db;

/** A new service cycle: the ticket entered the queue (inbound or created). */
export async function openCycle(
  tx: Tx,
  t: { companyId: number; ticketId: number; whatsappId: number; userId?: number | null; started?: boolean },
) {
  const now = new Date();
  await tx.insert(ticketTraking).values({
    companyId: t.companyId,
    ticketId: t.ticketId,
    whatsappId: t.whatsappId,
    userId: t.userId ?? null,
    queuedAt: now,
    startedAt: t.started ? now : null,
  });
}

async function currentCycle(tx: Tx, ticketId: number) {
  const [row] = await tx
    .select({ id: ticketTraking.id, startedAt: ticketTraking.startedAt })
    .from(ticketTraking)
    .where(and(eq(ticketTraking.ticketId, ticketId), isNull(ticketTraking.finishedAt)))
    .orderBy(desc(ticketTraking.id))
    .limit(1);
  return row;
}

/** Accepted by a user: the first acceptance of the cycle sets `startedAt`. */
export async function startCycle(
  tx: Tx,
  t: { companyId: number; ticketId: number; whatsappId: number; userId: number },
) {
  const cycle = await currentCycle(tx, t.ticketId);
  if (!cycle) return openCycle(tx, { ...t, started: true });
  await tx
    .update(ticketTraking)
    .set({ userId: t.userId, startedAt: cycle.startedAt ?? new Date() })
    .where(eq(ticketTraking.id, cycle.id));
}

export async function finishCycle(tx: Tx, ticketId: number, userId: number | null) {
  const cycle = await currentCycle(tx, ticketId);
  if (cycle)
    await tx.update(ticketTraking).set({ finishedAt: new Date(), userId }).where(eq(ticketTraking.id, cycle.id));
}
