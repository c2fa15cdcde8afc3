import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import type { Database } from './client.js';
import { rowsOf } from './rows.js';
import { ensurePlatform } from './seed.js';
import { commitUnflushed } from './unflushed-commit.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
});
afterAll(() => database.close());

const synchronousCommit = async (db: Database['db']) =>
  rowsOf<{ s: string }>(await db.execute(sql`select current_setting('synchronous_commit') s`))[0].s;

describe('commitUnflushed', () => {
  it('turns the flush wait off for its own transaction only, even when its statement writes nothing', async () => {
    const inside = await database.db.transaction(async (tx) => {
      const written = await tx
        .update(companies)
        .set({ name: 'Nunca' })
        .where(and(eq(companies.id, -1), commitUnflushed))
        .returning();
      expect(written).toEqual([]);
      return synchronousCommit(tx as unknown as Database['db']);
    });
    expect(inside).toBe('off');
    expect(await synchronousCommit(database.db)).toBe('on');
  });

  it('changes nothing of what the statement writes', async () => {
    const [company] = await database.db.select().from(companies).limit(1);
    const written = await database.db
      .update(companies)
      .set({ name: 'Empresa lida' })
      .where(and(eq(companies.id, company.id), commitUnflushed))
      .returning({ name: companies.name });
    expect(written).toEqual([{ name: 'Empresa lida' }]);
    const [after] = await database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(after.name).toBe('Empresa lida');
  });
});
