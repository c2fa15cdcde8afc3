import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isRatingAnswer } from '../automations/rating.js';
import type { InboundMessage } from '../channels/channel.js';
import type { Db } from '../db/client.js';
import { contacts } from '../modules/contacts/contacts.schema.js';
import { messages } from '../modules/messages/messages.schema.js';
import { emitMessage, viewMessages } from '../modules/messages/messages.view.js';
import { getSetting } from '../modules/settings/settings.service.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { openCycle } from '../modules/tickets/tickets.tracking.js';
import { emitTicket, selectTicket } from '../modules/tickets/tickets.view.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import type { Storage } from '../platform/storage/storage.js';

export interface InboundDeps {
  db: Db;
  realtime: Realtime;
  storage: Storage;
  log: Logger;
  /** Runs after the message is stored and announced (queue menu, bots: DOMAIN §1.7). */
  afterStore?: (result: StoredInbound) => Promise<void>;
}

export interface StoredInbound {
  messageId: number;
  ticketId: number;
  companyId: number;
  whatsappId: number;
  fromMe: boolean;
  /** The ticket was created or reopened by this message. */
  ticketOpened: boolean;
}

export type InboundResult = StoredInbound | { skipped: 'duplicate' | 'group' };

const DAY_MS = 86_400_000;

async function findByProviderId(db: Db, m: InboundMessage) {
  const [row] = await db
    .select({ id: messages.id, ticketId: messages.ticketId })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, m.companyId),
        eq(messages.whatsappId, m.whatsappId),
        eq(messages.providerId, m.providerId),
      ),
    )
    .limit(1);
  return row;
}

/** Find or create the contact; the name is learnt from the provider only while it is unknown, at most daily. */
async function upsertContact(tx: Db, m: InboundMessage): Promise<number> {
  const name = (m.isGroup ? m.groupName : m.pushName)?.trim().slice(0, 100) || m.number;
  // Known contacts are the common case: one read, and a write only when something is learnt.
  const [existing] = await tx
    .select({ id: contacts.id, name: contacts.name, refreshedAt: contacts.profileRefreshedAt })
    .from(contacts)
    .where(and(eq(contacts.companyId, m.companyId), eq(contacts.number, m.number)));
  if (existing) {
    const stale = !existing.refreshedAt || Date.now() - existing.refreshedAt.getTime() > DAY_MS;
    // An unknown name (the number) is filled in as soon as a message carries one, not a day later.
    const learnName = existing.name === m.number && name !== m.number;
    if (stale || learnName) {
      await tx
        .update(contacts)
        .set({ ...(stale ? { profileRefreshedAt: new Date() } : {}), ...(learnName ? { name } : {}) })
        .where(eq(contacts.id, existing.id));
    }
    return existing.id;
  }
  const [created] = await tx
    .insert(contacts)
    .values({
      companyId: m.companyId,
      number: m.number,
      name,
      isGroup: m.isGroup ?? false,
      profileRefreshedAt: new Date(),
    })
    .onConflictDoNothing({ target: [contacts.companyId, contacts.number] })
    .returning({ id: contacts.id });
  // Created at the same moment by another connection's message or by an agent: read it again.
  return created ? created.id : upsertContact(tx, m);
}

/** The contact's non-closed ticket on this connection, or its last closed one reopened as pending, or a new one. */
async function ticketFor(tx: Db, m: InboundMessage, contactId: number) {
  const scope = and(
    eq(tickets.companyId, m.companyId),
    eq(tickets.contactId, contactId),
    eq(tickets.whatsappId, m.whatsappId),
  );
  const [open] = await tx
    .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(and(scope, ne(tickets.status, 'closed')))
    .limit(1);
  if (open) return { ...open, opened: false, before: open };
  const [last] = await tx
    .select({
      id: tickets.id,
      queueId: tickets.queueId,
      userId: tickets.userId,
      awaitingRating: tickets.awaitingRating,
    })
    .from(tickets)
    .where(scope)
    .orderBy(desc(tickets.updatedAt))
    .limit(1);
  const closed = last && { id: last.id, queueId: last.queueId, userId: last.userId };
  // The contact's 1–5 answer to a pending rating stays on the closed ticket (DOMAIN §4); any other
  // message reopens it.
  if (closed && last.awaitingRating && !m.fromMe && isRatingAnswer(m.body)) {
    return { ...closed, opened: false, before: closed };
  }
  let id: number;
  if (closed) {
    await tx
      .update(tickets)
      .set({
        status: 'pending',
        queueId: null,
        userId: null,
        unreadMessages: 0,
        chatbot: false,
        amountUsedBotQueues: 0,
        queueOptionId: null,
        awaitingRating: false,
      })
      .where(eq(tickets.id, closed.id));
    id = closed.id;
  } else {
    const [row] = await tx
      .insert(tickets)
      .values({
        companyId: m.companyId,
        contactId,
        whatsappId: m.whatsappId,
        status: 'pending',
        isGroup: m.isGroup ?? false,
      })
      .onConflictDoNothing()
      .returning({ id: tickets.id });
    // An agent opened a ticket for this contact at the same moment: use theirs.
    if (!row) return ticketFor(tx, m, contactId);
    id = row.id;
  }
  await openCycle(tx, { companyId: m.companyId, ticketId: id, whatsappId: m.whatsappId });
  return { id, queueId: null, userId: null, opened: true, before: closed ?? null };
}

