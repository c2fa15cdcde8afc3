import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** One Drizzle type for both drivers: services never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw parameterised SQL, for pg-boss and the few places Drizzle cannot express. */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: T[] }>;
  /** Several statements in one call, without parameters; returns the last statement's rows. */
  exec<T = Record<string, unknown>>(text: string): Promise<{ rows: T[] }>;
  migrate(): Promise<void>;
  /** Follows a notification channel until the returned function is called (see `ChannelHandlers`). */
  listen(channel: string, handlers: ChannelHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * What a listener hears. `ready` comes each time the subscription is (re)established: nothing
 * committed after it is missed. `lost` comes when notifications may have been missed since (its
 * connection dropped: PostgreSQL only); `ready` follows once it is listening again.
 */
export interface ChannelHandlers {
  message(payload: string): void;
  ready(): void;
  lost(): void;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    query: async (text, values) => {
      const r = await client.query(text, values as unknown[] | undefined);
      return { rows: r.rows as never[] };
    },
    exec: async (text) => {
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as never[] };
    },
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    listen: async (channel, handlers) => {
      const stop = await client.listen(channel, handlers.message);
      handlers.ready();
      return () => stop();
    },
    close: () => client.close(),
  };
}

export function fromPostgres(url: string, poolSize = 20): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection closed by the server (restart, failover, pg_terminate_backend) is reported
  // on the pool; without a listener that 'error' event would crash the process. The pool drops it.
  pool.on('error', (err) => console.error(`database: idle connection lost: ${err.message}`));
  // `pool.end()` resolves before its connections are closed: count them so `close()` waits.
  let open = 0;
  let drained: (() => void) | undefined;
  pool.on('connect', () => {
    open += 1;
  });
  pool.on('remove', () => {
    open -= 1;
    if (open === 0) drained?.();
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    query: async (text, values) => {
      const r = await pool.query(text, values as unknown[] | undefined);
      return { rows: r.rows };
    },
    exec: async (text) => {
      const result = (await pool.query(text)) as pg.QueryResult | pg.QueryResult[];
      return { rows: Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows };
    },
    migrate: () => migratePg(db as never, { migrationsFolder }),
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    close: async () => {
      const closed =
        open === 0
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              drained = resolve;
            });
      await pool.end();
      await closed;
    },
  };
}

/** The wait before listening again after the listening connection dropped. */
const RELISTEN_DELAY_MS = 1000;

/**
 * LISTEN needs a connection of its own, outside the pool, for as long as it follows the channel
 * (behind PgBouncer, a session-mode one). A dropped connection reports `lost` and is replaced.
 */
async function listenPostgres(url: string, channel: string, handlers: ChannelHandlers) {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const drop = (client: pg.Client) => {
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (current !== client) return;
    current = undefined;
    handlers.lost();
    if (!stopped) {
      retry = setTimeout(connect, RELISTEN_DELAY_MS);
      retry.unref();
    }
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    current = client;
    client.on('notification', (n) => {
      if (n.channel === channel) handlers.message(n.payload ?? '');
    });
    client.on('error', () => drop(client));
    client.on('end', () => drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      drop(client);
      return;
    }
    if (current === client) handlers.ready();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  };
}

/**
 * Shared buffers of an embedded instance: PostgreSQL's 128 MB default sits in the WebAssembly heap and
 * costs ~60–100 MiB of RSS that the embedded setup's small databases do not need.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/** PGlite with the extensions the migrations use; every embedded instance is made here. */
export function createPglite(dataDir?: string, options: PGliteOptions = {}): Promise<PGlite> {
  return PGlite.create({
    ...options,
    dataDir,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
}

/** PGlite under `<dataDir>/db` unless a PostgreSQL URL is given. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) return fromPostgres(opts.databaseUrl);
  const dir = path.resolve(opts.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  return fromPglite(await createPglite(dir));
}
