import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countStatements } from '../../../test/count-statements.js';
import { createTenant, createTestServer, login, type Session, type TestServer } from '../../../test/harness.js';
import { type Database, fromPostgres } from '../../db/client.js';
import { type Callers, createCallers } from './callers.js';

/**
 * The session check's cache must never outlive a change: whatever writes the session, the user, its
 * queues, its company or its plan (the app, another instance, an operator in psql), the next
 * requests see it. The writes below go straight to SQL, as another instance's would: only the
 * database's notifications can tell this cache.
 */
let server: TestServer;
let callers: Callers;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  callers = await createCallers(server.deps.database);
});
afterAll(async () => {
  await callers.close();
  await server.close();
});

const q = (text: string, values?: unknown[]) => server.deps.database.query(text, values);
const claimsOf = async (session: Session) => (await server.deps.tokens.verifyAccess(session.token))!;
const callerOf = async (session: Session) => {
  const { sessionId, userId } = await claimsOf(session);
  return callers.of(sessionId, userId);
};
/** Statements the check of `session` sends: 0 when the cache answers. */
const readsOf = (session: Session) => countStatements(server.deps.database.db, () => callerOf(session));
/** Until the change has reached this cache: within a few milliseconds, the time a notification takes. */
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 3000, interval: 5 });

