import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.js';

/** First half of the two-int advisory lock key: "Baileys socket" (the second half is the connection id). */
export const LOCK_SPACE = 0x42a1e5;

export interface SocketLock {
  release(): Promise<void>;
}

/** PGlite is one session, where advisory locks are re-entrant: the process remembers what it holds. */
const heldInProcess = new WeakMap<object, Set<number>>();

/**
 * Ownership of a connection's socket across server instances: a session-level advisory lock on a
 * dedicated PostgreSQL connection, held for the socket's life. PostgreSQL releases it by itself
 * when that connection (or the process) dies; `onLost` then tells the owner to close its socket.
 * Resolves null when another instance (or channel) owns the connection.
 */
export async function acquireSocketLock(db: Db, whatsappId: number, onLost: () => void): Promise<SocketLock | null> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) return lockOnOwnConnection(client, whatsappId, onLost);

  const held = heldInProcess.get(client as object) ?? new Set<number>();
  heldInProcess.set(client as object, held);
  if (held.has(whatsappId)) return null;
  const taken = await tryLock(db, whatsappId);
  if (!taken) return null;
  held.add(whatsappId);
  return {
    async release() {
      if (!held.delete(whatsappId)) return;
      await db.execute(sql`select pg_advisory_unlock(${LOCK_SPACE}, ${whatsappId})`);
    },
  };
}

async function tryLock(db: Db, whatsappId: number): Promise<boolean> {
  const result = (await db.execute(
    sql`select pg_try_advisory_lock(${LOCK_SPACE}, ${whatsappId}) as ok`,
  )) as unknown as {
    rows: { ok: boolean }[];
  };
  return result.rows[0]?.ok === true;
}

async function lockOnOwnConnection(pool: pg.Pool, whatsappId: number, onLost: () => void): Promise<SocketLock | null> {
  // Outside the pool: a connection per live socket must not starve the request queries.
  const options = (pool as unknown as { options: pg.ClientConfig }).options;
  const conn = new pg.Client({ ...options, keepAlive: true });
  let released = false;
  const lost = () => {
    if (released) return;
    released = true;
    onLost();
  };
  conn.on('error', lost);
  conn.on('end', lost);
  await conn.connect();
  const { rows } = await conn.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [
    LOCK_SPACE,
    whatsappId,
  ]);
  if (!rows[0]?.ok) {
    released = true;
    await conn.end();
    return null;
  }
  return {
    async release() {
      if (released) return;
      released = true;
      // Closing the session drops the lock.
      await conn.end().catch(() => undefined);
    },
  };
}