/**
 * The inbound pipeline of DOMAIN §1: one transaction serialised per (company, connection, contact),
 * idempotent on the provider message id, then the live events, then the automations.
 */
export async function handleInbound(deps: InboundDeps, m: InboundMessage): Promise<InboundResult> {
  // A redelivered media message is caught before its file is written; the check inside the transaction is the rule.
  if (m.media && (await findByProviderId(deps.db, m))) return { skipped: 'duplicate' };
  if (m.isGroup && (await getSetting(deps.db, m.companyId, 'CheckMsgIsGroup')) === 'enabled')
    return { skipped: 'group' };
  const media = m.media ? await deps.storage.put(m.companyId, m.media.data, m.media.fileName) : undefined;

  const stored = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    // The lock and the redelivery check in one round trip: this runs for every message.
    const locked = (await db.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${m.companyId}:${m.whatsappId}:${m.number}`}, 0)),
        (select ${messages.id} from ${messages} where ${messages.companyId} = ${m.companyId}
          and ${messages.whatsappId} = ${m.whatsappId} and ${messages.providerId} = ${m.providerId}) as existing`,
    )) as unknown as { rows: { existing: number | null }[] };
    if (locked.rows[0]?.existing) return null;
    const contactId = await upsertContact(db, m);
    const ticket = await ticketFor(db, m, contactId);
    const quoted = m.quotedProviderId
      ? await findByProviderId(db, { ...m, providerId: m.quotedProviderId })
      : undefined;
    const [row] = await db
      .insert(messages)
      .values({
        companyId: m.companyId,
        ticketId: ticket.id,
        contactId,
        whatsappId: m.whatsappId,
        providerId: m.providerId,
        body: m.body,
        fromMe: m.fromMe,
        mediaType: m.mediaType,
        mediaKey: media?.key,
        mediaName: m.media?.fileName,
        mediaMime: m.media?.mimetype,
        quotedMsgId: quoted?.id ?? null,
        participant: m.participant ?? null,
        ack: m.fromMe ? 1 : 0,
        read: m.fromMe,
        sendStatus: m.fromMe ? 'sent' : 'received',
        ...(m.timestamp ? { createdAt: m.timestamp } : {}),
      })
      .returning();
    await db
      .update(tickets)
      .set({
        lastMessage: m.body || m.media?.fileName || '',
        lastMessageAt: new Date(),
        lastFromMe: m.fromMe,
        unreadMessages: m.fromMe ? sql`${tickets.unreadMessages}` : sql`${tickets.unreadMessages} + 1`,
      })
      .where(eq(tickets.id, ticket.id));
    return { messageId: row.id, row, ticket };
  });
  if (!stored) {
    if (media) await deps.storage.remove(media.key);
    return { skipped: 'duplicate' };
  }

  const ticket = await selectTicket(deps.db, m.companyId, stored.ticket.id);
  const [message] = ticket ? await viewMessages(deps.db, [stored.row], [ticket.contact]) : [];
  if (ticket && message) {
    emitTicket(deps.realtime, m.companyId, ticket, stored.ticket.before ?? undefined);
    emitMessage(deps.realtime, m.companyId, ticket, 'create', message, { ticket, contact: ticket.contact });
  }
  const result: StoredInbound = {
    messageId: stored.messageId,
    ticketId: stored.ticket.id,
    companyId: m.companyId,
    whatsappId: m.whatsappId,
    fromMe: m.fromMe,
    ticketOpened: stored.ticket.opened,
  };
  if (deps.afterStore) {
    await deps
      .afterStore(result)
      .catch((err) => deps.log.error({ err, ticketId: result.ticketId }, 'inbound automation failed'));
  }
  return result;
}
