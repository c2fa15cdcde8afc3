import type { Db } from '../src/db/client.js';

/**
 * The number of statements the database driver (PGlite, or the pg pool) receives while `run` runs,
 * counted at its `query` method, beneath Drizzle. Statements run by other work at the same time
 * count too: measure one request at a time.
 */
export async function countStatements(db: Db, run: () => Promise<unknown>): Promise<number> {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query;
  let statements = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    return query.apply(this, args);
  };
  try {
    await run();
  } finally {
    client.query = query;
  }
  return statements;
}
