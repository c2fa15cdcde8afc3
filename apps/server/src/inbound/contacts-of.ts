import { and, eq, or, sql } from 'drizzle-orm';
import type { InboundMessage } from '../channels/channel.js';
import { anyTenant } from '../db/any-tenant.js';
import type { Db } from '../db/client.js';
import { insertMany } from '../db/insert-many.js';
import { statement } from '../db/named-statement.js';
import { contacts } from '../modules/contacts/contacts.schema.js';

const DAY_MS = 86_400_000;

export type KnownContact = { id: number; number: string; name: string; lid: string | null; refreshedAt: Date | null };

const nameOf = (m: InboundMessage) => (m.isGroup ? m.groupName : m.pushName)?.trim().slice(0, 100) || m.number;

/** A contact is the same person when its number or its LID matches; the number wins. */
function match(known: KnownContact[], m: InboundMessage): KnownContact | undefined {
  return known.find((c) => c.number === m.number) ?? (m.lid ? known.find((c) => c.lid === m.lid) : undefined);
}

const knownColumns = {
  id: contacts.id,
  number: contacts.number,
  name: contacts.name,
  lid: contacts.lid,
  refreshedAt: contacts.profileRefreshedAt,
};
const byNumbers = statement('inbound_contacts', ['companyId', 'numbers'], (db, p) =>
  db
    .select(knownColumns)
    .from(contacts)
    .where(and(eq(contacts.companyId, anyTenant(p.companyId)), sql`${contacts.number} = any(${p.numbers})`)),
);
const byNumbersOrLids = statement('inbound_contacts_lids', ['companyId', 'numbers', 'lids'], (db, p) =>
  db
    .select(knownColumns)
    .from(contacts)
    .where(
      and(
        eq(contacts.companyId, anyTenant(p.companyId)),
        or(sql`${contacts.number} = any(${p.numbers})`, sql`${contacts.lid} = any(${p.lids})`),
      ),
    ),
);

/** The company's known contacts among the batch's numbers and LIDs. */
export function knownContacts(tx: Db, companyId: number, batch: InboundMessage[]): Promise<KnownContact[]> {
  const numbers = [...new Set(batch.map((m) => m.number))];
  const lids = [...new Set(batch.flatMap((m) => (m.lid ? [m.lid] : [])))];
  return lids.length ? byNumbersOrLids(tx, { companyId, numbers, lids }) : byNumbers(tx, { companyId, numbers });
}

/**
 * What a message teaches about a known contact (DOMAIN §1.4): a name while it is unknown, the
 * daily profile refresh, and the LID / phone pair that merges both identities on one contact.
 */
function lessons(c: KnownContact, m: InboundMessage, known: KnownContact[]) {
  const name = nameOf(m);
  const set: Partial<typeof contacts.$inferInsert> = {};
  if (!c.refreshedAt || Date.now() - c.refreshedAt.getTime() > DAY_MS) set.profileRefreshedAt = new Date();
  if (c.name === c.number && name !== m.number) set.name = name;
  if (m.lid && c.lid !== m.lid) set.lid = m.lid;
  // Known by its LID until now, the phone number arrives: the contact takes it unless another has it.
  if (c.number !== m.number && c.lid === m.lid && !known.some((o) => o.number === m.number)) set.number = m.number;
  return set;
}

/**
 * The contact of every message of one connection's batch, in message order: `knownBefore` (read for
 * all of them by knownOfBatch), one insert for the new ones (read again only if another writer beat
 * it to one), and a write only where something was learnt. `refreshed`: the contacts created or due
 * for their daily profile refresh, whose picture is fetched once the batch is stored; `created`: the
 * new ones.
 */
export async function contactsOf(
  tx: Db,
  companyId: number,
  batch: InboundMessage[],
  knownBefore: KnownContact[],
): Promise<{ ids: number[]; refreshed: Set<number>; created: number[] }> {
  const refreshed = new Set<number>();
  const createdIds: number[] = [];
  let known = knownBefore;
  const fresh = new Map<string, InboundMessage>();
  for (const m of batch) if (!match(known, m) && !fresh.has(m.number)) fresh.set(m.number, m);
  if (fresh.size) {
    const created = await insertMany(
      tx,
      contacts,
      [...fresh.values()].map((m) => ({
        companyId,
        number: m.number,
        name: nameOf(m),
        lid: m.lid ?? null,
        isGroup: m.isGroup ?? false,
        profileRefreshedAt: new Date(),
      })),
      { onConflictDoNothing: true },
    );
    for (const c of created) {
      refreshed.add(c.id);
      createdIds.push(c.id);
    }
    const toKnown = (c: (typeof created)[number]): KnownContact => ({ ...c, refreshedAt: c.profileRefreshedAt });
    // Created at the same moment by an agent or another connection: read them again.
    known =
      created.length === fresh.size ? [...known, ...created.map(toKnown)] : await knownContacts(tx, companyId, batch);
  }
  const taught = new Set<number>();
  const ids: number[] = [];
  for (const m of batch) {
    const c = match(known, m);
    if (!c) throw new Error(`contact ${m.number} neither found nor created`);
    ids.push(c.id);
    if (taught.has(c.id)) continue;
    taught.add(c.id);
    const set = lessons(c, m, known);
    if (set.profileRefreshedAt) refreshed.add(c.id);
    if (Object.keys(set).length) await tx.update(contacts).set(set).where(eq(contacts.id, c.id));
  }
  return { ids, refreshed, created: createdIds };
}
