import { sql } from 'drizzle-orm';
import type { InboundMessage } from '../channels/channel.js';
import { anyTenant } from '../db/any-tenant.js';
import type { Db } from '../db/client.js';
import { preparableSql, statement } from '../db/named-statement.js';
import { rowsOf } from '../db/rows.js';
import { contacts } from '../modules/contacts/contacts.schema.js';
import { messages } from '../modules/messages/messages.schema.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import type { KnownContact } from './contacts-of.js';
import type { LatestTicket } from './ticket-for.js';

/** What the database knows of a batch before the batch is stored. */
export interface BatchKnown {
  /** The connection's stored messages among the batch's and its quotes' provider ids: id by provider id. */
  stored: Map<string, number>;
  /** The company's contacts with a number or a LID of the batch. */
  contacts: KnownContact[];
  /** The latest ticket on the connection of each of those contacts, by contact id (see latestTickets). */
  latest: Map<number, LatestTicket>;
}

type Row = {
  stored: [string, number][] | null;
  contacts: (Omit<KnownContact, 'refreshedAt'> & { refreshedAt: string | null })[] | null;
  latest: LatestTicket[] | null;
};

/**
 * The three reads of storedIds, knownContacts and latestTickets as one statement, each part a
 * subquery: the store's transaction holds its contacts' locks for two round trips fewer. The latest
 * tickets are those of the contacts found by the same snapshot.
 */
const knownOf = statement('inbound_known', ['companyId', 'whatsappId', 'providerIds', 'numbers', 'lids'], (db, p) =>
  preparableSql(
    db,
    sql`with known as (
        select ${contacts.id} as "id", ${contacts.number} as "number", ${contacts.name} as "name",
          ${contacts.lid} as "lid", ${contacts.profileRefreshedAt} as "refreshedAt"
        from ${contacts}
        where ${contacts.companyId} = ${anyTenant(p.companyId)}
          and (${contacts.number} = any(${p.numbers}) or ${contacts.lid} = any(${p.lids}))
      ), latest as (
        select distinct on (${tickets.contactId}) ${tickets.id} as "id", ${tickets.contactId} as "contactId",
          ${tickets.status} as "status", ${tickets.queueId} as "queueId", ${tickets.userId} as "userId",
          ${tickets.awaitingRating} as "awaitingRating"
        from ${tickets}
        where ${tickets.companyId} = ${anyTenant(p.companyId)} and ${tickets.whatsappId} = ${anyTenant(p.whatsappId)}
          and ${tickets.contactId} in (select "id" from known)
        order by ${tickets.contactId}, ${tickets.status} <> 'closed' desc, ${tickets.updatedAt} desc
      )
      select
        (select json_agg(json_build_array(${messages.providerId}, ${messages.id})) from ${messages}
          where ${messages.companyId} = ${anyTenant(p.companyId)} and ${messages.whatsappId} = ${anyTenant(p.whatsappId)}
            and ${messages.providerId} = any(${p.providerIds})) as "stored",
        (select json_agg(known) from known) as "contacts",
        (select json_agg(latest) from latest) as "latest"`,
  ),
);

/** What the database knows of a batch's messages, their quotes, contacts and tickets, in one round trip. */
export async function knownOfBatch(
  tx: Db,
  companyId: number,
  whatsappId: number,
  batch: InboundMessage[],
): Promise<BatchKnown> {
  const providerIds = [
    ...new Set(batch.flatMap((m) => (m.quotedProviderId ? [m.providerId, m.quotedProviderId] : [m.providerId]))),
  ];
  const numbers = [...new Set(batch.map((m) => m.number))];
  const lids = [...new Set(batch.flatMap((m) => (m.lid ? [m.lid] : [])))];
  const [row] = rowsOf<Row>(await knownOf(tx, { companyId, whatsappId, providerIds, numbers, lids }));
  return {
    stored: new Map(row.stored ?? []),
    contacts: (row.contacts ?? []).map((c) => ({ ...c, refreshedAt: c.refreshedAt ? new Date(c.refreshedAt) : null })),
    latest: new Map((row.latest ?? []).map((t) => [t.contactId, t])),
  };
}
