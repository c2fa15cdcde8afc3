import type { WeeklyScheduleEntry } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Method,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let su: Session;
let planId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server);
  b = await createTenant(server);
  // Each super login revokes the previous super session: log in after createTenant.
  su = await login(server, SUPER.email, SUPER.password);
  planId = (await call('POST', '/plans', su, { name: 'Plano Empresas', users: 5 })).json().id;
});
afterAll(() => server.close());

const call: TestServer['call'] = (...args) => server.call(...args);

const week = (startTime: string, endTime: string): WeeklyScheduleEntry[] =>
  (['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const).map((weekdayEn) => ({
    weekday: weekdayEn,
    weekdayEn,
    startTime,
    endTime,
  }));

describe('a company admin (not super)', () => {
  it('gets 403 from every company management route', async () => {
    const routes: { method: Method; url: string; payload?: object }[] = [
      { method: 'GET', url: '/companies' },
      { method: 'GET', url: '/companies/list' },
      {
        method: 'POST',
        url: '/companies',
        payload: { name: 'Intrusa', email: 'intrusa@x.test', planId, password: 'secret-5' },
      },
      { method: 'PUT', url: `/companies/${a.companyId}`, payload: { dueDate: '2099-12-31' } },
      { method: 'PUT', url: `/companies/${b.companyId}`, payload: { name: 'Hacked' } },
      { method: 'DELETE', url: `/companies/${a.companyId}` },
      { method: 'DELETE', url: `/companies/${b.companyId}` },
    ];
    for (const route of routes) {
      const res = await call(route.method, route.url, a.admin, route.payload);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    const own = (await call('GET', `/companies/${a.companyId}`, a.admin)).json();
    expect(own.dueDate).toBeNull();
    const other = (await call('GET', `/companies/${b.companyId}`, su)).json();
    expect(other.name).not.toBe('Hacked');
    expect((await call('GET', '/companies?searchParam=intrusa', su)).json().count).toBe(0);
  });

  it('reads their own company but not another one', async () => {
    const own = await call('GET', `/companies/${a.companyId}`, a.admin);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: a.companyId, email: a.admin.user.email, status: true });
    expect(own.json().schedules).toHaveLength(7);
    for (const session of [a.admin, a.user]) {
      const other = await call('GET', `/companies/${b.companyId}`, session);
      expect(other.statusCode).toBe(403);
      expect(other.json().error).toBe('ERR_NO_PERMISSION');
      expect(other.body).not.toContain(b.admin.user.email);
    }
  });
});

