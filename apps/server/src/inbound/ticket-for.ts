import { isRatingAnswer } from '@balcao/shared';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { InboundMessage } from '../channels/channel.js';
import type { Db } from '../db/client.js';
import { insertMany } from '../db/insert-many.js';
import { statement } from '../db/named-statement.js';
import { tickets, ticketTraking } from '../modules/tickets/tickets.schema.js';
import { markLeads } from '../modules/tickets/tickets.tracking.js';

type Owner = { queueId: number | null; userId: number | null };

export interface InboundTicket extends Owner {
  id: number;
  /** Created or reopened by this message. */
  opened: boolean;
  /** Still closed: the message is the contact's answer to a pending rating. */
  closed: boolean;
  /** Queue and user before the message, so that lists which lose the ticket hear of it. */
  before: Owner | null;
}

type Last = Owner & { id: number; contactId: number; status: string; awaitingRating: boolean };

/** The contacts' latest tickets on the connection, non-closed first (there is at most one). */
const latestOf = statement('inbound_latest_tickets', ['companyId', 'whatsappId', 'contactIds'], (db, p) =>
  db
    .selectDistinctOn([tickets.contactId], {
      id: tickets.id,
      contactId: tickets.contactId,
      status: tickets.status,
      queueId: tickets.queueId,
      userId: tickets.userId,
      awaitingRating: tickets.awaitingRating,
    })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, p.companyId),
        eq(tickets.whatsappId, p.whatsappId),
        sql`${tickets.contactId} = any(${p.contactIds})`,
      ),
    )
    .orderBy(tickets.contactId, desc(ne(tickets.status, 'closed')), desc(tickets.updatedAt)),
);

async function latestTickets(tx: Db, companyId: number, whatsappId: number, contactIds: number[]) {
  const rows = await latestOf(tx, { companyId, whatsappId, contactIds });
  return new Map<number, Last>(rows.map((r) => [r.contactId, r]));
}

const REOPENED = {
  status: 'pending',
  queueId: null,
  userId: null,
  unreadMessages: 0,
  chatbot: false,
  amountUsedBotQueues: 0,
  queueOptionId: null,
  awaitingRating: false,
} as const;

const ownerOf = (t: Owner): Owner => ({ queueId: t.queueId, userId: t.userId });

/**
 * New tickets for contacts that have none on the connection. A ticket an agent opened for one of
 * them meanwhile wins (the partial unique index): that contact gets it, not opened by the message.
 */
async function createTickets(tx: Db, firsts: InboundMessage[], contactIds: number[]) {
  const { companyId, whatsappId } = firsts[0];
  const rows = await insertMany(
    tx,
    tickets,
    firsts.map((m, i) => ({
      companyId,
      contactId: contactIds[i],
      whatsappId,
      status: 'pending',
      isGroup: m.isGroup ?? false,
    })),
    { onConflictDoNothing: true },
  );
  const created = new Map(rows.map((r) => [r.contactId, r.id]));
  const lost = contactIds.filter((id) => !created.has(id));
  const theirs = lost.length ? await latestTickets(tx, companyId, whatsappId, lost) : new Map<number, Last>();
  return { created, theirs };
}

/**
 * The ticket of every message of a batch, in message order (DOMAIN §1.5): the contact's non-closed
 * ticket on the connection; else its last ticket reopened as pending, or a new one, each starting a
 * service cycle; a 1–5 answer to a pending rating stays on the closed ticket (DOMAIN §4).
 */
export async function ticketsFor(tx: Db, batch: InboundMessage[], contactIds: number[]): Promise<InboundTicket[]> {
  const { companyId, whatsappId } = batch[0];
  const latest = await latestTickets(tx, companyId, whatsappId, [...new Set(contactIds)]);
  // Which message opens the ticket of each contact without a non-closed one.
  const opener = new Map<number, number>();
  batch.forEach((m, i) => {
    const last = latest.get(contactIds[i]);
    if (last && last.status !== 'closed') return;
    if (opener.has(contactIds[i])) return;
    if (last?.awaitingRating && !m.fromMe && isRatingAnswer(m.body)) return;
    opener.set(contactIds[i], i);
  });
  const reopened = [...opener.keys()].flatMap((c) => latest.get(c)?.id ?? []);
  if (reopened.length) await tx.update(tickets).set(REOPENED).where(inArray(tickets.id, reopened));
  const fresh = [...opener].filter(([c]) => !latest.has(c));
  const { created, theirs } = fresh.length
    ? await createTickets(
        tx,
        fresh.map(([, i]) => batch[i]),
        fresh.map(([c]) => c),
      )
    : { created: new Map<number, number>(), theirs: new Map<number, Last>() };
  const cycles = [...reopened, ...created.values()];
  await insertMany(
    tx,
    ticketTraking,
    cycles.map((ticketId) => ({ companyId, ticketId, whatsappId, queuedAt: new Date() })),
  );
  await markLeads(tx, [...created.values()]);

  return batch.map((_, i) => {
    const contactId = contactIds[i];
    const last = theirs.get(contactId) ?? latest.get(contactId);
    const first = opener.get(contactId);
    if (first === undefined || theirs.has(contactId)) {
      // The non-closed ticket, or a rating answer on the closed one.
      const t = last as Last;
      return { id: t.id, ...ownerOf(t), opened: false, closed: t.status === 'closed', before: ownerOf(t) };
    }
    // A rating answer sent before the message that reopens stays on the closed ticket.
    if (i < first) {
      const t = last as Last;
      return { id: t.id, ...ownerOf(t), opened: false, closed: true, before: ownerOf(t) };
    }
    const id = last ? last.id : (created.get(contactId) as number);
    return { id, queueId: null, userId: null, opened: i === first, closed: false, before: last ? ownerOf(last) : null };
  });
}
