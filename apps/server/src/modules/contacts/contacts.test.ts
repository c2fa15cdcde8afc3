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
  t = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

type Contact = {
  id: number;
  name: string;
  number: string;
  email: string;
  extraInfo?: { id: number; name: string; value: string }[];
};
const create = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/contacts', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Contact;
};

describe('contact validation', () => {
  it('answers the form messages of spec §5', async () => {
    const res = await call(t.user, 'POST', '/contacts', { name: 'A', number: '123', email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(res.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Muito curto!' },
        { path: 'number', message: 'Muito curto!' },
        { path: 'email', message: 'E-mail inválido' },
      ]),
    );
    const missing = await call(t.user, 'POST', '/contacts', { name: '   ', number: '' });
    expect(missing.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Obrigatório' },
        { path: 'number', message: 'Obrigatório' },
      ]),
    );
    const long = await call(t.user, 'POST', '/contacts', { name: 'x'.repeat(51), number: '1'.repeat(51) });
    expect(long.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Muito longo!' },
        { path: 'number', message: 'Muito longo!' },
      ]),
    );
    // Eight characters but fewer than eight digits.
    const letters = await call(t.user, 'POST', '/contacts', { name: 'Letras', number: 'abc-defg-12' });
    expect(letters.json().fields).toContainEqual({ path: 'number', message: 'Muito curto!' });
    expect((await call(t.admin, 'GET', '/contacts')).json().count).toBe(0);
  });

  it('keeps only the digits of a number', async () => {
    const contact = await create(t.user, { name: 'Formatado', number: '+55 (11) 98888-0001' });
    expect(contact.number).toBe('5511988880001');
    expect(contact.email).toBe('');
  });
});

