import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tickets } from '../tickets/tickets.schema.js';
import { integrationSessions } from './integrations.schema.js';

export type IntegrationSession = typeof integrationSessions.$inferSelect;

const expiryOf = (hours: number, now = new Date()) => (hours > 0 ? new Date(now.getTime() + hours * 3_600_000) : null);

/**
 * The bot session of (ticket, integration) for the ticket's current cycle (DOMAIN §17). A closed or
 * expired session, or one of an earlier cycle, starts afresh from `messageId`: a new external session.
 */
export async function openIntegrationSession(
  db: Db,
  s: { companyId: number; ticketId: number; integrationId: number; cycleId: number; messageId: number; hours: number },
): Promise<IntegrationSession> {
  const fresh = {
    companyId: s.companyId,
    cycleId: s.cycleId,
    status: 'active' as const,
    externalSessionId: null,
    pendingChoices: [],
    processedUpTo: s.messageId - 1,
    lastActivityAt: new Date(),
    expiresAt: expiryOf(s.hours),
    busyUntil: null,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(integrationSessions)
    .values({ ticketId: s.ticketId, integrationId: s.integrationId, ...fresh })
    .onConflictDoUpdate({
      target: [integrationSessions.ticketId, integrationSessions.integrationId],
      set: fresh,
      setWhere: or(
        ne(integrationSessions.cycleId, s.cycleId),
        eq(integrationSessions.status, 'closed'),
        lt(integrationSessions.expiresAt, new Date()),
      ),
    })
    .returning();
  if (row) return row;
  const [current] = await db
    .select()
    .from(integrationSessions)
    .where(and(eq(integrationSessions.ticketId, s.ticketId), eq(integrationSessions.integrationId, s.integrationId)));
  return current;
}

/**
 * Takes the ticket's turn: one bot turn at a time per ticket, across instances (a lease, so a turn whose
 * instance died frees the ticket when it runs out). 'busy': another turn holds it; 'missing': no active session.
 */
export async function claimIntegrationTurn(
  db: Db,
  companyId: number,
  ticketId: number,
  integrationId: number,
  leaseMs: number,
): Promise<IntegrationSession | 'busy' | 'missing'> {
  const mine = and(
    eq(integrationSessions.ticketId, ticketId),
    eq(integrationSessions.integrationId, integrationId),
    eq(integrationSessions.companyId, companyId),
    eq(integrationSessions.status, 'active'),
  );
  const [row] = await db
    .update(integrationSessions)
    .set({ busyUntil: new Date(Date.now() + leaseMs) })
    .where(and(mine, or(isNull(integrationSessions.busyUntil), lt(integrationSessions.busyUntil, new Date()))))
    .returning();
  if (row) return row;
  const [exists] = await db.select({ id: integrationSessions.id }).from(integrationSessions).where(mine);
  return exists ? 'busy' : 'missing';
}

export async function releaseIntegrationTurn(db: Db, id: number): Promise<void> {
  await db.update(integrationSessions).set({ busyUntil: null }).where(eq(integrationSessions.id, id));
}

/** After each message the bot took: where the conversation stands, and a new expiry. */
export async function recordBotTurn(
  db: Db,
  id: number,
  t: { processedUpTo: number; externalSessionId: string | null; pendingChoices: string[]; hours: number },
): Promise<void> {
  await db
    .update(integrationSessions)
    .set({
      processedUpTo: sql`greatest(${integrationSessions.processedUpTo}, ${t.processedUpTo})`,
      externalSessionId: t.externalSessionId,
      pendingChoices: t.pendingChoices,
      lastActivityAt: new Date(),
      expiresAt: expiryOf(t.hours),
      updatedAt: new Date(),
    })
    .where(eq(integrationSessions.id, id));
}

/**
 * A session whose flow ended, handed off, failed or whose ticket people took: paused, the bot stays silent
 * until the ticket's next cycle. (Only the timer closes sessions: a closed one starts afresh.)
 */
export async function pauseSession(db: Db, id: number, processedUpTo?: number) {
  const status = 'paused';
  await db
    .update(integrationSessions)
    .set({
      status,
      ...(processedUpTo !== undefined
        ? { processedUpTo: sql`greatest(${integrationSessions.processedUpTo}, ${processedUpTo})` }
        : {}),
      updatedAt: new Date(),
    })
    .where(eq(integrationSessions.id, id));
}

/** People took the ticket (an agent's message, accept or assignment): its active bot sessions pause. */
export async function pauseTicketSessions(db: Db, companyId: number, ticketId: number): Promise<void> {
  await db
    .update(integrationSessions)
    .set({ status: 'paused', updatedAt: new Date() })
    .where(
      and(
        eq(integrationSessions.companyId, companyId),
        eq(integrationSessions.ticketId, ticketId),
        eq(integrationSessions.status, 'active'),
      ),
    );
}

/**
 * The timer of DOMAIN §17, for every company: active sessions past their expiry, or whose ticket was
 * closed, are closed even when no message arrives. Returns how many.
 */
export async function closeExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const closed = await db
    .update(integrationSessions)
    .set({ status: 'closed', updatedAt: now })
    .where(
      and(
        eq(integrationSessions.status, 'active'),
        or(
          lt(integrationSessions.expiresAt, now),
          sql`exists (select 1 from ${tickets} where ${tickets.id} = ${integrationSessions.ticketId}
                and ${tickets.status} = 'closed')`,
        ),
      ),
    )
    .returning({ id: integrationSessions.id });
  return closed.length;
}
