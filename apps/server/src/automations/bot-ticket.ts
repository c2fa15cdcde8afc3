import type { PlanFlag } from '@balcao/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { StoredInbound } from '../inbound/store-inbound.js';
import { companies } from '../modules/companies/companies.schema.js';
import { plans } from '../modules/plans/plans.schema.js';
import { queues } from '../modules/queues/queues.schema.js';
import { tickets, ticketTraking } from '../modules/tickets/tickets.schema.js';
import { emitTicket, selectTicket } from '../modules/tickets/tickets.view.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import type { InboundContext } from './context.js';

/**
 * What the bots of a ticket (AI prompts, DOMAIN §16; queue integrations, §17) read before they answer:
 * the ticket's state, its open service cycle and the company's plan.
 */

export type BotTicket = Pick<
  typeof tickets.$inferSelect,
  'id' | 'companyId' | 'whatsappId' | 'contactId' | 'userId' | 'queueId' | 'status' | 'isGroup'
>;

export async function botTicket(db: Db, companyId: number, id: number): Promise<BotTicket | undefined> {
  const [row] = await db
    .select({
      id: tickets.id,
      companyId: tickets.companyId,
      whatsappId: tickets.whatsappId,
      contactId: tickets.contactId,
      userId: tickets.userId,
      queueId: tickets.queueId,
      status: tickets.status,
      isGroup: tickets.isGroup,
    })
    .from(tickets)
    .where(and(eq(tickets.id, id), eq(tickets.companyId, companyId)));
  return row;
}

/** Only a contact's own, unassigned, open conversation is a bot's. */
export const inBotHands = (t: BotTicket | undefined): t is BotTicket =>
  t !== undefined && t.userId === null && !t.isGroup && t.status !== 'closed';

/** A bot a ticket can be in: its AI prompt (DOMAIN §16) or its queue integration (§17). */
export type BotKey = 'promptId' | 'integrationId';
type BotPlace = Pick<BotTicket, 'companyId' | 'whatsappId' | 'queueId'>;

/** The ticket's bot of that kind: its queue's once it has a queue, else its connection's. */
export async function botOf(db: Db, t: BotPlace, key: BotKey): Promise<number | null> {
  if (t.queueId === null) {
    const [w] = await db
      .select({ id: whatsapps[key] })
      .from(whatsapps)
      .where(and(eq(whatsapps.id, t.whatsappId), eq(whatsapps.companyId, t.companyId)));
    return w?.id ?? null;
  }
  const [q] = await db
    .select({ id: queues[key] })
    .from(queues)
    .where(and(eq(queues.id, t.queueId), eq(queues.companyId, t.companyId)));
  return q?.id ?? null;
}

/** `botOf` on what the message's batch has read. */
export async function botIn(ctx: InboundContext, t: BotPlace, key: BotKey): Promise<number | null> {
  if (t.queueId === null) return (await ctx.connectionRow(t.companyId, t.whatsappId))?.[key] ?? null;
  return (await ctx.companyQueues(t.companyId)).get(t.queueId)?.[key] ?? null;
}

/** Whether the message's connection or any queue of its company has a bot of that kind. */
export async function anyBot(ctx: InboundContext, stored: StoredInbound, key: BotKey): Promise<boolean> {
  if ((await ctx.connectionRow(stored.companyId, stored.whatsappId))?.[key] != null) return true;
  for (const q of (await ctx.companyQueues(stored.companyId)).values()) if (q[key] !== null) return true;
  return false;
}

/** The ticket's open service cycle: people took it once it was accepted or answered. */
export async function currentCycle(db: Db, ticketId: number) {
  const [row] = await db
    .select({ id: ticketTraking.id, startedAt: ticketTraking.startedAt, firstReplyAt: ticketTraking.firstReplyAt })
    .from(ticketTraking)
    .where(and(eq(ticketTraking.ticketId, ticketId), isNull(ticketTraking.finishedAt)))
    .orderBy(desc(ticketTraking.id))
    .limit(1);
  return row ?? { id: 0, startedAt: null, firstReplyAt: null };
}

export type Cycle = Awaited<ReturnType<typeof currentCycle>>;

/** An agent accepted the ticket or answered in this cycle. */
export const agentTookOver = (cycle: Cycle) => cycle.startedAt !== null || cycle.firstReplyAt !== null;

/** The company's plan keeps the module on (no plan, or the flag unset, counts as on). */
export async function planAllows(db: Db, companyId: number, flag: PlanFlag): Promise<boolean> {
  const [row] = await db
    .select({ enabled: plans[flag] })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1);
  return row?.enabled !== false;
}

/**
 * Moves the ticket to a queue of its company, out of the queue's chatbot and out of any integration;
 * announced to the rooms it left and the ones it enters.
 */
export async function moveToQueue(deps: { db: Db; realtime: Realtime }, ticket: BotTicket, queueId: number) {
  if (ticket.queueId === queueId) return;
  await deps.db
    .update(tickets)
    .set({ queueId, chatbot: false, queueOptionId: null, useIntegration: false, integrationId: null })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)));
  const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
  if (view) emitTicket(deps.realtime, ticket.companyId, view, { queueId: ticket.queueId, userId: ticket.userId });
  ticket.queueId = queueId;
}
