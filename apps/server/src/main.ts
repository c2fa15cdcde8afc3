import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { ensurePlatform } from './db/seed.js';
import { defaultOutboxPolicy } from './modules/messages/messages.outbox.js';
import { memoryRateLimiter, redisRateLimiter } from './platform/auth/rate-limiter.js';
import { resolveJwtSecrets } from './platform/auth/secrets.js';
import { createTokenService } from './platform/auth/tokens.js';
import { credentialsBanner } from './platform/credentials-banner.js';
import { buildWebHost } from './platform/http/web-host.js';
import { startJobs } from './platform/jobs/jobs.js';
import { createLogger } from './platform/logger.js';
import { createRealtime } from './platform/realtime/realtime.js';
import { connectRedis } from './platform/realtime/redis-clients.js';
import { deferredJobs } from './platform/startup/deferred-jobs.js';
import { started } from './platform/startup/started.js';
import { createMessaging, restoreConnections, startWorkers } from './runtime.js';

async function main() {
  const config = loadConfig();
  const log = createLogger({ level: config.LOG_LEVEL, pretty: !config.production });
  // Embedded PGlite: V8's optimising tier would recompile its large WebAssembly module in the background,
  // seconds of CPU and ~40–80 MiB for little gain on the small databases of the embedded setup.
  if (!config.DATABASE_URL) v8.setFlagsFromString('--liftoff-only');

  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await database.migrate();
  log.info({ database: database.kind }, 'database migrated');

  const seed = await ensurePlatform(database.db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
  if (seed.created) {
    log.info({ email: seed.email }, 'platform company and super user created');
  }

  // pg-boss starts (schema check, maintenance) while the routes are built: /health needs no jobs.
  const starting = startJobs(database, log, config.DATABASE_URL);
  starting.catch(fail);
  const { jobs, open: openJobs } = deferredJobs();
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, log, { maxRetriesPerRequest: 3 }) : undefined;
  const secrets = resolveJwtSecrets({
    jwtSecret: config.JWT_SECRET,
    jwtRefreshSecret: config.JWT_REFRESH_SECRET,
    dataDir: config.DATA_DIR,
  });
  const windowMs = config.LOGIN_LIMIT_WINDOW_SECONDS * 1000;
  const realtime = createRealtime({
    corsOrigin: [config.FRONTEND_URL],
    redis,
    log,
  });
  const { storage, channels } = createMessaging({ config, database, realtime, log, jobs });
  const deps = {
    config,
    database,
    jobs,
    realtime,
    storage,
    channels,
    tokens: createTokenService({
      ...secrets,
      accessTtl: config.ACCESS_TOKEN_TTL,
      refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
    }),
    limiter: redis ? redisRateLimiter(redis.pub, windowMs) : memoryRateLimiter(windowMs),
  };
  const app = await buildApp(deps, { logger: log });
  await app.listen({ port: config.PORT, host: config.HOST });
  // The built server saves the code V8 compiled for the start-up path (platform/startup/launch.ts).
  started.publish(undefined);
  let web: Awaited<ReturnType<typeof buildWebHost>> | undefined;
  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  // The rest of the start runs after listen. A signal from the first request on stops the server
  // cleanly: it lets the step in flight finish, then stops what has started.
  const rest = (async () => {
    // The workers register once the server listens (a job come due meanwhile waits in pg-boss); then
    // the app's jobs go through.
    const boss = await starting;
    workers = await startWorkers({ ...deps, jobs: boss }, log, {
      outbox: { ...defaultOutboxPolicy, leaseMs: config.OUTBOX_LEASE_SECONDS * 1000 },
      campaignLeaseMs: config.CAMPAIGN_LEASE_SECONDS * 1000,
    });
    openJobs(boss);
    await restoreConnections(deps, log);
    workers.startOutbox();
    if (config.SERVE_WEB) {
      const distDir = config.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
      const backendUrl = new URL(config.FRONTEND_URL);
      backendUrl.port = String(config.PORT);
      web = await buildWebHost({ distDir: path.resolve(distDir), backendUrl: backendUrl.origin });
      await web.listen({ port: config.WEB_PORT, host: config.HOST });
      log.info(`web client at ${config.FRONTEND_URL}`);
    }
  })();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await rest;
    await web?.close();
    await workers?.stop();
    await channels.stopAll();
    await app.close();
    await jobs.stop();
    await Promise.all([redis?.pub.quit(), redis?.sub.quit()]);
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await rest;
  if (seed.email && seed.generatedPassword) {
    // Printed once, on the first start only (it is not stored anywhere in clear), once the startup
    // lines are out (the JSON logger writes asynchronously) so that it is the last thing on the console.
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    console.log(credentialsBanner(seed.email, seed.generatedPassword));
  }
}

function fail(err: unknown): never {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

main().catch(fail);
