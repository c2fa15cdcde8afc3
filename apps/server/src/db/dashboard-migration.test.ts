import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import { contacts } from '../modules/contacts/contacts.schema.js';
import { tickets, ticketTraking } from '../modules/tickets/tickets.schema.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import { type Database, migrationsFolder } from './client.js';
import { ensurePlatform } from './seed.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
});
afterAll(() => database.close());

/** The migration's data statements, run again on cycles written before it (the test database is migrated). */
async function runBackfill() {
  const text = await readFile(path.join(migrationsFolder, '0009_dashboard_tracking.sql'), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (/^\s*(--[^\n]*\n\s*)*UPDATE/.test(statement)) await database.db.execute(sql.raw(statement));
  }
}

describe('migration 0009: the dashboard’s tracking', () => {
  it('fills the durations of older cycles and marks the first cycle of each contact’s first ticket as its lead', async () => {
    const { db } = database;
    const [{ id: companyId }] = await db.select({ id: companies.id }).from(companies).limit(1);
    const [whatsapp] = await db.insert(whatsapps).values({ companyId, name: 'Migração' }).returning();
    const [ana, rui] = await db
      .insert(contacts)
      .values([
        { companyId, name: 'Ana', number: '5511900000081' },
        { companyId, name: 'Rui', number: '5511900000082' },
      ])
      .returning();
    const ticket = async (contactId: number, createdAt: string) =>
      (
        await db
          .insert(tickets)
          .values({ companyId, contactId, whatsappId: whatsapp.id, status: 'closed', createdAt: new Date(createdAt) })
          .returning()
      )[0].id;
    const anaFirst = await ticket(ana.id, '2026-01-01T10:00:00Z');
    const anaLater = await ticket(ana.id, '2026-02-01T10:00:00Z');
    const ruiOnly = await ticket(rui.id, '2026-03-01T10:00:00Z');
    const cycle = async (ticketId: number, queued: string, started: string | null, finished: string | null) =>
      (
        await db
          .insert(ticketTraking)
          .values({
            companyId,
            ticketId,
            queuedAt: new Date(queued),
            startedAt: started ? new Date(started) : null,
            finishedAt: finished ? new Date(finished) : null,
          })
          .returning()
      )[0].id;
    const a1 = await cycle(anaFirst, '2026-01-01T10:00:00Z', '2026-01-01T10:05:00Z', '2026-01-01T10:35:30Z');
    const a2 = await cycle(anaFirst, '2026-01-05T10:00:00Z', null, '2026-01-05T11:00:00Z');
    const a3 = await cycle(anaLater, '2026-02-01T10:00:00Z', '2026-02-01T10:00:20Z', null);
    const r1 = await cycle(ruiOnly, '2026-03-01T10:00:00Z', null, null);

    await runBackfill();
    const rows = await db
      .select({
        id: ticketTraking.id,
        lead: ticketTraking.lead,
        waitSeconds: ticketTraking.waitSeconds,
        supportSeconds: ticketTraking.supportSeconds,
      })
      .from(ticketTraking)
      .where(eq(ticketTraking.companyId, companyId))
      .orderBy(asc(ticketTraking.id));
    expect(rows).toEqual([
      { id: a1, lead: true, waitSeconds: 300, supportSeconds: 1830 },
      { id: a2, lead: false, waitSeconds: null, supportSeconds: null },
      { id: a3, lead: false, waitSeconds: 20, supportSeconds: null },
      { id: r1, lead: true, waitSeconds: null, supportSeconds: null },
    ]);
  });
});
