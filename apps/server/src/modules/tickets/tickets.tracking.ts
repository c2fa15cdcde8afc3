import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { tickets, ticketTraking } from './tickets.schema.js';

type Tx = Db;

/**
 * Whole seconds from `from` to `at`, an epoch difference written with the transition (DOMAIN §9), so
 * that the dashboard averages stored integers instead of subtracting timestamps row by row. Null
 * while `from` is.
 */
const secondsSince = (from: AnyPgColumn, at: Date | SQL): SQL<number | null> =>
  sql`round(extract(epoch from (${at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at} - ${from})))::int`;

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
    waitSeconds: t.started ? 0 : null,
  });
}

async function currentCycle(tx: Tx, ticketId: number) {
  const [row] = await tx
    .select({ id: ticketTraking.id })
    .from(ticketTraking)
    .where(and(eq(ticketTraking.ticketId, ticketId), isNull(ticketTraking.finishedAt)))
    .orderBy(desc(ticketTraking.id))
    .limit(1);
  return row;
}

/** Accepted by a user: the first acceptance of the cycle sets `startedAt` and the wait. */
export async function startCycle(
  tx: Tx,
  t: { companyId: number; ticketId: number; whatsappId: number; userId: number },
) {
  const cycle = await currentCycle(tx, t.ticketId);
  if (!cycle) return openCycle(tx, { ...t, started: true });
  const now = new Date();
  await tx
    .update(ticketTraking)
    .set({
      userId: t.userId,
      startedAt: sql`coalesce(${ticketTraking.startedAt}, ${now.toISOString()}::timestamptz)`,
      waitSeconds: sql`coalesce(${ticketTraking.waitSeconds}, ${secondsSince(ticketTraking.queuedAt, now)})`,
    })
    .where(eq(ticketTraking.id, cycle.id));
}

/** Closed: the support time runs from the acceptance (none when the ticket was closed unaccepted). */
export async function finishCycle(tx: Tx, ticketId: number, userId: number | null) {
  const cycle = await currentCycle(tx, ticketId);
  if (!cycle) return;
  const now = new Date();
  await tx
    .update(ticketTraking)
    .set({ finishedAt: now, userId, supportSeconds: secondsSince(ticketTraking.startedAt, now) })
    .where(eq(ticketTraking.id, cycle.id));
}

/**
 * The statement that marks an agent's message on these tickets: the first of the open cycle sets
 * `firstReplyAt` and the response time (set once, so later replies and a retried send never move
 * it; automatic messages are not replies). Unsent: the caller runs it inside a statement of its own
 * (a data-modifying CTE), whose query shape holds the tickets (an `int[]`) and the time (a
 * `timestamptz`).
 */
export function firstReplyOf(tx: Tx, ticketIds: SQL, at: SQL) {
  return tx
    .update(ticketTraking)
    .set({ firstReplyAt: at, firstReplySeconds: secondsSince(ticketTraking.queuedAt, at) })
    .where(
      and(
        sql`${ticketTraking.ticketId} = any(${ticketIds})`,
        isNull(ticketTraking.finishedAt),
        isNull(ticketTraking.firstReplyAt),
      ),
    )
    .returning({ id: ticketTraking.id });
}

/** Given to another queue or user within the cycle: counted, with the time of the last transfer. */
export async function transferCycle(tx: Tx, ticketId: number) {
  const cycle = await currentCycle(tx, ticketId);
  if (cycle)
    await tx
      .update(ticketTraking)
      .set({ transfers: sql`${ticketTraking.transfers} + 1`, transferredAt: new Date() })
      .where(eq(ticketTraking.id, cycle.id));
}

/** A ticket whose contact has no other ticket: its opening cycle is a lead (DOMAIN §9). */
export const isLead = (ticketId: SQL, contactId: SQL): SQL =>
  sql`not exists (select 1 from ${tickets} other where other.contact_id = ${contactId} and other.id <> ${ticketId})`;

/**
 * New tickets whose contact never had another one: their opening cycle is a lead (DOMAIN §9), so the
 * dashboard counts leads within the period instead of searching each contact's history.
 */
export async function markLeads(tx: Tx, ticketIds: number[]) {
  if (!ticketIds.length) return;
  await tx
    .update(ticketTraking)
    .set({ lead: true })
    .where(
      and(
        inArray(ticketTraking.ticketId, ticketIds),
        sql`exists (select 1 from ${tickets} t where t.id = ${ticketTraking.ticketId} and ${isLead(sql`t.id`, sql`t.contact_id`)})`,
      ),
    );
}
