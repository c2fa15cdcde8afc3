import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import type { Database } from './client.js';
import { asJsonRows, jsonRowsOf, outputNames, rowsOf } from './rows.js';
import { isoOf } from './timestamps.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('asJsonRows', () => {
  it('answers each row as one JSON array of the columns named, in the order asked', async () => {
    const query = sql`select n, timestamptz '2026-12-03 10:00:00.123456+00' + n * interval '1 day' as created_at,
        case when n = 2 then null else 'x' || n end as label, n % 2 = 0 as even, n * 10 as total
      from generate_series(1, 3) n order by n`;
    const names = ['n', 'created_at', 'label', 'even', 'total'];
    const result = await database.db.execute(asJsonRows(query, names, sql`r.n desc`));
    // The names are not in the text PostgreSQL sends.
    expect(JSON.stringify(rowsOf(result))).not.toContain('created_at');
    const rows = jsonRowsOf<{ n: number; created_at: string; label: string | null; even: boolean }>(result, names);
    expect(rows.map((r) => ({ ...r, created_at: isoOf(r.created_at) }))).toEqual([
      { n: 3, created_at: '2026-12-06T10:00:00.123Z', label: 'x3', even: false, total: 30 },
      { n: 2, created_at: '2026-12-05T10:00:00.123Z', label: null, even: true, total: 20 },
      { n: 1, created_at: '2026-12-04T10:00:00.123Z', label: 'x1', even: false, total: 10 },
    ]);
  });

  it('answers no rows for a query that has none', async () => {
    const rows = jsonRowsOf(await database.db.execute(asJsonRows(sql`select 1 as one where false`, ['one'])), ['one']);
    expect(rows).toEqual([]);
  });

  it('reads only plain column names', async () => {
    const result = await database.db.execute(asJsonRows(sql`select 1 as one`, ['one']));
    expect(() => jsonRowsOf(result, ['one: 1, two'])).toThrow(TypeError);
  });
});

describe('outputNames', () => {
  it("names a select's columns as the table does and its expressions by their alias", () => {
    expect(outputNames({ lastMessage: tickets.lastMessage, id: tickets.id, n: sql`1`.as('n_alias') })).toEqual([
      'last_message',
      'id',
      'n_alias',
    ]);
    expect(() => outputNames({ n: sql`1` })).toThrow(TypeError);
  });
});
