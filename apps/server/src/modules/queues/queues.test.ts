import { companyEvent } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server, { plan: { queues: 10 } });
  other = await createTenant(server);
});
afterAll(() => server.close());

const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

type Queue = {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  orderQueue: number | null;
  schedules: { weekday: string; weekdayEn: string; startTime: string; endTime: string }[];
};
const create = async (tenant: Tenant, body: Record<string, unknown>) => {
  const res = await call(tenant.admin, 'POST', '/queue', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Queue;
};

describe('queues', () => {
  it('start with the default schedules: Mon–Fri 08–18, Sat 08–12, Sun closed', async () => {
    const q = await create(t, { name: 'Horários', color: '#101010' });
    expect(q.schedules).toHaveLength(7);
    expect(q.schedules.map((s) => [s.weekdayEn, s.startTime, s.endTime])).toEqual([
      ['monday', '08:00', '18:00'],
      ['tuesday', '08:00', '18:00'],
      ['wednesday', '08:00', '18:00'],
      ['thursday', '08:00', '18:00'],
      ['friday', '08:00', '18:00'],
      ['saturday', '08:00', '12:00'],
      ['sunday', '00:00', '00:00'],
    ]);
    expect((await call(t.user, 'GET', `/queue/${q.id}`)).json().schedules).toEqual(q.schedules);
  });

  it('are written by admins only; plain users read them', async () => {
    const q = await create(t, { name: 'Leitura', color: '#202020' });
    for (const res of [
      await call(t.user, 'POST', '/queue', { name: 'Do usuário', color: '#999999' }),
      await call(t.user, 'PUT', `/queue/${q.id}`, { name: 'Mudada' }),
      await call(t.user, 'DELETE', `/queue/${q.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    const listed = (await call(t.user, 'GET', '/queue')).json() as Queue[];
    expect(listed.map((x) => x.name)).toContain('Leitura');
    expect(listed.map((x) => x.name)).not.toContain('Do usuário');
  });

  it('refuse a colour already used, in any case (ERR_QUEUE_COLOR_ALREADY_EXISTS)', async () => {
    await create(t, { name: 'Vermelha', color: '#AA0000' });
    const dup = await call(t.admin, 'POST', '/queue', { name: 'Outra vermelha', color: '#aa0000' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const blue = await create(t, { name: 'Azul', color: '#0000AA' });
    const recolour = await call(t.admin, 'PUT', `/queue/${blue.id}`, { color: '#Aa0000' });
    expect(recolour.json().error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    expect((await call(t.admin, 'GET', `/queue/${blue.id}`)).json().color).toBe('#0000AA');
    // Keeping its own colour is fine; another company may use the same colour.
    expect((await call(t.admin, 'PUT', `/queue/${blue.id}`, { color: '#0000aa' })).statusCode).toBe(200);
    await create(other, { name: 'Vermelha', color: '#AA0000' });
  });

  it('refuse a name already used, in any case (ERR_QUEUE_NAME_ALREADY_EXISTS)', async () => {
    const first = await create(t, { name: 'Suporte', color: '#303030' });
    const dup = await call(t.admin, 'POST', '/queue', { name: 'SUPORTE', color: '#313131' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
    const second = await create(t, { name: 'Vendas', color: '#323232' });
    const rename = await call(t.admin, 'PUT', `/queue/${second.id}`, { name: 'suporte' });
    expect(rename.json().error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
    expect((await call(t.admin, 'PUT', `/queue/${first.id}`, { name: 'Suporte' })).statusCode).toBe(200);
  });

  it('validate name and colour', async () => {
    const res = await call(t.admin, 'POST', '/queue', { name: 'X', color: '#1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Muito curto!' },
        { path: 'color', message: 'Muito curto!' },
      ]),
    );
  });

  it('a partial update keeps the other fields and the schedules', async () => {
    const q = await create(t, {
      name: 'Parcial',
      color: '#404040',
      greetingMessage: 'Bem-vindo ao suporte',
      outOfHoursMessage: 'Fechado',
      orderQueue: 3,
    });
    const res = await call(t.admin, 'PUT', `/queue/${q.id}`, { name: 'Parcial 2' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Parcial 2',
      color: '#404040',
      greetingMessage: 'Bem-vindo ao suporte',
      outOfHoursMessage: 'Fechado',
      orderQueue: 3,
    });
    expect(res.json().schedules).toEqual(q.schedules);
  });

  it('are listed in menu order, queues without an order last', async () => {
    const tenant = await createTenant(server);
    await create(tenant, { name: 'Sem ordem', color: '#500000' });
    await create(tenant, { name: 'Segunda', color: '#500001', orderQueue: 2 });
    await create(tenant, { name: 'Primeira', color: '#500002', orderQueue: 1 });
    const names = ((await call(tenant.user, 'GET', '/queue')).json() as Queue[]).map((q) => q.name);
    expect(names).toEqual(['Primeira', 'Segunda', 'Sem ordem']);
  });

  it('respect the plan queues limit (ERR_PLAN_LIMIT_QUEUES)', async () => {
    const tenant = await createTenant(server, { plan: { queues: 2 } });
    await create(tenant, { name: 'Uma', color: '#600001' });
    await create(tenant, { name: 'Duas', color: '#600002' });
    const over = await call(tenant.admin, 'POST', '/queue', { name: 'Três', color: '#600003' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'ERR_PLAN_LIMIT_QUEUES', limit: 2 });
    expect((await call(tenant.admin, 'GET', '/queue')).json()).toHaveLength(2);
  });

  it('let only the allowed number of concurrent creations through', async () => {
    const tenant = await createTenant(server, { plan: { queues: 2 } });
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(tenant.admin, 'POST', '/queue', { name: `Fila ${i}`, color: `#70000${i}` }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 403, 403]);
    for (const r of results.filter((r) => r.statusCode === 403)) expect(r.json().error).toBe('ERR_PLAN_LIMIT_QUEUES');
    expect((await call(tenant.admin, 'GET', '/queue')).json()).toHaveLength(2);
  });

  it('are announced live and can be deleted', async () => {
    const socket = await connectSocket(server, t.user.token);
    try {
      const event = companyEvent.queue(t.companyId);
      const created = eventWhere<{ action: string; queue: Queue }>(socket, event, (e) => e.action === 'create');
      const q = await create(t, { name: 'Efêmera', color: '#707070' });
      expect((await created).queue.id).toBe(q.id);
      const updated = eventWhere<{ action: string; queue: Queue }>(socket, event, (e) => e.action === 'update');
      await call(t.admin, 'PUT', `/queue/${q.id}`, { name: 'Efêmera 2' });
      expect((await updated).queue).toMatchObject({ id: q.id, name: 'Efêmera 2' });
      const deleted = eventWhere<{ action: string; queueId: number }>(socket, event, (e) => e.action === 'delete');
      expect((await call(t.admin, 'DELETE', `/queue/${q.id}`)).statusCode).toBe(200);
      expect((await deleted).queueId).toBe(q.id);
      const gone = await call(t.admin, 'GET', `/queue/${q.id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error).toBe('ERR_NO_QUEUE_FOUND');
    } finally {
      socket.close();
    }
  });

  it("cannot reach another company's queue", async () => {
    const theirs = await create(other, { name: 'Deles', color: '#808080' });
    for (const res of [
      await call(t.admin, 'GET', `/queue/${theirs.id}`),
      await call(t.admin, 'PUT', `/queue/${theirs.id}`, { name: 'Invadida' }),
      await call(t.admin, 'DELETE', `/queue/${theirs.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_QUEUE_FOUND');
    }
    expect(((await call(t.admin, 'GET', '/queue')).json() as Queue[]).map((q) => q.id)).not.toContain(theirs.id);
    expect((await call(other.admin, 'GET', `/queue/${theirs.id}`)).json().name).toBe('Deles');
  });
});
