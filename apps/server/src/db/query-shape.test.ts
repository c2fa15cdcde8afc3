import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import type { Database } from './client.js';
import { anyOf, QueryShape, shaped } from './query-shape.js';
import { ensurePlatform } from './seed.js';

let database: Database;
let ids: number[];
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
  const [{ planId }] = await database.db.select({ planId: companies.planId }).from(companies).limit(1);
  const rows = await database.db
    .insert(companies)
    .values([
      { name: 'Alfa', planId },
      { name: 'Beta', planId },
      { name: 'Gama', planId },
    ])
    .returning({ id: companies.id });
  ids = rows.map((r) => r.id);
});
afterAll(() => database.close());

/** The companies among `wanted`, by a query of one shape whatever the number of ids. */
function companiesAmong(wanted: number[], builds: { count: number }) {
  const shape = QueryShape.bound();
  const where = anyOf(companies.id, shape, 'ids', wanted);
  return shaped('test_companies', database.db, shape, () => {
    builds.count += 1;
    return database.db.select({ name: companies.name }).from(companies).where(where).orderBy(companies.id);
  });
}

describe('queries built once per shape', () => {
  it('builds a shape once and runs it with each call’s values, arrays of any length as one parameter', async () => {
    const builds = { count: 0 };
    expect(await companiesAmong([ids[0]], builds)).toEqual([{ name: 'Alfa' }]);
    expect(await companiesAmong([ids[1], ids[2]], builds)).toEqual([{ name: 'Beta' }, { name: 'Gama' }]);
    expect(await companiesAmong([], builds)).toEqual([]);
    expect(builds.count).toBe(1);
  });

  it('an inline shape binds its values at once, for a query run as it is built', async () => {
    const shape = QueryShape.inline();
    const rows = await database.db
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, shape.value('id', ids[1])));
    expect(rows).toEqual([{ name: 'Beta' }]);
    expect(shape.values).toEqual({});
  });

  it('one name holds one value: binding it again with another is a programming error', () => {
    const shape = QueryShape.bound();
    shape.value('userId', 7);
    expect(() => shape.value('userId', 7)).not.toThrow();
    expect(() => shape.value('userId', 8)).toThrow('bound twice');
  });
});
