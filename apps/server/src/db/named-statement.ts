import { createHash } from 'node:crypto';

/** A Drizzle query that can run as a prepared statement. */
interface Preparable<T> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<T> };
}

/**
 * Runs a hot read as a named prepared statement: on PostgreSQL each pooled connection parses it once
 * and may reuse its plan (PGlite ignores the name). The name carries a hash of the SQL text because
 * filters change the text, and a name must always stand for one text on a connection. Behind
 * PgBouncer in transaction mode this needs version 1.21 or later (`max_prepared_statements`).
 */
export function named<T>(name: string, query: Preparable<T>): Promise<T> {
  const digest = createHash('sha1').update(query.toSQL().sql).digest('hex').slice(0, 12);
  return query.prepare(`${name}_${digest}`).execute();
}
