import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let queueId: number;
let otherQueueId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  queueId = (await call(t.admin, 'POST', '/queue', { name: 'Menu', color: '#123456' })).json().id;
  otherQueueId = (await call(other.admin, 'POST', '/queue', { name: 'Menu deles', color: '#654321' })).json().id;
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Option = { id: number; queueId: number; parentId: number | null; title: string; message: string; option: number };
const add = async (title: string, parentId: number | null = null, q = queueId, session = t.admin) => {
  const res = await call(session, 'POST', '/queue-options', { queueId: q, parentId, title, message: `msg ${title}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Option;
};
const level = async (parentId?: number, q = queueId, session = t.user) => {
  const res = await call(session, 'GET', `/queue-options?queueId=${q}${parentId ? `&parentId=${parentId}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Option[]).map((o) => [o.option, o.title]);
};

describe('queue options tree', () => {
  it('numbers options per level and lists one level at a time', async () => {
    const a = await add('Comercial');
    const b = await add('Técnico');
    const c = await add('Financeiro');
    expect([a.option, b.option, c.option]).toEqual([1, 2, 3]);
    expect(a).toMatchObject({ queueId, parentId: null, message: 'msg Comercial' });

    const b1 = await add('Internet', b.id);
    const b2 = await add('Telefone', b.id);
    expect([b1.option, b2.option]).toEqual([1, 2]);
    expect(b1.parentId).toBe(b.id);
    await add('Sem sinal', b1.id);

    expect(await level()).toEqual([
      [1, 'Comercial'],
      [2, 'Técnico'],
      [3, 'Financeiro'],
    ]);
    expect(await level(b.id)).toEqual([
      [1, 'Internet'],
      [2, 'Telefone'],
    ]);
    expect(await level(b1.id)).toEqual([[1, 'Sem sinal']]);
    expect(await level(a.id)).toEqual([]);
  });

  it('deleting an option removes its subtree and renumbers the siblings after it', async () => {
    const q = (await call(t.admin, 'POST', '/queue', { name: 'Árvore', color: '#222222' })).json().id;
    const one = await add('Um', null, q);
    const two = await add('Dois', null, q);
    await add('Três', null, q);
    const child = await add('Filho de dois', two.id, q);
    const grandchild = await add('Neto', child.id, q);

    const res = await call(t.admin, 'DELETE', `/queue-options/${two.id}`);
    expect(res.statusCode).toBe(200);
    expect(await level(undefined, q)).toEqual([
      [1, 'Um'],
      [2, 'Três'],
    ]);
    // The subtree went with it.
    for (const id of [child.id, grandchild.id]) {
      const put = await call(t.admin, 'PUT', `/queue-options/${id}`, { title: 'Ainda aqui?' });
      expect(put.statusCode).toBe(404);
      expect(put.json().error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
    }
    // A new option goes after the renumbered ones.
    expect((await add('Quatro', null, q)).option).toBe(3);
    expect((await add('Filho de um', one.id, q)).option).toBe(1);
  });

  it('an update changes only what is sent', async () => {
    const o = await add('Original');
    const title = await call(t.admin, 'PUT', `/queue-options/${o.id}`, { title: 'Novo título' });
    expect(title.json()).toMatchObject({ title: 'Novo título', message: 'msg Original', option: o.option });
    const message = await call(t.admin, 'PUT', `/queue-options/${o.id}`, { message: 'Nova mensagem' });
    expect(message.json()).toMatchObject({ title: 'Novo título', message: 'Nova mensagem' });
  });

  it('refuses a parent of another queue', async () => {
    const q2 = (await call(t.admin, 'POST', '/queue', { name: 'Segunda', color: '#333333' })).json().id;
    const parent = await add('Pai', null, q2);
    const res = await call(t.admin, 'POST', '/queue-options', { queueId, parentId: parent.id, title: 'Órfão' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
  });

  it('is written by admins only', async () => {
    const o = await add('Protegida');
    for (const res of [
      await call(t.user, 'POST', '/queue-options', { queueId, title: 'Do usuário' }),
      await call(t.user, 'PUT', `/queue-options/${o.id}`, { title: 'Mudada' }),
      await call(t.user, 'DELETE', `/queue-options/${o.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect((await level()).map(([, title]) => title)).toContain('Protegida');
  });

  it("cannot list, add to or change another company's queue options", async () => {
    const theirs = await add('Deles', null, otherQueueId, other.admin);
    const list = await call(t.admin, 'GET', `/queue-options?queueId=${otherQueueId}`);
    expect(list.statusCode).toBe(404);
    expect(list.json().error).toBe('ERR_NO_QUEUE_FOUND');
    expect(list.body).not.toContain('Deles');
    const created = await call(t.admin, 'POST', '/queue-options', { queueId: otherQueueId, title: 'Intrusa' });
    expect(created.statusCode).toBe(404);
    const underTheirs = await call(t.admin, 'POST', '/queue-options', {
      queueId,
      parentId: theirs.id,
      title: 'Intrusa',
    });
    expect(underTheirs.statusCode).toBe(404);
    for (const res of [
      await call(t.admin, 'PUT', `/queue-options/${theirs.id}`, { title: 'Invadida' }),
      await call(t.admin, 'DELETE', `/queue-options/${theirs.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
    }
    expect(await level(undefined, otherQueueId, other.admin)).toEqual([[1, 'Deles']]);
  });
});
