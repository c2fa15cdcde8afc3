import { randomBytes } from 'node:crypto';
import { users } from '../../apps/server/src/modules/users/users.schema.js';
import { hashPassword } from '../../apps/server/src/platform/auth/passwords.js';
import { ADMIN, benchApp, benchDatabase } from './setup.js';
import { line, timeEach } from './stats.js';

/** Foundation figures: the users page, /auth/me and login through the full HTTP stack, beside raw SQL. */
const USERS = 5_000;
const RUNS = 300;

const { database, cleanup } = await benchDatabase('foundation');
const { app } = await benchApp(database, `/tmp/balcao-bench-${process.pid}-foundation-files`);
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
const login = await app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
const headers = { authorization: `Bearer ${login.json().token}` };

console.log(`\nFoundation bench on ${database.kind}, ${USERS} users, ${RUNS} runs each`);
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
const logins = await timeEach(30, () => app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN }));
console.log(line('GET /users (first page)', usersPage, rawPage));
console.log(line('GET /users?searchParam', usersSearch, rawPage));
console.log(line('GET /auth/me', me, rawMe));
console.log(line('POST /auth/login (argon2id)', logins));
await app.close();
await cleanup();
