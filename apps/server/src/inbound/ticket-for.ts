import { isRatingAnswer } from '@balcao/shared';
import { and, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { InboundMessage } from '../channels/channel.js';
import { anyTenant } from '../db/any-tenant.js';
import type { Db } from '../db/client.js';
import { arrayValue, insertManyQuery } from '../db/insert-many.js';
import { statement } from '../db/named-statement.js';
import { executeShaped, QueryShape } from '../db/query-shape.js';
import { rowsOf } from '../db/rows.js';
import { tickets, ticketTraking } from '../modules/tickets/tickets.schema.js';
import { isLead } from '../modules/tickets/tickets.tracking.js';

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

export type LatestTicket = Owner & { id: number; contactId: number; status: string; awaitingRating: boolean };

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
        eq(tickets.companyId, anyTenant(p.companyId)),
        eq(tickets.whatsappId, anyTenant(p.whatsappId)),
        sql`${tickets.contactId} = any(${p.contactIds})`,
      ),
    )
    .orderBy(tickets.contactId, desc(ne(tickets.status, 'closed')), desc(tickets.updatedAt)),
);

/** The contacts' latest tickets on the connection, by contact. */
export async function latestTickets(tx: Db, companyId: number, whatsappId: number, contactIds: number[]) {
  const rows = await latestOf(tx, { companyId, whatsappId, contactIds });
  return new Map<number, LatestTicket>(rows.map((r) => [r.contactId, r]));
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
 * One statement for the tickets that start a service cycle: the closed ones reopened, new ones for
 * contacts that have none on the connection, and the cycle of each (a new ticket's is a lead when
 * its contact has no other ticket). A ticket an agent opened meanwhile for one of these contacts
 * wins (the partial unique index): it is not created, and that contact is missing from the result.
 */
async function openTickets(
  tx: Db,
  at: { companyId: number; whatsappId: number },
  reopened: number[],
  firsts: InboundMessage[],
  contactIds: number[],
): Promise<Map<number, number>> {
  const { companyId, whatsappId } = at;
  const shape = QueryShape.bound();
  const parts: SQL[] = [];
  const cycles: SQL[] = [];
  const startedAt = sql`${shape.value('at', new Date().toISOString())}::timestamptz`;
  const cycle = sql`${shape.value('companyId', companyId)}::int, ${shape.value('whatsappId', whatsappId)}::int, ${startedAt}`;
  if (reopened.length) {
    shape.choose('reopen');
    // Built once for the shape: the time is a value of each call, not the one Drizzle's $onUpdate gave the first.
    const reopen = tx
      .update(tickets)
      .set({ ...REOPENED, updatedAt: startedAt })
      .where(sql`${tickets.id} = any(${arrayValue(shape, 'reopened', reopened, 'int')})`)
      .returning({ id: tickets.id });
    parts.push(sql`reopened as (${reopen.getSQL()})`);
    cycles.push(sql`select r.id, ${cycle}, false from reopened r`);
  }
  const create = firsts.length
    ? insertManyQuery(
        tickets,
        firsts.map((m, i) => ({
          companyId,
          contactId: contactIds[i],
          whatsappId,
          status: 'pending',
          isGroup: m.isGroup ?? false,
        })),
        { onConflictDoNothing: true },
        shape,
      )
    : undefined;
  if (create) {
    parts.push(sql`created as (${create.query})`);
    cycles.push(sql`select c.id, ${cycle}, ${isLead(sql`c.id`, sql`c.contact_id`)} from created c`);
  }
  if (!parts.length) return new Map();
  const query = sql`with ${sql.join(parts, sql`, `)},
    cycles as (insert into ${ticketTraking} (ticket_id, company_id, whatsapp_id, queued_at, lead) ${sql.join(cycles, sql` union all `)})
    ${create ? sql`select * from created` : sql`select 1 limit 0`}`;
  const result = await executeShaped('inbound_open_tickets', tx, shape, query);
  return new Map(create?.rowsOf(rowsOf(result)).map((r) => [r.contactId, r.id]));
}

/**
 * The ticket of every message of a batch, in message order (DOMAIN §1.5): the contact's non-closed
 * ticket on the connection; else its last ticket reopened as pending, or a new one, each starting a
 * service cycle; a 1–5 answer to a pending rating stays on the closed ticket (DOMAIN §4). `known`:
 * the latest tickets already read, of the contacts in `covers`; the others' are read here.
 */
export async function ticketsFor(
  tx: Db,
  batch: InboundMessage[],
  contactIds: number[],
  known: { latest: Map<number, LatestTicket>; covers: Set<number> },
): Promise<InboundTicket[]> {
  const { companyId, whatsappId } = batch[0];
  const unread = [...new Set(contactIds)].filter((c) => !known.covers.has(c));
  const latest = unread.length
    ? new Map([...known.latest, ...(await latestTickets(tx, companyId, whatsappId, unread))])
    : known.latest;
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
  const fresh = [...opener].filter(([c]) => !latest.has(c));
  const created = await openTickets(
    tx,
    { companyId, whatsappId },
    reopened,
    fresh.map(([, i]) => batch[i]),
    fresh.map(([c]) => c),
  );
  const lost = fresh.map(([c]) => c).filter((c) => !created.has(c));
  const theirs = lost.length ? await latestTickets(tx, companyId, whatsappId, lost) : new Map<number, LatestTicket>();

  return batch.map((_, i) => {
    const contactId = contactIds[i];
    const last = theirs.get(contactId) ?? latest.get(contactId);
    const first = opener.get(contactId);
    if (first === undefined || theirs.has(contactId)) {
      // The non-closed ticket, or a rating answer on the closed one.
      const t = last as LatestTicket;
      return { id: t.id, ...ownerOf(t), opened: false, closed: t.status === 'closed', before: ownerOf(t) };
    }
    // A rating answer sent before the message that reopens stays on the closed ticket.
    if (i < first) {
      const t = last as LatestTicket;
      return { id: t.id, ...ownerOf(t), opened: false, closed: true, before: ownerOf(t) };
    }
    const id = last ? last.id : (created.get(contactId) as number);
    return { id, queueId: null, userId: null, opened: i === first, closed: false, before: last ? ownerOf(last) : null };
  });
}
