import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import type { Database } from './client.js';
import { statement } from './named-statement.js';
import { ensurePlatform } from './seed.js';

let database: Database;
let other: Database;
let planId: number;
beforeAll(async () => {
  [database, other] = await Promise.all([openTestDatabase(), openTestDatabase()]);
  await Promise.all([ensurePlatform(database.db, SUPER), ensurePlatform(other.db, SUPER)]);
  [{ planId }] = await database.db.select({ planId: companies.planId }).from(companies).limit(1);
  await database.db.insert(companies).values([
    { name: 'Alfa', planId },
    { name: 'Beta', planId },
  ]);
});
afterAll(() => Promise.all([database.close(), other.close()]));

/** The configs the driver receives, beneath Drizzle. */
function sentConfigs(db: Database['db']) {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query;
  const sent: { name?: string; text?: string }[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    sent.push(args[0] as { name?: string; text?: string });
    return query.apply(this, args);
  };
  return { sent, restore: () => (client.query = query) };
}

describe('statement', () => {
  it('builds the query once per database and answers each call with its own values', async () => {
    let builds = 0;
    const companyNamed = statement('test_company_named', ['name'], (db, p) => {
      builds += 1;
      return db.select({ name: companies.name }).from(companies).where(eq(companies.name, p.name));
    });
    expect(await companyNamed(database.db, { name: 'Alfa' })).toEqual([{ name: 'Alfa' }]);
    expect(await companyNamed(database.db, { name: 'Beta' })).toEqual([{ name: 'Beta' }]);
    expect(await companyNamed(database.db, { name: 'Gama' })).toEqual([]);
    expect(builds).toBe(1);
    // Another database (another pool) gets its own: a prepared query is bound to its handle.
    expect(await companyNamed(other.db, { name: 'Alfa' })).toEqual([]);
    expect(builds).toBe(2);
  });

  it("in transactions, builds the query once per pooled connection and runs it in each transaction's own", async () => {
    let builds = 0;
    const companyNamed = statement('test_company_named_tx', ['name'], (db, p) => {
      builds += 1;
      return db.select({ name: companies.name }).from(companies).where(eq(companies.name, p.name));
    });
    const found: unknown[] = [];
    const inTransaction = (name: string) =>
      database.db.transaction(async (tx) => {
        // What the transaction wrote is what the statement reads: it runs on the transaction's connection.
        await tx.insert(companies).values({ name, planId });
        found.push(await companyNamed(tx as unknown as Database['db'], { name }));
        tx.rollback();
      });
    for (const name of ['Delta', 'Épsilon', 'Zeta']) await expect(inTransaction(name)).rejects.toThrow('Rollback');
    expect(found).toEqual([[{ name: 'Delta' }], [{ name: 'Épsilon' }], [{ name: 'Zeta' }]]);
    expect(await companyNamed(database.db, { name: 'Delta' })).toEqual([]);
    // One transaction after the other takes the same pooled connection (PGlite gives each its own handle).
    expect(builds).toBe(database.kind === 'postgres' ? 2 : 4);
  });

  it('on PostgreSQL, sends one name for one text on every call', async ({ skip }) => {
    if (database.kind !== 'postgres') skip('PGlite has no named statements');
    const byId = statement('test_company_by_id', ['id'], (db, p) =>
      db.select({ id: companies.id }).from(companies).where(eq(companies.id, p.id)),
    );
    const { sent, restore } = sentConfigs(database.db);
    try {
      for (let id = 1; id <= 30; id++) await byId(database.db, { id });
    } finally {
      restore();
    }
    expect(sent).toHaveLength(30);
    expect(new Set(sent.map((c) => c.name)).size).toBe(1);
    expect(sent[0].name).toMatch(/^test_company_by_id_[0-9a-f]{12}$/);
  });
});
