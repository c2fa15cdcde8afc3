import pg from 'pg';
import type { Database } from '../src/db/client.js';

/**
 * `n` connections of their own to a test's PostgreSQL database (outside its pool), for transactions
 * held open side by side; the caller ends them.
 */
export async function ownConnections(database: Database, n: number): Promise<pg.Client[]> {
  const { rows } = await database.query<{ db: string }>('select current_database() db');
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${rows[0].db}`;
  const clients = Array.from({ length: n }, () => new pg.Client(url.toString()));
  await Promise.all(clients.map((c) => c.connect()));
  return clients;
}
