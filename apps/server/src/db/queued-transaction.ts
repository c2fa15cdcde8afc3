import { sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client.js';

type PoolSession = { client: unknown; dialect: PgDialect; schema: never; options: never };

/**
 * `db.transaction(work)` whose BEGIN is queued on the pooled connection instead of awaited: the
 * driver sends the work's first statements right behind it, so a transaction on the critical path
 * (the inbound store) does not wait a round trip and a turn of this process before its first
 * statement. BEGIN fails only with its connection, and the statements queued behind it with it: the
 * work never runs outside the transaction it asked for. PGlite has one connection and no queue
 * to join: there it is `db.transaction`.
 */
export async function queuedTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const session = (db as unknown as { session: PoolSession }).session;
  if (!(session.client instanceof pg.Pool)) return db.transaction((tx) => work(tx as unknown as Db));
  const client = await session.client.connect();
  const tx = new NodePgTransaction(
    session.dialect,
    new NodePgSession(client, session.dialect, session.schema, session.options),
    session.schema,
  ) as unknown as Db;
  // Sent now (a Drizzle query runs when its `then` is called, again at each call: this is the one).
  const begun = tx.execute(sql`begin`).then(() => undefined);
  // Its failure is the work's first statement's too, and is thrown from there.
  begun.catch(() => undefined);
  let broken: Error | undefined;
  try {
    const result = await work(tx);
    await begun;
    await tx.execute(sql`commit`);
    return result;
  } catch (error) {
    await tx.execute(sql`rollback`).catch((err: Error) => {
      broken = err;
    });
    throw error;
  } finally {
    // A connection that could not even roll back is not given to anyone else.
    client.release(broken);
  }
}
