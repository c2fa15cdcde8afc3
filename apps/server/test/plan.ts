import type pg from 'pg';
import type { Db } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import type { SentStatement } from './count-statements.js';

interface PlanNode {
  'Node Type': string;
  'Index Cond'?: string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/**
 * The rows `statement`'s plan read and then dropped in a filter, over all its nodes and loops: its
 * EXPLAIN ANALYZE, so the statement runs again (give it reads only).
 */
export async function rowsFilteredOut(db: Db, statement: SentStatement): Promise<number> {
  const client = (db as unknown as { $client: { query(text: string, values: unknown[]): Promise<unknown> } }).$client;
  const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(
    await client.query(`explain (analyze, format json) ${statement.text}`, statement.values),
  );
  const raw = row['QUERY PLAN'];
  const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const filtered = (node: PlanNode): number =>
    (node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1) +
    (node.Plans ?? []).reduce((sum, child) => sum + filtered(child), 0);
  return filtered(Plan);
}

/** `value` as an SQL literal, for EXECUTE's arguments (which take no bind parameters). */
function literal(value: unknown, quote: (s: string) => string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return quote(value.toISOString());
  if (Array.isArray(value))
    return quote(
      `{${value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`,
    );
  return quote(String(value));
}

/**
 * The indexes the generic plan of `statement` reads (PostgreSQL only): the plan a named statement
 * keeps once PostgreSQL stops planning each call. Not run: EXPLAIN of an EXECUTE.
 */
export async function genericPlanIndexes(db: Db, statement: SentStatement): Promise<string[]> {
  type Client = {
    query(text: string): Promise<{ rows: { 'QUERY PLAN': unknown }[] }>;
    escapeLiteral(s: string): string;
    release(destroy: boolean): void;
  };
  const pool = (db as unknown as { $client: { connect(): Promise<Client> } }).$client;
  const client = await pool.connect();
  try {
    await client.query('set plan_cache_mode = force_generic_plan');
    await client.query(`prepare generic_probe as ${statement.text}`);
    const args = statement.values.map((v) => literal(v, (s) => client.escapeLiteral(s)));
    const [row] = (
      await client.query(`explain (format json) execute generic_probe${args.length ? `(${args.join(', ')})` : ''}`)
    ).rows;
    const raw = row['QUERY PLAN'];
    const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    const indexes = (node: PlanNode): string[] => [
      ...(node['Index Name'] ? [node['Index Name']] : []),
      ...(node.Plans ?? []).flatMap(indexes),
    ];
    return indexes(Plan);
  } finally {
    // Closed, not returned to the pool: it holds the prepared probe and the plan mode.
    client.release(true);
  }
}

/**
 * How PostgreSQL planned `statement` over seven calls under one name on one pooled connection:
 * from the sixth, a statement whose custom plans cost no less than its generic one keeps the latter.
 */
export async function plansOf(db: Db, statement: SentStatement): Promise<{ generic: number; custom: number }> {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    for (let i = 0; i < 7; i++) await client.query({ name: 'probe', text: statement.text, values: statement.values });
    const { rows } = await client.query(
      `select generic_plans::int generic, custom_plans::int custom from pg_prepared_statements where name = 'probe'`,
    );
    return rows[0] as { generic: number; custom: number };
  } finally {
    // Closed, not returned: its statement named "probe" would clash with the next text.
    client.release(true);
  }
}
