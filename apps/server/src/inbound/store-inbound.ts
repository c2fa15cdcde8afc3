import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { InboundMessage } from '../channels/channel.js';
import { anyTenant } from '../db/any-tenant.js';
import type { Db } from '../db/client.js';
import { arrayValue, insertManyQuery } from '../db/insert-many.js';
import { preparableSql, statement } from '../db/named-statement.js';
import { executeShaped, QueryShape } from '../db/query-shape.js';
import { queuedTransaction } from '../db/queued-transaction.js';
import { rowsOf } from '../db/rows.js';
import { newContactsAnnouncement } from '../modules/contacts/contacts.service.js';
import { messages } from '../modules/messages/messages.schema.js';
import { emitMessage, viewMessages } from '../modules/messages/messages.view.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { firstReplyOf } from '../modules/tickets/tickets.tracking.js';
import { emitTicket, selectTicketsOf } from '../modules/tickets/tickets.view.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import { knownOfBatch } from './batch-known.js';
import { contactsOf } from './contacts-of.js';
import { type InboundTicket, ticketsFor } from './ticket-for.js';

export interface StoredInbound {
  messageId: number;
  ticketId: number;
  companyId: number;
  whatsappId: number;
  fromMe: boolean;
  /** The ticket was created or reopened by this message. */
  ticketOpened: boolean;
  contactId: number;
  /** The contact is new or due for its daily profile refresh (DOMAIN §1.4): one message of the batch says so. */
  refreshProfile: boolean;
}

export type InboundResult = StoredInbound | { skipped: 'duplicate' | 'group' };

/** A message ready to store: its file, if any, is already written under `mediaKey`. */
export interface PreparedInbound {
  message: InboundMessage;
  mediaKey?: string;
}

type MessageRow = typeof messages.$inferSelect;
type StoredRow = {
  m: InboundMessage;
  ticket: InboundTicket;
  row: MessageRow;
  contactId: number;
  refreshProfile: boolean;
  newContact: boolean;
};

