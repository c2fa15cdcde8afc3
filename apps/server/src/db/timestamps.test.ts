import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import type { Database } from './client.js';
import { rowsOf } from './rows.js';
import { isoOf } from './timestamps.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('isoOf', () => {
  it('writes every form PostgreSQL gives as a Date would', () => {
    for (const text of [
      '2026-12-04T12:43:37.114799+00:00',
      '2026-12-04T12:43:37.999999+00:00',
      '2026-12-04T12:43:37.000001+00:00',
      '2026-12-04 12:43:37.114799+00',
      '2026-12-04 23:59:59.999999+00',
      // Fewer digits: PostgreSQL drops trailing zeros.
      '2026-12-04T12:43:37.1+00:00',
      '2026-12-04T12:43:37+00:00',
      '2026-12-04 12:43:37.12+00',
      // Another session time zone.
      '2026-12-04T09:43:37.114799-03:00',
      '2026-12-04 09:43:37.114799-03',
      '2026-12-05T01:13:37.114799+12:30',
    ])
      expect(isoOf(text), text).toBe(new Date(text).toISOString());
  });

  it('reads what PostgreSQL writes for a stored timestamp', async () => {
    const at = new Date('2026-12-04T12:43:37.114Z');
    const [row] = rowsOf<{ j: string; t: string }>(
      await database.query(
        `select to_json(t) j, t::text t from (select $1::timestamptz + interval '799 microseconds' t) s`,
        [at.toISOString()],
      ),
    );
    expect(isoOf(row.j)).toBe(at.toISOString());
    expect(isoOf(row.t)).toBe(at.toISOString());
  });
});
