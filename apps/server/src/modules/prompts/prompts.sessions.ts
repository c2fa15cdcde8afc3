import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { promptSessions } from './prompts.schema.js';

export type PromptSession = typeof promptSessions.$inferSelect;

/**
 * The assistant's state for the ticket's current cycle: created with the cycle's first message the
 * assistant sees, started afresh when the ticket begins a new cycle (closed and reopened).
 */
export async function openSession(
  db: Db,
  s: { companyId: number; ticketId: number; cycleId: number; messageId: number },
): Promise<PromptSession> {
  const fresh = {
    companyId: s.companyId,
    cycleId: s.cycleId,
    sinceMessageId: s.messageId,
    answeredUpTo: 0,
    handedOffAt: null,
    handoffReason: null,
    busyUntil: null,
  };
  const [row] = await db
    .insert(promptSessions)
    .values({ ticketId: s.ticketId, ...fresh })
    .onConflictDoUpdate({
      target: promptSessions.ticketId,
      set: fresh,
      setWhere: sql`${promptSessions.cycleId} <> ${s.cycleId}`,
    })
    .returning();
  if (row) return row;
  const [current] = await db.select().from(promptSessions).where(eq(promptSessions.ticketId, s.ticketId));
  return current;
}

/**
 * Takes the ticket's turn: one AI turn at a time per ticket, across instances. A lease, not a lock,
 * so a turn whose instance died gives the ticket back once it runs out. 'busy': another turn holds
 * it; 'missing': the ticket (or its company's session) is gone.
 */
export async function claimTurn(
  db: Db,
  companyId: number,
  ticketId: number,
  leaseMs: number,
): Promise<PromptSession | 'busy' | 'missing'> {
  const mine = and(eq(promptSessions.ticketId, ticketId), eq(promptSessions.companyId, companyId));
  const [row] = await db
    .update(promptSessions)
    .set({ busyUntil: new Date(Date.now() + leaseMs) })
    .where(and(mine, or(isNull(promptSessions.busyUntil), lt(promptSessions.busyUntil, new Date()))))
    .returning();
  if (row) return row;
  const [exists] = await db.select({ ticketId: promptSessions.ticketId }).from(promptSessions).where(mine);
  return exists ? 'busy' : 'missing';
}

export async function releaseTurn(db: Db, ticketId: number): Promise<void> {
  await db.update(promptSessions).set({ busyUntil: null }).where(eq(promptSessions.ticketId, ticketId));
}

/** The contact's messages up to `messageId` are answered. */
export async function markAnswered(db: Db, ticketId: number, messageId: number): Promise<void> {
  await db
    .update(promptSessions)
    .set({ answeredUpTo: sql`greatest(${promptSessions.answeredUpTo}, ${messageId})` })
    .where(eq(promptSessions.ticketId, ticketId));
}

/** The assistant handed the ticket to people: it stays silent for the rest of the cycle. */
export async function markHandedOff(db: Db, ticketId: number, reason: string): Promise<void> {
  await db
    .update(promptSessions)
    .set({ handedOffAt: new Date(), handoffReason: reason.slice(0, 500) })
    .where(eq(promptSessions.ticketId, ticketId));
}
