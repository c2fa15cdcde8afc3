import type { WeeklyScheduleEntry } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from './harness.js';

/**
 * Cross-tenant harness (DOMAIN §11: every query is scoped by the caller's company from the token).
 *
 * Tenant A's admin and A's plain user call every route that takes an id with tenant B's ids. Each
 * call must answer 403 or 404, carry none of B's data, and leave B's records as they were.
 *
 * EVERY NEW MODULE MUST ADD ITS ROUTES TO `routes` BELOW: one row per method and path that takes
 * an id (GET, PUT, PATCH, DELETE, and POST on sub-resources such as `/x/:id/action`). If the route
 * needs a record of B that does not exist yet, create it in `seedB` and add its id to `Target`, and
 * add what B sees of it to `snapshotOfB` so that a change is caught.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Ids of tenant B's records that the routes below aim at. */
interface Target {
  companyId: number;
  adminId: number;
  userId: number;
}

interface Route {
  method: Method;
  url: (b: Target) => string;
  payload?: object;
}

const week: WeeklyScheduleEntry[] = (
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
).map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '01:00', endTime: '02:00' }));

const routes: Route[] = [
  // users
  { method: 'GET', url: (b) => `/users/${b.userId}` },
  { method: 'GET', url: (b) => `/users/${b.adminId}` },
  { method: 'PUT', url: (b) => `/users/${b.userId}`, payload: { name: 'Hacked by A', email: 'hacked@a.test' } },
  { method: 'PUT', url: (b) => `/users/${b.userId}`, payload: { password: 'hacked-pass' } },
  { method: 'PUT', url: (b) => `/users/${b.adminId}`, payload: { profile: 'user', queueIds: [] } },
  { method: 'DELETE', url: (b) => `/users/${b.userId}` },
  { method: 'DELETE', url: (b) => `/users/${b.adminId}` },
  // companies
  { method: 'GET', url: (b) => `/companies/${b.companyId}` },
  { method: 'PUT', url: (b) => `/companies/${b.companyId}`, payload: { name: 'Hacked by A', dueDate: '2000-01-01' } },
  { method: 'DELETE', url: (b) => `/companies/${b.companyId}` },
  { method: 'PUT', url: (b) => `/companies/${b.companyId}/schedules`, payload: { schedules: week } },
  // plans
  { method: 'GET', url: (b) => `/companies/listPlan/${b.companyId}` },
];

let server: TestServer;
let a: Tenant;
let b: Tenant;
let target: Target;
let secretsOfB: string[];

const call = (session: Session, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

/** B's records the routes aim at. New modules create theirs here. */
async function seedB(tenant: Tenant): Promise<Target> {
  return { companyId: tenant.companyId, adminId: tenant.admin.user.id, userId: tenant.user.user.id };
}

/** Everything B's own admin sees of the records above, to compare before and after. */
async function snapshotOfB() {
  const read = async (url: string) => {
    const res = await call(b.admin, 'GET', url);
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  return {
    users: await read('/users'),
    admin: await read(`/users/${target.adminId}`),
    user: await read(`/users/${target.userId}`),
    company: await read(`/companies/${target.companyId}`),
    plan: await read(`/companies/listPlan/${target.companyId}`),
    settings: await read('/settings'),
  };
}

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server);
  b = await createTenant(server);
  target = await seedB(b);
  const company = (await call(b.admin, 'GET', `/companies/${b.companyId}`)).json();
  secretsOfB = [b.admin.user.email, b.user.user.email, b.user.user.name, company.name];
});
afterAll(() => server.close());

describe.each([
  { who: 'admin', session: () => a.admin },
  { who: 'plain user', session: () => a.user },
])("tenant A's $who with tenant B's ids", ({ session }) => {
  let before: Awaited<ReturnType<typeof snapshotOfB>>;
  beforeAll(async () => {
    before = await snapshotOfB();
  });

  // Test names show the path with placeholders: `/users/:userId`.
  const placeholders = new Proxy({}, { get: (_t, key) => `:${String(key)}` }) as Target;
  it.each(routes.map((r) => ({ ...r, name: `${r.method} ${r.url(placeholders)}` })))(
    '$name → 403 or 404, no data of B',
    async (route) => {
      const res = await call(session(), route.method, route.url(target), route.payload);
      expect([403, 404], `${route.method} ${route.url(target)} answered ${res.statusCode} ${res.body}`).toContain(
        res.statusCode,
      );
      expect(res.json().error).toMatch(/^ERR_/);
      for (const secret of secretsOfB) expect(res.body).not.toContain(secret);
    },
  );

  it("leaves B's records unchanged", async () => {
    expect(await snapshotOfB()).toEqual(before);
  });
});

describe('the harness itself', () => {
  it('would notice a route that leaks: B reads its own records through the same URLs', async () => {
    // Positive control: the ids are real, so the 403/404 above come from the tenancy checks.
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const res = await call(b.admin, 'GET', route.url(target));
      expect(res.statusCode, route.url(target)).toBe(200);
    }
  });

  it('A keeps working after the attempts', async () => {
    expect((await call(a.admin, 'GET', `/users/${a.user.user.id}`)).statusCode).toBe(200);
    expect((await call(a.user, 'GET', `/companies/${a.companyId}`)).statusCode).toBe(200);
  });
});
