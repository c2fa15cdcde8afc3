import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { ensurePlatform } from '../../apps/server/src/db/seed.js';
import { users } from '../../apps/server/src/modules/users/users.schema.js';
import { hashPassword } from '../../apps/server/src/platform/auth/passwords.js';
import { memoryRateLimiter } from '../../apps/server/src/platform/auth/rate-limiter.js';
import { createTokenService } from '../../apps/server/src/platform/auth/tokens.js';
import { noJobs } from '../../apps/server/src/platform/jobs/jobs.js';
import { createRealtime } from '../../apps/server/src/platform/realtime/realtime.js';
import { line, timeEach } from './stats.js';

/**
 * Foundation figures: login, the users page and /auth/me through the full HTTP stack, each
 * beside the raw SQL it stands on, on PGlite or on DATABASE_URL when set.
 */
const USERS = 5_000;
const RUNS = 300;

const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: `/tmp/balcao-bench-${process.pid}`, LOGIN_LIMIT_IP: '100000' });
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: config.DATA_DIR });
if (process.env.DATABASE_URL) {
  await database.exec(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
}
await database.migrate();
const admin = { email: 'bench@balcao.test', password: 'bench-password' };
await ensurePlatform(database.db, admin);
const hash = await hashPassword('not-used');
for (let i = 0; i < USERS; i += 1000) {
  await database.db.insert(users).values(
    Array.from({ length: Math.min(1000, USERS - i) }, (_, k) => ({
      companyId: 1,
      name: `Agent ${i + k} ${randomBytes(3).toString('hex')}`,
      email: `agent${i + k}@bench.test`,
      passwordHash: hash,
    })),
  );
}

const app = await buildApp({
  config,
  database,
  jobs: noJobs,
  limiter: memoryRateLimiter(60_000),
  realtime: createRealtime({ corsOrigin: [], log: pino({ level: 'silent' }) }),
  tokens: createTokenService({
    accessSecret: 'bench-access-secret-0000',
    refreshSecret: 'bench-refresh-secret-000',
    accessTtl: '1h',
    refreshTtlDays: 1,
  }),
});
const login = await app.inject({ method: 'POST', url: '/auth/login', payload: admin });
const headers = { authorization: `Bearer ${login.json().token}` };

console.log(`Balcão foundation bench on ${database.kind}, ${USERS} users, ${RUNS} runs each`);
const rssBefore = process.memoryUsage().rss;
const rawPage = await timeEach(RUNS, () =>
  database.query(
    'select id, name, email from users where company_id = $1 order by lower(name), id limit 21 offset 0',
    [1],
  ),
);
const usersPage = await timeEach(RUNS, () => app.inject({ method: 'GET', url: '/users?pageNumber=1', headers }));
const usersSearch = await timeEach(RUNS, (i) =>
  app.inject({ method: 'GET', url: `/users?searchParam=agent%20${i}`, headers }),
);
const rawMe = await timeEach(RUNS, () => database.query('select * from users where id = $1', [1]));
const me = await timeEach(RUNS, () => app.inject({ method: 'GET', url: '/auth/me', headers }));
const logins = await timeEach(30, () => app.inject({ method: 'POST', url: '/auth/login', payload: admin }));
console.log(line('GET /users (first page)', usersPage, rawPage));
console.log(line('GET /users?searchParam', usersSearch, rawPage));
console.log(line('GET /auth/me', me, rawMe));
console.log(line('POST /auth/login (argon2id)', logins));
console.log(
  `server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (before requests ${(rssBefore / 2 ** 20).toFixed(0)} MiB)`,
);
await app.close();
await database.close();
if (!process.env.DATABASE_URL) rmSync(config.DATA_DIR, { recursive: true, force: true });