describe('duplicates', () => {
  it('refuses a second contact with the same number, however it is written (ERR_DUPLICATED_CONTACT)', async () => {
    const first = await create(t.admin, { name: 'Primeiro', number: '5511977770001' });
    const again = await call(t.user, 'POST', '/contacts', { name: 'Segundo', number: '+55 11 97777-0001' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_DUPLICATED_CONTACT');

    const second = await create(t.admin, { name: 'Segundo', number: '5511977770002' });
    const clash = await call(t.user, 'PUT', `/contacts/${second.id}`, { number: '5511977770001' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('ERR_DUPLICATED_CONTACT');
    expect((await call(t.admin, 'GET', `/contacts/${second.id}`)).json().number).toBe('5511977770002');
    // Saving a contact with its own number is not a duplicate.
    const same = await call(t.user, 'PUT', `/contacts/${first.id}`, { name: 'Primeiro!', number: '5511977770001' });
    expect(same.statusCode).toBe(200);
  });

  it('another company may have a contact with the same number', async () => {
    await create(t.admin, { name: 'Cliente comum', number: '5511966660001' });
    const theirs = await create(other.admin, { name: 'Cliente comum', number: '5511966660001' });
    expect(theirs.number).toBe('5511966660001');
  });
});

describe('updates and extra information', () => {
  it('replaces the extra information when it is sent and keeps it otherwise', async () => {
    const contact = await create(t.user, {
      name: 'Com extras',
      number: '5511955550001',
      email: 'extras@cliente.test',
      extraInfo: [
        { name: 'CPF', value: '123' },
        { name: 'Plano', value: 'Ouro' },
      ],
    });
    expect(contact.extraInfo?.map((f) => [f.name, f.value])).toEqual([
      ['CPF', '123'],
      ['Plano', 'Ouro'],
    ]);
    const replaced = await call(t.user, 'PUT', `/contacts/${contact.id}`, {
      extraInfo: [{ name: 'Plano', value: 'Prata' }],
    });
    expect(replaced.json().extraInfo.map((f: { name: string; value: string }) => [f.name, f.value])).toEqual([
      ['Plano', 'Prata'],
    ]);

    // A PUT of the name alone changes only the name.
    const renamed = await call(t.user, 'PUT', `/contacts/${contact.id}`, { name: 'Renomeado' });
    expect(renamed.json()).toMatchObject({
      name: 'Renomeado',
      number: '5511955550001',
      email: 'extras@cliente.test',
    });
    expect(renamed.json().extraInfo).toHaveLength(1);

    const cleared = await call(t.user, 'PUT', `/contacts/${contact.id}`, { extraInfo: [] });
    expect(cleared.json().extraInfo).toEqual([]);
    expect((await call(t.admin, 'GET', `/contacts/${contact.id}`)).json().extraInfo).toEqual([]);
  });

  it('tells the company live about creations, updates and deletes (spec part 2 §4)', async () => {
    const socket = await connectSocket(server, t.user.token);
    try {
      const event = companyEvent.contact(t.companyId);
      const created = eventWhere<{ action: string; contact: Contact }>(
        socket,
        event,
        (e) => e.action === 'create' && e.contact.name === 'Ao vivo',
      );
      const contact = await create(t.admin, { name: 'Ao vivo', number: '5511944440001' });
      expect((await created).contact.id).toBe(contact.id);
      const updated = eventWhere<{ action: string; contact: Contact }>(
        socket,
        event,
        (e) => e.action === 'update' && e.contact.id === contact.id,
      );
      await call(t.admin, 'PUT', `/contacts/${contact.id}`, { name: 'Ao vivo 2' });
      expect((await updated).contact.name).toBe('Ao vivo 2');
      const deleted = eventWhere<{ action: string; contactId: number }>(socket, event, (e) => e.action === 'delete');
      await call(t.admin, 'DELETE', `/contacts/${contact.id}`);
      expect((await deleted).contactId).toBe(contact.id);
    } finally {
      socket.close();
    }
  });
});

describe('search and pages', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(server);
    for (let i = 0; i < 25; i++) {
      await create(tenant.admin, {
        name: `Pessoa ${String(i).padStart(2, '0')}`,
        number: `55219000000${String(i).padStart(2, '0')}`,
      });
    }
    await create(tenant.admin, { name: 'Zélia Souza', number: '5531988887777' });
  });

  it('pages by 20 in name order with the total count', async () => {
    const one = (await call(tenant.user, 'GET', '/contacts?pageNumber=1')).json();
    expect(one.contacts).toHaveLength(20);
    expect(one).toMatchObject({ count: 26, hasMore: true });
    expect(one.contacts[0].name).toBe('Pessoa 00');
    const two = (await call(tenant.user, 'GET', '/contacts?pageNumber=2')).json();
    expect(two.contacts.map((c: Contact) => c.name)).toEqual([
      'Pessoa 20',
      'Pessoa 21',
      'Pessoa 22',
      'Pessoa 23',
      'Pessoa 24',
      'Zélia Souza',
    ]);
    expect(two.hasMore).toBe(false);
  });

  it('searches by name (any case) and by part of the number', async () => {
    const byName = (await call(tenant.user, 'GET', `/contacts?searchParam=${encodeURIComponent('zélia')}`)).json();
    expect(byName.contacts.map((c: Contact) => c.name)).toEqual(['Zélia Souza']);
    expect(byName.count).toBe(1);
    const byNumber = (await call(tenant.user, 'GET', '/contacts?searchParam=88887777')).json();
    expect(byNumber.contacts.map((c: Contact) => c.number)).toEqual(['5531988887777']);
    const several = (await call(tenant.user, 'GET', '/contacts?searchParam=pessoa%201')).json();
    expect(several.count).toBe(10);
    // LIKE wildcards are searched as text.
    expect((await call(tenant.user, 'GET', '/contacts?searchParam=%25')).json().count).toBe(0);
    // The pickers' list, by searchParam (spec §7) as the list, and by the older `name`.
    const picker = (await call(tenant.user, 'GET', '/contacts/list?searchParam=souza')).json();
    expect(picker.map((c: Contact) => c.name)).toEqual(['Zélia Souza']);
    const pickerByNumber = (await call(tenant.user, 'GET', '/contacts/list?searchParam=88887777')).json();
    expect(pickerByNumber.map((c: Contact) => c.number)).toEqual(['5531988887777']);
    expect((await call(tenant.user, 'GET', '/contacts/list?name=souza')).json()).toEqual(picker);
    expect((await call(tenant.user, 'GET', '/contacts/list')).json()).toHaveLength(26);
  });

  it("never lists another company's contacts", async () => {
    const theirs = (await call(other.admin, 'GET', '/contacts?searchParam=pessoa')).json();
    expect(theirs.count).toBe(0);
  });
});

describe('deleting', () => {
  it('is for admins only', async () => {
    const contact = await create(t.user, { name: 'A apagar', number: '5511933330001' });
    const denied = await call(t.user, 'DELETE', `/contacts/${contact.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(t.user, 'GET', `/contacts/${contact.id}`)).statusCode).toBe(200);

    expect((await call(t.admin, 'DELETE', `/contacts/${contact.id}`)).statusCode).toBe(200);
    const gone = await call(t.user, 'GET', `/contacts/${contact.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it("cannot reach another company's contact", async () => {
    const theirs = await create(other.admin, { name: 'Deles', number: '5511922220001' });
    for (const res of [
      await call(t.admin, 'GET', `/contacts/${theirs.id}`),
      await call(t.admin, 'PUT', `/contacts/${theirs.id}`, { name: 'Invadido' }),
      await call(t.admin, 'DELETE', `/contacts/${theirs.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_CONTACT_FOUND');
    }
    expect((await call(other.admin, 'GET', `/contacts/${theirs.id}`)).json().name).toBe('Deles');
  });
});
