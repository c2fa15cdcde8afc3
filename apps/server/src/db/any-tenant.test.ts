import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../test/count-statements.js';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { rowsFilteredOut } from '../../test/plan.js';
import { connectedSandbox } from '../../test/sandbox-helpers.js';
import { loadAuthState } from '../channels/baileys/auth-state.js';
import type { InboundMessage } from '../channels/channel.js';
import { knownOfBatch } from '../inbound/batch-known.js';
import { knownContacts } from '../inbound/contacts-of.js';
import { storedIds, storeInbound } from '../inbound/store-inbound.js';
import { latestTickets } from '../inbound/ticket-for.js';
import type { Db } from './client.js';

/**
 * The lookups of many keys behind a company's or a connection's id (anyTenant) read only the rows
 * of their keys, also for a company that grew after the tables' last ANALYZE. Written with the id
 * as a plain parameter, PostgreSQL 15 read all of that company's rows on each lookup: before the
 * change these tests saw 2,987 rows filtered out for the messages, the contacts and the tickets, and
 * 29,986 for the Baileys keys.
 */
let server: TestServer;
let db: Db;
let known: Tenant;
let grown: Tenant;
const whatsapp = new Map<number, number>();
let grownContactIds: number[] = [];
const ROWS = 3_000;
const KEYS = 14;

const query = (text: string, values: unknown[] = []) => server.deps.database.query(text, values);
const whatsappOf = (tenant: Tenant) => whatsapp.get(tenant.companyId) as number;
const numberOf = (prefix: string, i: number) => `55119${prefix}${String(i).padStart(4, '0')}`;
const inbound = (tenant: Tenant, providerId: string, number: string): InboundMessage => ({
  companyId: tenant.companyId,
  whatsappId: whatsappOf(tenant),
  providerId,
  number,
  pushName: `Cliente ${number.slice(-4)}`,
  fromMe: false,
  body: 'Olá',
  mediaType: 'chat',
});

/** Filtered rows of the one statement `run` sends. */
async function filteredBy(run: () => Promise<unknown>) {
  const sent = await recordStatements(db, run);
  expect(sent).toHaveLength(1);
  return rowsFilteredOut(db, sent[0]);
}

/** `count` contacts with a ticket each, messages on the first ticket, ten times as many Baileys session keys. */
async function grow(tenant: Tenant, prefix: string, count: number) {
  const { results, announced } = await storeInbound(
    { db, realtime: server.deps.realtime, log: pino({ level: 'silent' }) },
    [{ message: inbound(tenant, `${prefix}-0`, numberOf(prefix, 0)) }],
  );
  await announced;
  const [first] = results;
  if ('skipped' in first) throw new Error('not stored');
  const [companyId, whatsappId] = [tenant.companyId, whatsappOf(tenant)];
  await query(
    `insert into contacts (company_id, name, number)
     select $1, 'Cliente ' || g, '55119${prefix}' || lpad(g::text, 4, '0') from generate_series(1, $2) g`,
    [companyId, count],
  );
  await query(
    `insert into tickets (company_id, contact_id, whatsapp_id, status)
     select $1, id, $2, 'closed' from contacts where company_id = $1 and id <> $3`,
    [companyId, whatsappId, first.contactId],
  );
  await query(
    `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, provider_id, body, from_me)
     select $1, $2, $3, $4, '${prefix}-' || g, 'Olá', false from generate_series(1, $5) g`,
    [companyId, first.ticketId, first.contactId, whatsappId, count],
  );
  await query(
    `insert into baileys_auth (whatsapp_id, type, key_id, value)
     select $1, 'session', 'k' || g, '{}' from generate_series(1, $2) g`,
    [whatsappId, count * 10],
  );
}

beforeAll(async () => {
  server = await createTestServer();
  db = server.deps.database.db;
  [known, grown] = [await createTenant(server), await createTenant(server)];
  for (const t of [known, grown]) whatsapp.set(t.companyId, await connectedSandbox(server, t.admin));
  // The statistics know the first company only; the second grows afterwards.
  await grow(known, '11', 200);
  await query('analyze');
  await grow(grown, '22', ROWS);
  grownContactIds = (
    await query(`select id from contacts where company_id = $1 order by id limit $2`, [grown.companyId, KEYS])
  ).rows.map((r) => r.id as number);
}, 60_000);
afterAll(() => server.close());

const wanted = Array.from({ length: KEYS }, (_, i) => 1 + i * 97);

describe('lookups by many keys of a company that grew after the last ANALYZE', () => {
  it("the connection's stored messages, by provider id", async () => {
    const ids = wanted.map((i) => `22-${i}`);
    const filtered = await filteredBy(async () => {
      const found = await storedIds(db, grown.companyId, whatsappOf(grown), [...ids, 'none']);
      expect([...found.keys()].sort()).toEqual([...ids].sort());
    });
    expect(filtered).toBe(0);
  });

  it("the company's contacts, by number and by LID", async () => {
    const numbers = wanted.map((i) => numberOf('22', i));
    await query(`update contacts set lid = number || '@lid' where company_id = $1 and number = any($2)`, [
      grown.companyId,
      numbers.slice(0, 4),
    ]);
    const byNumber = numbers.map((n, i) => inbound(grown, `NUMBER-${i}`, n));
    // A LID alone names the first four, with numbers that belong to nobody yet.
    const byLid = numbers
      .slice(0, 4)
      .map((n, i) => ({ ...inbound(grown, `LID-${i}`, `5511977${i}`), lid: `${n}@lid` }));
    for (const batch of [byNumber, [...byNumber.slice(4), ...byLid]]) {
      const filtered = await filteredBy(async () => {
        const found = await knownContacts(db, grown.companyId, batch);
        expect(found.map((c) => c.number).sort()).toEqual([...numbers].sort());
      });
      expect(filtered).toBe(0);
    }
  });

  it("the contacts' latest tickets on the connection", async () => {
    const filtered = await filteredBy(async () => {
      const latest = await latestTickets(db, grown.companyId, whatsappOf(grown), grownContactIds);
      expect([...latest.keys()].sort()).toEqual([...grownContactIds].sort());
    });
    expect(filtered).toBe(0);
  });

  it("the store's one read of a batch: its stored messages, its contacts and their latest tickets", async () => {
    const numbers = wanted.map((i) => numberOf('22', i));
    const batch = numbers.map((n, i) => inbound(grown, `22-${wanted[i]}`, n));
    const filtered = await filteredBy(async () => {
      const known = await knownOfBatch(db, grown.companyId, whatsappOf(grown), [...batch, inbound(grown, 'none', '0')]);
      expect([...known.stored.keys()].sort()).toEqual(batch.map((m) => m.providerId).sort());
      expect(known.contacts.map((c) => c.number).sort()).toEqual([...numbers].sort());
      expect([...known.latest.keys()].sort()).toEqual(known.contacts.map((c) => c.id).sort());
    });
    expect(filtered).toBe(0);
  });

  it("the Baileys connection's signal keys", async () => {
    const { state } = await loadAuthState(db, whatsappOf(grown));
    const ids = wanted.map((i) => `k${i}`);
    const filtered = await filteredBy(async () => {
      const found = await state.keys.get('session', [...ids, 'none']);
      expect(Object.keys(found).sort()).toEqual([...ids].sort());
    });
    expect(filtered).toBe(0);
  });
});