describe('the super user', () => {
  it('creates a company whose admin logs in with the given password', async () => {
    const res = await call('POST', '/companies', su, {
      name: 'Padaria Central',
      email: 'Dono@Padaria.Test',
      phone: '5511999990000',
      planId,
      password: 'pao-quente',
      dueDate: '2099-01-31',
      campaignsEnabled: true,
    });
    expect(res.statusCode).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({
      name: 'Padaria Central',
      email: 'dono@padaria.test',
      phone: '5511999990000',
      status: true,
      planId,
      plan: { id: planId, name: 'Plano Empresas' },
      dueDate: '2099-01-31',
      recurrence: 'MENSAL',
    });
    expect(company.schedules).toHaveLength(7);

    const owner = await login(server, 'dono@padaria.test', 'pao-quente');
    expect(owner.user).toMatchObject({ profile: 'admin', super: false, companyId: company.id });
    expect(owner.user.company).toMatchObject({ id: company.id, name: 'Padaria Central', dueDate: '2099-01-31' });
    expect(owner.user.company.settings).toContainEqual({ key: 'campaignsEnabled', value: 'true' });
    // Without an admin name (a client of the original spec), the admin is named after the company.
    expect(owner.user.name).toBe('Padaria Central');
  });

  it('names the first admin as asked, and refuses a too short admin name', async () => {
    const body = { name: 'Pão Quente', email: 'joana@paoquente.test', planId, password: 'pao-quente' };
    const short = await call('POST', '/companies', su, { ...body, adminName: 'J' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toContainEqual(expect.objectContaining({ path: 'adminName' }));

    const res = await call('POST', '/companies', su, { ...body, adminName: 'Joana Lima' });
    expect(res.statusCode).toBe(201);
    const owner = await login(server, 'joana@paoquente.test', 'pao-quente');
    expect(owner.user).toMatchObject({ name: 'Joana Lima', profile: 'admin', companyId: res.json().id });
  });

  it('refuses a duplicated name or e-mail, an unknown plan and a missing e-mail', async () => {
    const base = { name: 'Duplicada', email: 'dup@companies.test', planId, password: 'secret-5' };
    expect((await call('POST', '/companies', su, base)).statusCode).toBe(201);
    const sameName = await call('POST', '/companies', su, {
      ...base,
      name: 'DUPLICADA',
      email: 'other@companies.test',
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().error).toBe('ERR_DUPLICATED_NAME');
    const sameEmail = await call('POST', '/companies', su, { ...base, name: 'Outra' });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().error).toBe('ERR_DUPLICATED_EMAIL');
    const noPlan = await call('POST', '/companies', su, {
      ...base,
      name: 'Sem Plano',
      email: 'np@c.test',
      planId: 99999,
    });
    expect(noPlan.statusCode).toBe(404);
    expect(noPlan.json().error).toBe('ERR_NO_PLAN_FOUND');
    const { email: _email, ...noEmail } = base;
    const missing = await call('POST', '/companies', su, { ...noEmail, name: 'Sem Email' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: [{ path: 'email', message: 'Obrigatório' }],
    });
    expect((await call('GET', '/companies?searchParam=sem', su)).json().count).toBe(0);
  });

  it('lists companies with search and pages of 20', async () => {
    const created = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        call('POST', '/companies', su, {
          name: `Lote ${String(i).padStart(2, '0')}`,
          email: `lote-${i}@companies.test`,
          planId,
          password: 'secret-5',
        }),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(21).fill(201));
    const page1 = await call('GET', '/companies?searchParam=LOTE&pageNumber=1', su);
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ count: 21, hasMore: true });
    expect(page1.json().companies).toHaveLength(20);
    expect(page1.json().companies[0].name).toBe('Lote 00');
    const page2 = (await call('GET', '/companies?searchParam=lote&pageNumber=2', su)).json();
    expect(page2).toMatchObject({ count: 21, hasMore: false });
    expect(page2.companies.map((c: { name: string }) => c.name)).toEqual(['Lote 20']);

    const all = (await call('GET', '/companies', su)).json();
    expect(all.count).toBeGreaterThanOrEqual(24);
    const list = await call('GET', '/companies/list', su);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(all.count);
  });

  it('reads any company, and 404 for an unknown one', async () => {
    const res = await call('GET', `/companies/${b.companyId}`, su);
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(b.admin.user.email);
    const unknown = await call('GET', '/companies/99999', su);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('ERR_NO_COMPANY_FOUND');
  });

  it('updates a company; an empty dueDate becomes null; unsent fields stay', async () => {
    const t = await createTenant(server);
    const s = await login(server, SUPER.email, SUPER.password);
    const set = await call('PUT', `/companies/${t.companyId}`, s, {
      dueDate: '2099-06-30',
      phone: '5521988887777',
      recurrence: 'ANUAL',
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ dueDate: '2099-06-30', phone: '5521988887777', recurrence: 'ANUAL' });

    const renamed = await call('PUT', `/companies/${t.companyId}`, s, { name: 'Renomeada' });
    expect(renamed.json()).toMatchObject({
      name: 'Renomeada',
      dueDate: '2099-06-30',
      phone: '5521988887777',
      recurrence: 'ANUAL',
      status: true,
    });

    const cleared = await call('PUT', `/companies/${t.companyId}`, s, { dueDate: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ dueDate: null, name: 'Renomeada', phone: '5521988887777' });

    // Deactivated, then renamed: it stays inactive and its users cannot log in.
    await call('PUT', `/companies/${t.companyId}`, s, { status: false });
    const again = await call('PUT', `/companies/${t.companyId}`, s, { name: 'Inativa' });
    expect(again.json().status).toBe(false);
    const denied = await call('POST', '/auth/login', undefined, { email: t.user.user.email, password: t.userPassword });
    expect(denied.statusCode).toBe(403);

    const badDate = await call('PUT', `/companies/${t.companyId}`, s, { dueDate: '31/12/2099' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error).toBe('ERR_VALIDATION');

    const taken = await call('PUT', `/companies/${t.companyId}`, s, { name: 'Padaria Central' });
    expect(taken.statusCode).toBe(409);
  });

  it('reads and edits campaignsEnabled (the company setting) through the company', async () => {
    const t = await createTenant(server);
    const s = await login(server, SUPER.email, SUPER.password);
    const inList = () =>
      call('GET', '/companies/list', s).then((r) => r.json().find((c: { id: number }) => c.id === t.companyId));
    expect((await inList()).campaignsEnabled).toBe(false);
    const on = await call('PUT', `/companies/${t.companyId}`, s, { campaignsEnabled: true });
    expect(on.json().campaignsEnabled).toBe(true);
    expect((await inList()).campaignsEnabled).toBe(true);
    const settings = (await call('GET', '/settings', t.admin)).json();
    expect(settings).toContainEqual(expect.objectContaining({ key: 'campaignsEnabled', value: 'true' }));
    const renamed = await call('PUT', `/companies/${t.companyId}`, s, { name: 'Campanhas Ligadas' });
    expect(renamed.json().campaignsEnabled).toBe(true);
  });

  it('an overdue company whose due date is extended logs in again and sees the new date', async () => {
    const t = await createTenant(server);
    const s = await login(server, SUPER.email, SUPER.password);
    await call('PUT', `/companies/${t.companyId}`, s, { dueDate: '2020-01-31' });
    const blocked = await call('POST', '/auth/login', undefined, {
      email: t.user.user.email,
      password: t.userPassword,
    });
    expect(blocked.json()).toMatchObject({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2020-01-31' });
    // "+Vencimento" in the form, then saved: a date 3 days ahead, inside the warning window.
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect((await call('PUT', `/companies/${t.companyId}`, s, { dueDate: soon })).json().dueDate).toBe(soon);
    const back = await login(server, t.user.user.email, t.userPassword);
    expect(back.user.company.dueDate).toBe(soon);
    expect((await call('GET', '/auth/me', back)).statusCode).toBe(200);
  });

  it('cannot delete the platform company', async () => {
    const s = await login(server, SUPER.email, SUPER.password);
    const res = await call('DELETE', `/companies/${s.user.companyId}`, s);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_CANNOT_DELETE_PLATFORM');
    expect((await call('GET', `/companies/${s.user.companyId}`, s)).statusCode).toBe(200);
  });

  it('deletes a company with its users, who can no longer log in', async () => {
    const t = await createTenant(server);
    const s = await login(server, SUPER.email, SUPER.password);
    const res = await call('DELETE', `/companies/${t.companyId}`, s);
    expect(res.statusCode).toBe(200);
    expect((await call('GET', `/companies/${t.companyId}`, s)).statusCode).toBe(404);
    for (const [email, password] of [
      [t.admin.user.email, 'admin-pass'],
      [t.user.user.email, t.userPassword],
    ]) {
      const relogin = await call('POST', '/auth/login', undefined, { email, password });
      expect(relogin.statusCode).toBe(401);
      expect(relogin.json().error).toBe('ERR_INVALID_CREDENTIALS');
    }
    // Sessions opened before the deletion are dead too.
    expect((await call('GET', '/auth/me', t.admin)).statusCode).toBe(401);
    expect((await call('GET', '/users/list', t.user)).statusCode).toBe(401);
    // Its plan is no longer in use.
    expect((await call('DELETE', `/plans/${t.admin.user.company.plan?.id}`, s)).statusCode).toBe(200);
  });
});

describe('weekly schedules', () => {
  it('the admin saves 7 HH:MM entries for their company', async () => {
    const schedules = week('09:00', '17:30');
    schedules[6] = { ...schedules[6], startTime: '', endTime: '' };
    const res = await call('PUT', `/companies/${a.companyId}/schedules`, a.admin, { schedules });
    expect(res.statusCode).toBe(200);
    expect(res.json().schedules).toEqual(schedules);
    expect((await call('GET', `/companies/${a.companyId}`, a.admin)).json().schedules).toEqual(schedules);
  });

  it('refuses a bad time or a week that is not 7 days', async () => {
    const before = (await call('GET', `/companies/${a.companyId}`, a.admin)).json().schedules;
    for (const bad of ['8:00', '24:00', '12:60', 'noon']) {
      const res = await call('PUT', `/companies/${a.companyId}/schedules`, a.admin, { schedules: week(bad, '18:00') });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const six = await call('PUT', `/companies/${a.companyId}/schedules`, a.admin, {
      schedules: week('08:00', '18:00').slice(1),
    });
    expect(six.statusCode).toBe(400);
    expect((await call('GET', `/companies/${a.companyId}`, a.admin)).json().schedules).toEqual(before);
  });

  it("the super user sets any company's hours", async () => {
    const s = await login(server, SUPER.email, SUPER.password);
    const res = await call('PUT', `/companies/${b.companyId}/schedules`, s, { schedules: week('10:00', '16:00') });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', `/companies/${b.companyId}`, b.admin)).json().schedules).toEqual(week('10:00', '16:00'));
  });

  it('is refused to a plain user, and to an admin for another company', async () => {
    const bBefore = (await call('GET', `/companies/${b.companyId}`, b.admin)).json().schedules;
    const aBefore = (await call('GET', `/companies/${a.companyId}`, a.admin)).json().schedules;
    const byUser = await call('PUT', `/companies/${a.companyId}/schedules`, a.user, {
      schedules: week('07:00', '08:00'),
    });
    expect(byUser.statusCode).toBe(403);
    expect(byUser.json().error).toBe('ERR_NO_PERMISSION');
    const byOther = await call('PUT', `/companies/${b.companyId}/schedules`, a.admin, {
      schedules: week('07:00', '08:00'),
    });
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call('GET', `/companies/${b.companyId}`, b.admin)).json().schedules).toEqual(bBefore);
    expect((await call('GET', `/companies/${a.companyId}`, a.admin)).json().schedules).toEqual(aBefore);
  });
});
