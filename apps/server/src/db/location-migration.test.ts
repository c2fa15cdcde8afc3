import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseLocation } from '@balcao/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import { contacts } from '../modules/contacts/contacts.schema.js';
import { messages } from '../modules/messages/messages.schema.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import { type Database, migrationsFolder } from './client.js';
import { ensurePlatform } from './seed.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
});
afterAll(() => database.close());

/** The migration's statements, run again on rows written the old way (the test database is already migrated). */
async function runMigration() {
  const text = await readFile(path.join(migrationsFolder, '0006_location_body.sql'), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) await database.db.execute(sql.raw(statement));
}

describe('migration 0006: location bodies', () => {
  it('rewrites old "name\\naddress\\nlink" bodies to image|link|description and leaves the rest alone', async () => {
    const { db } = database;
    const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
    const companyId = company.id;
    const [whatsapp] = await db.insert(whatsapps).values({ companyId, name: 'Migração' }).returning();
    const [contact] = await db
      .insert(contacts)
      .values({ companyId, name: 'Rita', number: '5511900000077' })
      .returning();
    const oldLast = 'Loja\nRua A, 1\nhttps://maps.google.com/maps?q=-23.5,-46.6';
    const [ticket] = await db
      .insert(tickets)
      .values({ companyId, contactId: contact.id, whatsappId: whatsapp.id, lastMessage: oldLast })
      .returning();
    const [other] = await db
      .insert(tickets)
      .values({
        companyId,
        contactId: contact.id,
        whatsappId: whatsapp.id,
        status: 'closed',
        // Typed text that looks like an old location: no location message has it, so it stays.
        lastMessage: 'veja\nhttps://maps.google.com/maps?q=1,2',
      })
      .returning();
    const row = (body: string, mediaType: 'locationMessage' | 'chat' = 'locationMessage') => ({
      companyId,
      ticketId: ticket.id,
      contactId: contact.id,
      whatsappId: whatsapp.id,
      body,
      mediaType,
    });
    const current = '|https://maps.google.com/maps?q=1%2C2&z=17|Praça, Centro';
    await db
      .insert(messages)
      .values([
        row(oldLast),
        row('Só nome | com pipe\nhttps://maps.google.com/maps?q=-1.5,2'),
        row('https://maps.google.com/maps?q=3,4'),
        row(current),
        row('oi\nhttps://maps.google.com/maps?q=5,6', 'chat'),
        { ...row('veja\nhttps://maps.google.com/maps?q=1,2', 'chat'), ticketId: other.id },
      ]);

    await runMigration();

    const bodies = (
      await db.select().from(messages).where(eq(messages.whatsappId, whatsapp.id)).orderBy(asc(messages.id))
    ).map((m) => m.body);
    expect(bodies).toEqual([
      '|https://maps.google.com/maps?q=-23.5,-46.6|Loja, Rua A, 1',
      '|https://maps.google.com/maps?q=-1.5,2|Só nome / com pipe',
      '|https://maps.google.com/maps?q=3,4|',
      current,
      'oi\nhttps://maps.google.com/maps?q=5,6',
      'veja\nhttps://maps.google.com/maps?q=1,2',
    ]);
    expect(parseLocation(bodies[0])).toEqual({
      image: '',
      link: 'https://maps.google.com/maps?q=-23.5,-46.6',
      description: 'Loja, Rua A, 1',
    });
    const previews = await db
      .select({ id: tickets.id, last: tickets.lastMessage })
      .from(tickets)
      .where(eq(tickets.whatsappId, whatsapp.id))
      .orderBy(asc(tickets.id));
    expect(previews.map((t) => t.last)).toEqual([bodies[0], 'veja\nhttps://maps.google.com/maps?q=1,2']);

    // A second run changes nothing.
    await runMigration();
    const again = await db
      .select()
      .from(messages)
      .where(eq(messages.whatsappId, whatsapp.id))
      .orderBy(asc(messages.id));
    expect(again.map((m) => m.body)).toEqual(bodies);
  });
});
