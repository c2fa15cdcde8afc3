import { Column, is, SQL, sql } from 'drizzle-orm';

/** The rows of `db.execute(sql…)`: node-postgres answers `{rows}`, PGlite's driver the array itself. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);

/** The name each field of a select takes in its output: a column its own, an expression its alias. */
export function outputNames(fields: Record<string, unknown>): string[] {
  return Object.values(fields).map((field) => {
    if (is(field, Column)) return field.name;
    if (is(field, SQL.Aliased)) return field.fieldAlias;
    throw new TypeError('A JSON row holds columns and aliased expressions only');
  });
}

/**
 * `query`'s rows each as one JSON array of its columns `names` (at most 100), in `orderBy`'s order;
 * `jsonRowsOf` reads them back as objects. For wide rows: node-postgres sets up every column of a
 * result and parses every value apart, in JavaScript; a row that is one JSON value it parses once,
 * natively (the pending list's page of 21 tickets with 28 columns: 129 against 181 µs of Node CPU
 * per statement), and an array rather than `to_json`'s object leaves out the names, half of its text
 * for PostgreSQL to write and for Node to parse. Its values are as `to_json` writes them: timestamps
 * in ISO 8601 (`isoOf`), bigints as numbers.
 */
export const asJsonRows = (query: SQL, names: readonly string[], orderBy?: SQL): SQL =>
  sql`select json_build_array(${sql.join(
    names.map((n) => sql`r.${sql.identifier(n)}`),
    sql`, `,
  )}) as "row" from (${query}) r${orderBy ? sql` order by ${orderBy}` : sql``}`;

type RowReader = (values: unknown[]) => Record<string, unknown>;
const readers = new WeakMap<readonly string[], RowReader>();

/**
 * Turns a JSON array of `names`' values into an object under those names: compiled once per list
 * into a function returning an object literal, which V8 builds in a twentieth of the time that
 * storing each name in turn takes (a page of 21 tickets with 28 columns: 1 against 20 µs). The
 * names are our own, and must be plain identifiers to be written into the code.
 */
export function readerOf<T = Record<string, unknown>>(names: readonly string[]): (values: unknown[]) => T {
  let reader = readers.get(names);
  if (!reader) {
    const bad = names.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
    if (bad !== undefined) throw new TypeError(`Not a plain column name: ${bad}`);
    reader = new Function('v', `return { ${names.map((n, i) => `${n}: v[${i}]`).join(', ')} };`) as RowReader;
    readers.set(names, reader);
  }
  return reader as (values: unknown[]) => T;
}

/** The rows of an `asJsonRows` statement over `names`, as objects. */
export function jsonRowsOf<T>(result: unknown, names: readonly string[]): T[] {
  const read = readerOf(names);
  return rowsOf<{ row: unknown[] }>(result).map((r) => read(r.row) as T);
}
