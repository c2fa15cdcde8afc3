import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let su: Session;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server, { plan: { users: 7, useKanban: false } });
  b = await createTenant(server);
  // After createTenant: each super login revokes the previous super session.
  su = await login(server, SUPER.email, SUPER.password);
});
afterAll(() => server.close());

const call: TestServer['call'] = (...args) => server.call(...args);

const flagsOff = {
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
};

describe('reading plans', () => {
  it('/plans/list is public: the sign-up screens show plans before login', async () => {
    const res = await call('GET', '/plans/list');
    expect(res.statusCode).toBe(200);
    const names = res.json().map((p: { name: string }) => p.name);
    expect(names).toContain('Plataforma');
    expect(res.json()[0]).toMatchObject({ users: expect.any(Number), value: expect.any(Number) });
  });

  it('/plans/all and /plans/{id} need a token', async () => {
    const anonymous = await call('GET', '/plans/all');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('ERR_SESSION_EXPIRED');
    expect((await call('GET', '/plans/1')).statusCode).toBe(401);
    const res = await call('GET', '/plans/all', a.user);
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeGreaterThanOrEqual(3);
  });

  it('/companies/listPlan/{own id} gives a plain user the plan of their company', async () => {
    const res = await call('GET', `/companies/listPlan/${a.companyId}`, a.user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ users: 7, useKanban: false, useCampaigns: true });
  });

  it('/companies/listPlan/{other id} is refused', async () => {
    for (const session of [a.user, a.admin]) {
      const res = await call('GET', `/companies/listPlan/${b.companyId}`, session);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    // The super user reads any company's plan.
    expect((await call('GET', `/companies/listPlan/${a.companyId}`, su)).json().useKanban).toBe(false);
  });
});

describe('managing plans', () => {
  it('is refused to a company admin', async () => {
    const create = await call('POST', '/plans', a.admin, { name: 'Admin Plan', users: 99 });
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toBe('ERR_NO_PERMISSION');
    const planId = a.admin.user.company.plan?.id as number;
    const update = await call('PUT', `/plans/${planId}`, a.admin, { users: 999 });
    expect(update.statusCode).toBe(403);
    const remove = await call('DELETE', `/plans/${planId}`, a.admin);
    expect(remove.statusCode).toBe(403);
    // Nothing changed.
    expect((await call('GET', `/plans/${planId}`, a.admin)).json().users).toBe(7);
    const names = (await call('GET', '/plans/list')).json().map((p: { name: string }) => p.name);
    expect(names).not.toContain('Admin Plan');
  });

  it('works for the super user: create, read, update, delete', async () => {
    const created = await call('POST', '/plans', su, {
      name: 'Ouro',
      users: 5,
      connections: 2,
      queues: 3,
      value: 149.9,
    });
    expect(created.statusCode).toBe(201);
    const plan = created.json();
    // Flags missing from the request default to enabled.
    expect(plan).toMatchObject({
      name: 'Ouro',
      users: 5,
      connections: 2,
      queues: 3,
      value: 149.9,
      useCampaigns: true,
      useExternalApi: true,
      useIntegrations: true,
    });
    expect((await call('GET', `/plans/${plan.id}`, su)).json()).toEqual(plan);

    const updated = await call('PUT', `/plans/${plan.id}`, su, { value: 199.9, ...flagsOff });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ ...plan, value: 199.9, ...flagsOff });

    const deleted = await call('DELETE', `/plans/${plan.id}`, su);
    expect(deleted.statusCode).toBe(200);
    const gone = await call('GET', `/plans/${plan.id}`, su);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_PLAN_FOUND');
  });

  it('a partial update changes only the fields sent', async () => {
    const plan = (
      await call('POST', '/plans', su, { name: 'Prata', users: 4, connections: 3, queues: 2, value: 59.9, ...flagsOff })
    ).json();
    const renamed = await call('PUT', `/plans/${plan.id}`, su, { name: 'Prata Plus' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...plan, name: 'Prata Plus' });
    const flagOnly = await call('PUT', `/plans/${plan.id}`, su, { useKanban: true });
    expect(flagOnly.json()).toEqual({ ...plan, name: 'Prata Plus', useKanban: true });
    const empty = await call('PUT', `/plans/${plan.id}`, su, {});
    expect(empty.statusCode).toBe(200);
    expect((await call('GET', `/plans/${plan.id}`, su)).json()).toEqual({
      ...plan,
      name: 'Prata Plus',
      useKanban: true,
    });
  });

  it('refuses a duplicated name with 409', async () => {
    const first = await call('POST', '/plans', su, { name: 'Bronze' });
    expect(first.statusCode).toBe(201);
    const dup = await call('POST', '/plans', su, { name: 'Bronze' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_DUPLICATED_NAME');
    const other = (await call('POST', '/plans', su, { name: 'Cobre' })).json();
    const rename = await call('PUT', `/plans/${other.id}`, su, { name: 'Bronze' });
    expect(rename.statusCode).toBe(409);
    expect((await call('GET', `/plans/${other.id}`, su)).json().name).toBe('Cobre');
  });

  it('refuses to delete a plan a company uses', async () => {
    const planId = b.admin.user.company.plan?.id as number;
    const res = await call('DELETE', `/plans/${planId}`, su);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_PLAN_IN_USE');
    expect((await call('GET', `/plans/${planId}`, su)).statusCode).toBe(200);
  });

  it('validates the plan fields', async () => {
    const short = await call('POST', '/plans', su, { name: 'X' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: [{ path: 'name', message: 'Muito curto!' }],
    });
    const negative = await call('POST', '/plans', su, { name: 'Negativo', users: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().fields.map((f: { path: string }) => f.path)).toContain('users');
  });
});
