import { rmSync } from 'node:fs';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { type Database, openDatabase } from '../../apps/server/src/db/client.js';
import { ensurePlatform } from '../../apps/server/src/db/seed.js';
import { memoryRateLimiter } from '../../apps/server/src/platform/auth/rate-limiter.js';
import { createTokenService } from '../../apps/server/src/platform/auth/tokens.js';
import { type Jobs, noJobs } from '../../apps/server/src/platform/jobs/jobs.js';
import { createRealtime } from '../../apps/server/src/platform/realtime/realtime.js';
import { createMessaging } from '../../apps/server/src/runtime.js';

export const ADMIN = { email: 'bench@balcao.test', password: 'bench-password' };
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database for one bench: `DATABASE_URL`, else a local PostgreSQL if one answers, else PGlite. */
export async function benchDatabase(
  name: string,
): Promise<{ database: Database; url?: string; cleanup: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? ((await answers(LOCAL_PG)) ? LOCAL_PG : undefined);
  const dataDir = `/tmp/balcao-bench-${process.pid}-${name}`;
  if (!base) {
    const database = await openDatabase({ dataDir });
    await database.migrate();
    return {
      database,
      cleanup: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const db = `balcao_bench_${name}`;
  await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${db}`);
  const url = new URL(base);
  url.pathname = `/${db}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir });
  await database.migrate();
  return {
    database,
    url: url.toString(),
    cleanup: async () => {
      await database.close();
      // BENCH_KEEP=1 leaves the seeded database for EXPLAIN sessions.
      if (!process.env.BENCH_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function answers(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The full HTTP stack on that database, with the platform seeded. `jobs` replaces the app's job
 * queue (by default jobs are accepted and dropped); the messaging runtime never gets it, so the
 * inbound automations stay off.
 */
export async function benchApp(database: Database, dataDir: string, opts: { jobs?: Jobs } = {}) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOGIN_LIMIT_IP: '100000' });
  await ensurePlatform(database.db, ADMIN);
  const log = pino({ level: 'silent' });
  const realtime = createRealtime({ corsOrigin: [], log });
  const { storage, channels } = createMessaging({ config, database, realtime, log });
  const app = await buildApp({
    config,
    database,
    jobs: opts.jobs ?? noJobs,
    limiter: memoryRateLimiter(60_000),
    realtime,
    storage,
    channels,
    tokens: createTokenService({
      accessSecret: 'bench-access-secret-0000',
      refreshSecret: 'bench-refresh-secret-000',
      accessTtl: '1h',
      refreshTtlDays: 1,
    }),
  });
  return { app, realtime, storage, channels, log };
}
