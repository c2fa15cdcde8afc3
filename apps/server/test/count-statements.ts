import pg from 'pg';
import type { Db } from '../src/db/client.js';

export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * The statements the database driver (PGlite, or the pg pool) receives while `run` runs, with their
 * values as the driver got them, recorded at its `query` method, beneath Drizzle. Statements run by
 * other work at the same time are recorded too: measure one request at a time.
 */
export async function recordStatements(db: Db, run: () => Promise<unknown>): Promise<SentStatement[]> {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query;
  const sent: SentStatement[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const [first, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof first === 'string' ? first : first.text;
    sent.push({ text, values: values ?? (typeof first === 'string' ? [] : (first.values ?? [])) });
    return query.apply(this, args);
  };
  try {
    await run();
  } finally {
    client.query = query;
  }
  return sent;
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
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  const sent: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    sent.push(typeof first === 'string' ? first : first.text);
    return query.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto.query = query;
  }
  return sent;
}