const lockOf = statement('inbound_lock', ['keys'], (db, p) =>
  preparableSql(
    db,
    sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from (select k from unnest(${p.keys}::text[]) k order by k) s`,
  ),
);

/** One advisory lock per contact of the batch, taken in a fixed order so that batches never deadlock. */
async function lockContacts(tx: Db, batch: InboundMessage[]) {
  const keys = [...new Set(batch.map((m) => `${m.companyId}:${m.whatsappId}:${m.number}`))];
  await lockOf(tx, { keys });
}

const storedOf = statement('stored_ids', ['companyId', 'whatsappId', 'providerIds'], (db, p) =>
  db
    .select({ id: messages.id, providerId: messages.providerId })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, anyTenant(p.companyId)),
        eq(messages.whatsappId, anyTenant(p.whatsappId)),
        sql`${messages.providerId} = any(${p.providerIds})`,
      ),
    ),
);

/** The ids of a connection's stored messages among these provider ids, by provider id. */
export async function storedIds(db: Db, companyId: number, whatsappId: number, providerIds: string[]) {
  if (!providerIds.length) return new Map<string, number>();
  const rows = await storedOf(db, { companyId, whatsappId, providerIds });
  return new Map(rows.map((r) => [r.providerId as string, r.id]));
}

/** The messages of the batch not stored before (redeliveries) nor earlier in the same batch. */
function firstDeliveries(stored: Map<string, number>, batch: PreparedInbound[]) {
  const seen = new Set<string>();
  return batch.filter(
    (p) => !stored.has(p.message.providerId) && !seen.has(p.message.providerId) && seen.add(p.message.providerId),
  );
}

/**
 * Each ticket's last message, sender and unread count move once for the whole batch: an UPDATE to
 * run as a CTE of the messages' INSERT, one round trip for both.
 */
function ticketsTouch(stored: { m: InboundMessage; ticket: InboundTicket }[], at: Date, shape: QueryShape): SQL {
  const now = shape.value('now', at.toISOString());
  const byTicket = new Map<number, { last: string; fromMe: boolean; unread: number }>();
  for (const { m, ticket } of stored) {
    const t = byTicket.get(ticket.id) ?? { last: '', fromMe: false, unread: 0 };
    t.last = m.body || m.media?.fileName || '';
    t.fromMe = m.fromMe;
    if (!m.fromMe) t.unread += 1;
    byTicket.set(ticket.id, t);
  }
  const list = [...byTicket];
  return sql`update ${tickets} set last_message = v.last, last_message_at = ${now}, last_from_me = v.from_me,
      unread_messages = ${tickets.unreadMessages} + v.unread, updated_at = ${now}
      from unnest(${arrayValue(
        shape,
        'ids',
        list.map(([id]) => id),
        'int',
      )}, ${arrayValue(
        shape,
        'lasts',
        list.map(([, t]) => t.last),
        'text',
      )},
        ${arrayValue(
          shape,
          'fromMe',
          list.map(([, t]) => t.fromMe),
          'boolean',
        )}, ${arrayValue(
          shape,
          'unread',
          list.map(([, t]) => t.unread),
          'int',
        )})
        as v(id, last, from_me, unread)
      where ${tickets.id} = v.id`;
}

/**
 * The storing half of DOMAIN §1 for a batch of one connection's messages, in arrival order: one
 * transaction serialised per contact, idempotent on the provider message id.
 */
async function storeBatch(db: Db, batch: PreparedInbound[]) {
  const { companyId, whatsappId } = batch[0].message;
  return queuedTransaction(db, async (tx) => {
    const now = new Date();
    const received = batch.map((p) => p.message);
    // Queued together behind the BEGIN on the transaction's connection: the driver sends the read as
    // soon as the locks are held (its snapshot is then taken after them), not on this process's next turn.
    const locked = lockContacts(tx, received);
    const reading = knownOfBatch(tx, companyId, whatsappId, received);
    // A failed lock fails the read too (the transaction is aborted): the lock's error is the one thrown.
    reading.catch(() => undefined);
    await locked;
    const known = await reading;
    const fresh = firstDeliveries(known.stored, batch);
    if (!fresh.length) return [];
    const ms = fresh.map((p) => p.message);
    const { ids: contactIds, refreshed, created } = await contactsOf(tx, companyId, ms, known.contacts);
    const newContacts = new Set(created);
    // A contact created by this transaction has no ticket yet; one created meanwhile by another is read.
    const covers = new Set([...known.contacts.map((c) => c.id), ...created]);
    const ticketOf = await ticketsFor(tx, ms, contactIds, { latest: known.latest, covers });
    const quoted = known.stored;
    const shape = QueryShape.bound();
    const insert = insertManyQuery(
      messages,
      fresh.map(({ message: m, mediaKey }, i) => ({
        companyId,
        ticketId: ticketOf[i].id,
        contactId: contactIds[i],
        whatsappId,
        providerId: m.providerId,
        body: m.body,
        fromMe: m.fromMe,
        mediaType: m.mediaType,
        mediaKey,
        mediaName: m.media?.fileName,
        mediaMime: m.media?.mimetype,
        quotedMsgId: (m.quotedProviderId && quoted.get(m.quotedProviderId)) || null,
        participant: m.participant ?? null,
        ack: m.fromMe ? 1 : 0,
        read: m.fromMe,
        sendStatus: m.fromMe ? ('sent' as const) : ('received' as const),
        createdAt: m.timestamp ?? now,
      })),
      {},
      shape,
    );
    const touch = ticketsTouch(
      ms.map((m, i) => ({ m, ticket: ticketOf[i] })),
      now,
      shape,
    );
    const ctes = [sql`touched as (${touch})`];
    // Written on the phone itself: an agent's reply, unless it is what opened the ticket.
    const replied = [...new Set(ms.flatMap((m, i) => (m.fromMe && !ticketOf[i].opened ? [ticketOf[i].id] : [])))];
    if (replied.length) {
      shape.choose('first reply');
      const at = sql`${shape.value('now', now.toISOString())}::timestamptz`;
      ctes.push(sql`replied as (${firstReplyOf(tx, arrayValue(shape, 'replied', replied, 'int'), at).getSQL()})`);
    }
    const query = sql`with ${sql.join(ctes, sql`, `)} ${insert.query}`;
    const rows = insert.rowsOf(rowsOf(await executeShaped('inbound_messages', tx, shape, query)));
    const byProvider = new Map(rows.map((r) => [r.providerId, r]));
    const stored = ms.map((m, i) => ({
      m,
      ticket: ticketOf[i],
      row: byProvider.get(m.providerId) as MessageRow,
      contactId: contactIds[i],
      // The contact's first message of the batch carries its refresh, and its creation.
      refreshProfile: refreshed.delete(contactIds[i]),
      newContact: newContacts.delete(contactIds[i]),
    }));
    // A message quoting another of its batch is stored before that one has an id: linked afterwards.
    const inBatch = new Set(ms.map((m) => m.providerId));
    if (ms.some((m) => m.quotedProviderId && !quoted.has(m.quotedProviderId) && inBatch.has(m.quotedProviderId)))
      await quoteWithinBatch(tx, stored);
    return stored;
  });
}

/** A reply to a message of the same batch: its quote is known only once both rows exist. */
async function quoteWithinBatch(tx: Db, stored: { m: InboundMessage; row: MessageRow }[]) {
  for (const s of stored) {
    if (!s.m.quotedProviderId || s.row.quotedMsgId) continue;
    const target = stored.find((o) => o.m.providerId === s.m.quotedProviderId);
    if (!target) continue;
    await tx.update(messages).set({ quotedMsgId: target.row.id }).where(eq(messages.id, s.row.id));
    s.row.quotedMsgId = target.row.id;
  }
}

/**
 * The contacts the batch created, then each ticket once in its final state, then its new messages
 * in order, to the rooms that may see them.
 */
async function announce(deps: { db: Db; realtime: Realtime }, companyId: number, stored: StoredRow[]) {
  const created = stored.filter((s) => s.newContact).map((s) => s.contactId);
  const ticketIds = [...new Set(stored.map((s) => s.ticket.id))];
  // Read side by side, announced in order.
  const [announceContacts, views] = await Promise.all([
    newContactsAnnouncement(deps.db, deps.realtime, companyId, created),
    selectTicketsOf(deps.db, companyId, ticketIds),
  ]);
  announceContacts();
  const contacts = views.map((v) => v.contact);
  const shown = await viewMessages(
    deps.db,
    stored.map((s) => s.row),
    contacts,
  );
  for (const id of ticketIds) {
    const view = views.find((v) => v.id === id);
    if (!view) continue;
    const mine = stored.flatMap((s, i) => (s.ticket.id === view.id ? [{ s, message: shown[i] }] : []));
    emitTicket(deps.realtime, companyId, view, mine[0]?.s.ticket.before ?? undefined);
    for (const { message } of mine) {
      emitMessage(deps.realtime, companyId, view, 'create', message, { ticket: view, contact: view.contact });
    }
  }
}

/** The results of a batch, one per message in batch order, and when its live events are out. */
export interface StoredBatch {
  results: InboundResult[];
  /** Never rejects: an announcement that fails is logged, the messages stay stored. */
  announced: Promise<void>;
}

/**
 * Stores a batch of inbound messages of one connection, then announces them (each ticket once in
 * its final state, then its new messages in order) through `inOrder`, which lets the connection's
 * next batch be stored while this one is announced, the announcements still in batch order.
 */
export async function storeInbound(
  deps: { db: Db; realtime: Realtime; log: Logger },
  batch: PreparedInbound[],
  inOrder: (announce: () => Promise<void>) => Promise<void> = (announce) => announce(),
): Promise<StoredBatch> {
  const { companyId } = batch[0].message;
  const stored = await storeBatch(deps.db, batch);
  const resultOf = new Map(
    stored.map(({ m, ticket, row, contactId, refreshProfile }) => [
      m.providerId,
      {
        messageId: row.id,
        ticketId: ticket.id,
        companyId,
        whatsappId: m.whatsappId,
        fromMe: m.fromMe,
        ticketOpened: ticket.opened,
        contactId,
        refreshProfile,
      } satisfies StoredInbound,
    ]),
  );
  const announced = stored.length
    ? inOrder(() => announce(deps, companyId, stored)).catch((err) =>
        deps.log.error({ err, companyId }, 'inbound messages stored but not announced'),
      )
    : Promise.resolve();
  const claimed = new Set<string>();
  const results = batch.map(({ message: m }): InboundResult => {
    const result = resultOf.get(m.providerId);
    // A provider id delivered twice in one batch is stored once: the first copy gets the result.
    if (!result || claimed.has(m.providerId)) return { skipped: 'duplicate' };
    claimed.add(m.providerId);
    return result;
  });
  return { results, announced };
}
