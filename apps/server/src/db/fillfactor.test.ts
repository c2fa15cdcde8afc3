import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import type { Database } from './client.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/**
 * Migration 0023: the two tables updated most often keep room on their pages, so that an update
 * that changes no indexed column (marking a ticket read, a message's ack) is written in place
 * instead of into each of their indexes. Rows are stored to that mark from then on.
 */
describe('room for in-place updates', () => {
  it('tickets fill their pages to 80%, messages to 90%', async () => {
    const { rows } = await database.query<{ relname: string; reloptions: string[] | null }>(
      `select relname, reloptions from pg_class where relname in ('tickets', 'messages') and relkind = 'r' order by relname`,
    );
    expect(rows.map((r) => [r.relname, r.reloptions])).toEqual([
      ['messages', ['fillfactor=90']],
      ['tickets', ['fillfactor=80']],
    ]);
  });
});
