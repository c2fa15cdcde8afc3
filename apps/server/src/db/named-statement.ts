import { createHash } from 'node:crypto';
import { type AnyColumn, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from './client.js';

/** A Drizzle query prepared under a name: its SQL text and, on node-postgres, the configs pg sends. */
export interface Prepared<T> {
  getQuery(): { sql: string };
  execute(values?: Record<string, unknown>): Promise<T>;
}
export interface Preparable<T> {
  prepare(name: string): Prepared<T>;
}
type NodePgConfigs = { rawQueryConfig?: { name?: string }; queryConfig?: { name?: string } };

/**
 * Prepares a hot read under a name: on PostgreSQL each pooled connection parses it once and may
 * reuse its plan (PGlite ignores the name). The name carries a hash of the SQL text because
 * filters change the text, and a name must always stand for one text on a connection. The hash is
 * taken from the prepared text and written into node-postgres's query configs (Drizzle 0.45's; a
 * version that moved them makes the PostgreSQL suite fail with pg's "Prepared statements must be
 * unique"). Behind PgBouncer in transaction mode this needs version 1.21 or later
 * (`max_prepared_statements`).
 */
export function prepareNamed<T>(name: string, query: Preparable<T>): Prepared<T> {
  const prepared = query.prepare(name);
  const digest = createHash('sha1').update(prepared.getQuery().sql).digest('hex').slice(0, 12);
  const configs = prepared as unknown as NodePgConfigs;
  for (const config of [configs.rawQueryConfig, configs.queryConfig]) if (config) config.name = `${name}_${digest}`;
  return prepared;
}

/**
 * A named query of fixed shape, built once per connection (connectionOf) with a placeholder for each of
 * `keys` and afterwards only executed with their values: building a query in Drizzle costs more
 * CPU than the database spends answering these reads. An UPDATE built once writes the values it
 * was built with, `$onUpdate` ones included: give it `updatedAt: sql\`now()\``.
 */
export function statement<const K extends string, T>(
  name: string,
  keys: readonly K[],
  build: (db: Db, p: Record<K, Placeholder<K>>) => Preparable<T>,
): (db: Db, values: Record<K, unknown>) => Promise<T> {
  const built = new WeakMap<object, Prepared<T>>();
  const placeholders = Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as Record<K, Placeholder<K>>;
  return (db, values) => {
    const connection = connectionOf(db);
    let prepared = built.get(connection);
    if (!prepared) {
      prepared = prepareNamed(name, build(db, placeholders));
      built.set(connection, prepared);
    }
    return prepared.execute(values);
  };
}

/**
 * What a query prepared on `db` runs on: the pool (or PGlite), or in a transaction of the pool the
 * pooled connection, which outlives the transaction. Keyed by it, a statement built in one
 * transaction serves the connection's later ones (keyed by the transaction's handle, it was built
 * again in each).
 */
export const connectionOf = (db: Db): object => (db as unknown as { session: { client: object } }).session.client;

type Session = { prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: false): Prepared<unknown> };
type Dialect = { sqlToQuery(query: SQL): unknown };

/**
 * SQL written as such, as a query to prepare on `db` (for prepareNamed or `statement`); it answers as
 * `db.execute`.
 */
export function preparableSql(db: Db, query: SQL): Preparable<unknown> {
  const { session, dialect } = db as unknown as { session: Session; dialect: Dialect };
  return { prepare: (n) => session.prepareQuery(dialect.sqlToQuery(query), undefined, n, false) };
}

/**
 * An array parameter out of the planner's sight, `(select $n::type[])::type[]`. Seeing the array,
 * PostgreSQL plans every call for its length and never switches to the generic plan, which assumes
 * ten elements and so looks dearer; not seeing it, the custom plans cost what the generic one does,
 * and from the sixth call the generic plan is kept: no planning. The outer cast makes the subquery
 * one value (`any(select …)` would compare the column with each of its rows).
 */
export const unseenArray = (param: unknown, type: string): SQL =>
  sql`(select ${param}::${sql.raw(type)}[])::${sql.raw(type)}[]`;

/**
 * `column = any($n)` with the array unseen (`unseenArray`), in a named statement: for key lookups,
 * and filters whose best plan does not depend on how many keys there are.
 */
export const anyOfUnseen = (column: AnyColumn, param: unknown, type: string): SQL =>
  sql`${column} = any(${unseenArray(param, type)})`;
