import { createHash } from 'node:crypto';

/** A Drizzle query prepared under a name: its SQL text and, on node-postgres, the configs pg sends. */
interface Prepared<T> {
  getQuery(): { sql: string };
  execute(): Promise<T>;
}
type NodePgConfigs = { rawQueryConfig?: { name?: string }; queryConfig?: { name?: string } };

/**
 * Runs a hot read as a named prepared statement: on PostgreSQL each pooled connection parses it once
 * and may reuse its plan (PGlite ignores the name). The name carries a hash of the SQL text because
 * filters change the text, and a name must always stand for one text on a connection. The query is
 * built once: the hash is taken from the prepared text and written into node-postgres's query configs
 * (Drizzle 0.45's; a version that moved them makes the PostgreSQL suite fail with pg's "Prepared
 * statements must be unique"). Behind PgBouncer in transaction mode this needs version 1.21 or later
 * (`max_prepared_statements`).
 */
export function named<T>(name: string, query: { prepare(name: string): Prepared<T> }): Promise<T> {
  const prepared = query.prepare(name);
  const digest = createHash('sha1').update(prepared.getQuery().sql).digest('hex').slice(0, 12);
  const configs = prepared as unknown as NodePgConfigs;
  for (const config of [configs.rawQueryConfig, configs.queryConfig]) if (config) config.name = `${name}_${digest}`;
  return prepared.execute();
}
