import type { Db } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import type { SentStatement } from './count-statements.js';

interface PlanNode {
  'Node Type': string;
  'Index Cond'?: string;
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
