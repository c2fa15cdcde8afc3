import pg from 'pg';
import type { Db } from '../src/db/client.js';

export interface SentStatement {
  text: string;
  values: unknown[];
}

type Queryable = { query: (...args: unknown[]) => unknown };

/**
 * The statements sent through `target.query` while `run` runs, with their values as the driver got
 * them; `onSent` sees each one with what the driver answered (a promise for the pool's clients).
 */
async function recordAt(
  target: Queryable,
  run: () => Promise<unknown>,
  onSent?: (text: string, answer: unknown) => void,
): Promise<SentStatement[]> {
  const query = target.query;
  const sent: SentStatement[] = [];
  target.query = function (this: unknown, ...args: unknown[]) {
    const [first, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof first === 'string' ? first : first.text;
    sent.push({ text, values: values ?? (typeof first === 'string' ? [] : (first.values ?? [])) });
    const answer = query.apply(this, args);
    onSent?.(text, answer);
    return answer;
  };
  try {
    await run();
  } finally {
    target.query = query;
  }
  return sent;
}

/**
 * The statements the database driver (PGlite, or the pg pool) receives while `run` runs, with their
 * values as the driver got them, recorded at its `query` method, beneath Drizzle. Statements run by
 * other work at the same time are recorded too: measure one request at a time.
 */
export function recordStatements(db: Db, run: () => Promise<unknown>): Promise<SentStatement[]> {
  return recordAt((db as unknown as { $client: Queryable }).$client, run);
}

/** How many statements `run` sends (see recordStatements). */
export async function countStatements(db: Db, run: () => Promise<unknown>): Promise<number> {
  return (await recordStatements(db, run)).length;
}

/**
 * The texts of the statements every PostgreSQL connection sends while `run` runs, transactions'
 * clients included (recordStatements sees the pool's own queries only). PostgreSQL only.
 */
export async function recordConnectionStatements(run: () => Promise<unknown>): Promise<string[]> {
  const sent = await recordAt(pg.Client.prototype as unknown as Queryable, run);
  return sent.map((s) => s.text);
}

/**
 * The order in which PostgreSQL connections send statements and get them answered while `run` runs:
 * `sent <kind>` for each statement `kindOf` names, then `answered(kind)`'s label once its answer
 * arrives, for the kinds it labels. What tells a statement pipelined behind another (sent before
 * that one's answer) from one that waited for it. PostgreSQL only.
 */
export async function recordPipelining(
  kindOf: (text: string) => string | undefined,
  answered: (kind: string) => string | undefined,
  run: () => Promise<unknown>,
): Promise<string[]> {
  const events: string[] = [];
  await recordAt(pg.Client.prototype as unknown as Queryable, run, (text, answer) => {
    const kind = kindOf(text);
    if (!kind) return;
    events.push(`sent ${kind}`);
    const label = answered(kind);
    if (label) (answer as Promise<unknown>).then(() => events.push(label));
  });
  return events;
}
