import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import { contacts } from '../modules/contacts/contacts.schema.js';
import type { Database } from './client.js';
import { insertMany } from './insert-many.js';
import { ensurePlatform } from './seed.js';

let database: Database;
let companyId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
  const [company] = await database.db.select({ id: companies.id }).from(companies).limit(1);
  companyId = company.id;
});
afterAll(() => database.close());

describe('insertMany', () => {
  it('inserts every row in one statement and returns them as Drizzle would (dates, booleans, nulls, defaults)', async () => {
    const refreshed = new Date('2026-01-02T03:04:05.678Z');
    const rows = await insertMany(database.db, contacts, [
      {
        companyId,
        name: 'O\'Brien, "Bob" {x}',
        number: '5511000000001',
        isGroup: false,
        profileRefreshedAt: refreshed,
      },
      { companyId, name: 'Grupo', number: '120363000000001', isGroup: true, lid: '99887766' },
    ]);
    expect(rows.map((r) => [r.name, r.number, r.isGroup, r.lid, r.profileRefreshedAt])).toEqual([
      ['O\'Brien, "Bob" {x}', '5511000000001', false, null, refreshed],
      ['Grupo', '120363000000001', true, '99887766', null],
    ]);
    expect(rows[0].createdAt).toBeInstanceOf(Date);
    expect(rows[0].uuid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await database.db.select().from(contacts).where(eq(contacts.id, rows[1].id));
    expect(stored[0]).toEqual(rows[1]);
  });

  it('skips conflicting rows when asked, and fails the whole statement otherwise', async () => {
    const row = { companyId, name: 'Dup', number: '5511000000002' };
    await insertMany(database.db, contacts, [row]);
    const again = await insertMany(database.db, contacts, [row, { ...row, number: '5511000000003' }], {
      onConflictDoNothing: true,
    });
    expect(again.map((r) => r.number)).toEqual(['5511000000003']);
    await expect(insertMany(database.db, contacts, [{ ...row, number: '5511000000004' }, row])).rejects.toThrow();
    const kept = await database.db.select().from(contacts).where(eq(contacts.number, '5511000000004'));
    expect(kept).toEqual([]);
  });

  it('refuses a column with a default given in some rows only, instead of writing nulls into it', async () => {
    await expect(
      insertMany(database.db, contacts, [
        { companyId, name: 'A', number: '5511000000005', isGroup: true },
        { companyId, name: 'B', number: '5511000000006' },
      ]),
    ).rejects.toThrow(/isGroup/);
  });
});
