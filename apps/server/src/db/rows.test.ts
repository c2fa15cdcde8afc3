import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import type { Database } from './client.js';
import { asJsonRows, jsonRowsOf } from './rows.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('asJsonRows', () => {
  it("answers each row as one JSON value with the query's column names, in the order asked", async () => {
    const query = sql`select n, timestamptz '2026-12-03 10:00:00.123456+00' + n * interval '1 day' as created_at,
        case when n = 2 then null else 'x' || n end as label, n % 2 = 0 as even
      from generate_series(1, 3) n order by n`;
    const rows = jsonRowsOf<{ n: number; created_at: string; label: string | null; even: boolean }>(
      await database.db.execute(asJsonRows(query, sql`r.n desc`)),
    );
    expect(rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }))).toEqual([
      { n: 3, created_at: '2026-12-06T10:00:00.123Z', label: 'x3', even: false },
      { n: 2, created_at: '2026-12-05T10:00:00.123Z', label: null, even: true },
      { n: 1, created_at: '2026-12-04T10:00:00.123Z', label: 'x1', even: false },
    ]);
  });

  it('answers no rows for a query that has none', async () => {
    const rows = jsonRowsOf(await database.db.execute(asJsonRows(sql`select 1 as one where false`)));
    expect(rows).toEqual([]);
  });
});