describe('the callers cache', () => {
  it('reads a session once, then answers from memory with the same caller', async () => {
    const { admin } = await createTenant(server);
    const first = await callerOf(admin);
    expect(first).toMatchObject({ userId: admin.user.id, profile: 'admin' });
    expect(await readsOf(admin)).toBe(0);
    expect(await callerOf(admin)).toEqual(first);
  });

  it('a session revoked, or its user deleted, by another writer ends at once', async () => {
    const { admin, user } = await createTenant(server);
    await callerOf(admin);
    await callerOf(user);
    await q(`update sessions set revoked_at = now() where id = $1`, [(await claimsOf(admin)).sessionId]);
    await eventually(async () => expect(await callerOf(admin)).toBeNull());
    await q(`delete from users where id = $1`, [user.user.id]);
    await eventually(async () => expect(await callerOf(user)).toBeNull());
  });

  it("a user's profile, super flag, ticket visibility and queues follow their rows", async () => {
    const { admin, companyId } = await createTenant(server);
    await callerOf(admin);
    await q(`update users set profile = 'user', all_ticket = 'enable' where id = $1`, [admin.user.id]);
    await eventually(async () => expect(await callerOf(admin)).toMatchObject({ profile: 'user', allTicket: true }));
    const [queue] = (
      await q(`insert into queues (company_id, name, color) values ($1, 'Vendas', '#111111') returning id`, [companyId])
    ).rows as { id: number }[];
    await q(`insert into user_queues (user_id, queue_id) values ($1, $2)`, [admin.user.id, queue.id]);
    await eventually(async () => expect((await callerOf(admin))?.queueIds).toEqual([queue.id]));
    await q(`delete from user_queues where user_id = $1`, [admin.user.id]);
    await eventually(async () => expect((await callerOf(admin))?.queueIds).toEqual([]));
    await q(`update users set super = true where id = $1`, [admin.user.id]);
    await eventually(async () => expect((await callerOf(admin))?.isSuper).toBe(true));
  });

  it("a company deactivated or past its due date, or its plan's flags changed, reach its members", async () => {
    const { admin, user, companyId } = await createTenant(server);
    const [{ plan_id: planId }] = (await q(`select plan_id from companies where id = $1`, [companyId])).rows as {
      plan_id: number;
    }[];
    await callerOf(user);
    await q(`update plans set use_kanban = false where id = $1`, [planId]);
    await eventually(async () => expect((await callerOf(user))?.plan?.useKanban).toBe(false));
    await q(`update companies set due_date = current_date - 2 where id = $1`, [companyId]);
    await eventually(async () => expect(await callerOf(user)).toBeNull());
    await q(`update companies set due_date = null, status = false where id = $1`, [companyId]);
    expect(await callerOf(admin)).toBeNull();
    await q(`update companies set status = true where id = $1`, [companyId]);
    await eventually(async () => expect(await callerOf(admin)).not.toBeNull());
  });

  it('a listener that never hears its own notification (a pooler in transaction mode) caches nothing', async () => {
    const deaf: Database = {
      ...server.deps.database,
      listen: async (_channel, handlers) => {
        handlers.ready();
        return async () => {};
      },
    };
    const unheard = await createCallers(deaf);
    try {
      const { admin } = await createTenant(server);
      const { sessionId, userId } = await claimsOf(admin);
      const reads = () => countStatements(server.deps.database.db, () => unheard.of(sessionId, userId));
      expect(await reads()).toBe(1);
      expect(await reads()).toBe(1);
    } finally {
      await unheard.close();
    }
  });

  it('a read that a change overtook is not remembered', async () => {
    const { admin } = await createTenant(server);
    const { sessionId, userId } = await claimsOf(admin);
    const reading = callers.of(sessionId, userId);
    callers.forget({ user: admin.user.id });
    await reading;
    expect(await readsOf(admin)).toBe(1);
    expect(await readsOf(admin)).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)(
    'a dropped listening connection stops the caching until it listens again: no change is missed',
    async () => {
      const { admin } = await createTenant(server);
      await callerOf(admin);
      await q(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
      );
      await q(`update users set profile = 'user' where id = $1`, [admin.user.id]);
      await eventually(async () => expect((await callerOf(admin))?.profile).toBe('user'));
      await eventually(async () => {
        await callerOf(admin);
        expect(await readsOf(admin)).toBe(0);
      });
      await q(`update users set profile = 'admin' where id = $1`, [admin.user.id]);
      await eventually(async () => expect((await callerOf(admin))?.profile).toBe('admin'));
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    "another instance's cache forgets a session logged out, or a user demoted, through this one",
    async () => {
      const [{ name }] = (await q('select current_database() as name')).rows as { name: string }[];
      const url = new URL(process.env.DATABASE_URL as string);
      url.pathname = `/${name}`;
      const elsewhere = fromPostgres(url.toString(), 2);
      const other = await createCallers(elsewhere);
      try {
        const { admin, user } = await createTenant(server);
        const there = async (session: Session) => {
          const { sessionId, userId } = await claimsOf(session);
          return other.of(sessionId, userId);
        };
        expect(await there(user)).not.toBeNull();
        expect((await there(admin))?.profile).toBe('admin');
        const out = await server.app.inject({ method: 'DELETE', url: '/auth/logout', headers: user.headers });
        expect(out.statusCode).toBe(200);
        const demoted = await server.app.inject({
          method: 'PUT',
          url: `/users/${admin.user.id}`,
          headers: admin.headers,
          payload: { profile: 'user' },
        });
        expect(demoted.statusCode, demoted.body).toBe(200);
        await eventually(async () => expect(await there(user)).toBeNull());
        await eventually(async () => expect((await there(admin))?.profile).toBe('user'));
      } finally {
        await other.close();
        await elsewhere.close();
      }
    },
  );

  it("the app's own writes are seen by its very next request (logout, profile change)", async () => {
    const { admin, user, userPassword } = await createTenant(server);
    const as = (session: Session, url: string) =>
      server.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => r.statusCode);
    expect(await as(user, '/auth/me')).toBe(200);
    expect(await as(user, '/users/')).toBe(403);
    const promote = await server.app.inject({
      method: 'PUT',
      url: `/users/${user.user.id}`,
      headers: admin.headers,
      payload: { profile: 'admin' },
    });
    expect(promote.statusCode).toBe(200);
    expect(await as(user, '/users/')).toBe(200);
    const again = await login(server, user.user.email, userPassword);
    expect(await as(user, '/auth/me')).toBe(401);
    expect(await as(again, '/auth/me')).toBe(200);
    await server.app.inject({ method: 'DELETE', url: '/auth/logout', headers: again.headers });
    expect(await as(again, '/auth/me')).toBe(401);
  });
});
