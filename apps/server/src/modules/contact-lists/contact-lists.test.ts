import { type ContactImportEvent, companyEvent } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../test/count-statements.js';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox } from '../../../test/sandbox-helpers.js';
import { sheetFile, upload } from '../contacts/contacts.import.test.js';
import { checkListNumbers } from './contact-lists.service.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let socket: Socket;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000', CONTACT_CHECK_GAP_MS: '20' }, { jobs: true });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
  socket = await connectSocket(server, t.admin.token);
});
afterAll(async () => {
  socket.close();
  await server.close();
});

const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.call(method, url, session, payload);
const newList = async (name: string) => {
  const res = await call(t.admin, 'POST', '/contact-lists', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; contactsCount: number };
};

describe('contact lists', () => {
  it('CRUD with records/count/hasMore and contactsCount, search, the plain list', async () => {
    const list = await newList('Clientes VIP');
    expect(list).toMatchObject({ name: 'Clientes VIP', contactsCount: 0, uncheckedCount: 0 });
    await newList('Outra lista');
    const page = (await call(t.user, 'GET', '/contact-lists?searchParam=vip')).json();
    expect(page).toMatchObject({ count: 1, hasMore: false, records: [expect.objectContaining({ id: list.id })] });
    expect((await call(t.user, 'GET', '/contact-lists/list')).json().map((l: { name: string }) => l.name)).toEqual([
      'Clientes VIP',
      'Outra lista',
    ]);
    const renamed = await call(t.user, 'PUT', `/contact-lists/${list.id}`, { name: 'Clientes Ouro' });
    expect(renamed.json().name).toBe('Clientes Ouro');
    // Deleting is the admins' (like contacts and tags).
    expect((await call(t.user, 'DELETE', `/contact-lists/${list.id}`)).statusCode).toBe(403);
    expect((await call(t.admin, 'DELETE', `/contact-lists/${list.id}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/contact-lists/${list.id}`)).json().error).toBe('ERR_NO_CONTACT_LIST_FOUND');
  });

  it('validates names with the messages of spec §5', async () => {
    const short = await call(t.admin, 'POST', '/contact-lists', { name: 'A' });
    expect(short.json().fields).toEqual([{ path: 'name', message: 'Muito curto!' }]);
    const long = await call(t.admin, 'POST', '/contact-lists', { name: 'x'.repeat(51) });
    expect(long.json().fields).toEqual([{ path: 'name', message: 'Muito longo!' }]);
  });

  it('is refused to a company whose plan lacks useCampaigns, whatever the role', async () => {
    const noCampaigns = await createTenant(server, { plan: { useCampaigns: false } });
    for (const session of [noCampaigns.admin, noCampaigns.user]) {
      const res = await call(session, 'GET', '/contact-lists');
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    // Importing contacts is not a campaign feature.
    const imp = await upload(
      server,
      noCampaigns.admin,
      '/contacts/import',
      'a.csv',
      Buffer.from('numero\n5511900000001\n'),
    );
    expect(imp.statusCode).toBe(202);
  });
});

describe('list items', () => {
  it('CRUD, validation, normalised numbers, duplicates and another company', async () => {
    const list = await newList('Itens');
    const bad = await call(t.user, 'POST', '/contact-list-items', {
      name: 'A',
      number: '1234',
      email: 'x',
      contactListId: list.id,
    });
    expect(bad.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Muito curto!' },
        { path: 'number', message: 'Muito curto!' },
        { path: 'email', message: 'E-mail inválido' },
      ]),
    );
    const created = await call(t.user, 'POST', '/contact-list-items', {
      name: 'Maria',
      number: '(11) 98888-7777',
      email: 'maria@x.com',
      contactListId: list.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json();
    expect(item).toMatchObject({ number: '5511988887777', contactListId: list.id, companyId: t.companyId });
    const dup = await call(t.user, 'POST', '/contact-list-items', {
      name: 'Maria 2',
      number: '5511988887777',
      contactListId: list.id,
    });
    expect(dup.json().error).toBe('ERR_DUPLICATED_CONTACT');
    const page = (await call(t.user, 'GET', `/contact-list-items?contactListId=${list.id}&searchParam=mar`)).json();
    expect(page).toMatchObject({ count: 1, hasMore: false, contacts: [expect.objectContaining({ id: item.id })] });
    expect((await call(t.user, 'PUT', `/contact-list-items/${item.id}`, { name: 'Maria Silva' })).json().name).toBe(
      'Maria Silva',
    );
    expect((await call(other.admin, 'GET', `/contact-list-items/${item.id}`)).statusCode).toBe(404);
    expect((await call(other.admin, 'GET', `/contact-list-items?contactListId=${list.id}`)).statusCode).toBe(404);
    expect((await call(t.user, 'DELETE', `/contact-list-items/${item.id}`)).statusCode).toBe(200);
    expect((await call(t.user, 'GET', `/contact-lists/${list.id}`)).json().contactsCount).toBe(0);
  });

  it('an upload imports xlsx rows with variables in the background, then a paced job checks them on WhatsApp', async () => {
    const list = await newList('Campanha');
    const file = sheetFile(
      [
        ['Nome', 'Telefone', 'Email', 'Cupom'],
        ['Ana Lista', '11 98888-0001', '', 'A10'],
        ['Bia Lista', '123456789012345678901', '', ''],
        ['X', '11988880003', '', ''],
        ['Ana Lista', '5511988880001', 'ana@l.com', ''],
      ],
      'xlsx',
    );
    const done = eventWhere<ContactImportEvent>(
      socket,
      companyEvent.contactImport(t.companyId),
      (p) => p.action === 'done',
      15_000,
    );
    const res = await upload(server, t.admin, `/contact-lists/${list.id}/upload`, 'lista.xlsx', file);
    expect(res.statusCode, res.body).toBe(202);
    expect((await done).import).toMatchObject({ contactListId: list.id, imported: 2, rejected: 1 });
    const items = (await call(t.admin, 'GET', `/contact-list-items?contactListId=${list.id}`)).json().contacts;
    expect(items).toEqual([
      expect.objectContaining({
        name: 'Ana Lista',
        email: 'ana@l.com',
        variables: { Cupom: 'A10' },
        isWhatsappValid: null,
      }),
      expect.objectContaining({ name: 'Bia Lista', isWhatsappValid: null }),
    ]);
    // No connection yet: they stay unchecked. Once one is up the check runs (the sandbox knows 8–20 digit numbers).
    await connectedSandbox(server, t.admin);
    await checkListNumbers(
      { db: server.deps.database.db, realtime: server.deps.realtime },
      {
        gapMs: 0,
        channelOf: async () => server.deps.channels.get((await call(t.admin, 'GET', '/whatsapp')).json()[0].id),
      },
      t.companyId,
      list.id,
    );
    const counts = (await call(t.admin, 'GET', `/contact-lists/${list.id}`)).json();
    expect(counts).toMatchObject({ contactsCount: 2, validCount: 1, invalidCount: 1, uncheckedCount: 0 });
  });

  it('the check asks for both ninth-digit variants and stores the one WhatsApp knows, merging twins', async () => {
    // A company without a connection: the queued job leaves the items unchecked for the fake channel below.
    const fresh = await createTenant(server);
    const list = (await call(fresh.admin, 'POST', '/contact-lists', { name: 'Nono dígito' })).json();
    for (const [name, number] of [
      ['Sem nove', '551188881234'],
      ['Com nove', '5511988881234'],
    ]) {
      await call(fresh.admin, 'POST', '/contact-list-items', { name, number, contactListId: list.id });
    }
    const asked: string[] = [];
    const channel = {
      async checkNumber(n: string) {
        asked.push(n);
        return n === '5511988881234' ? { exists: true, jid: `${n}@s.whatsapp.net` } : { exists: false };
      },
    };
    await checkListNumbers(
      { db: server.deps.database.db, realtime: server.deps.realtime },
      { gapMs: 0, channelOf: async () => channel },
      fresh.companyId,
      list.id,
    );
    expect(asked).toEqual(['551188881234', '5511988881234', '5511988881234']);
    const items = (await call(fresh.admin, 'GET', `/contact-list-items?contactListId=${list.id}`)).json().contacts;
    expect(items).toEqual([expect.objectContaining({ number: '5511988881234', isWhatsappValid: true })]);
  });
});

describe("a list's counts", () => {
  it('are kept on its row through every write of its items, and read without counting them', async () => {
    const fresh = await createTenant(server);
    const list = (await call(fresh.admin, 'POST', '/contact-lists', { name: 'Contadas' })).json();
    const other = (await call(fresh.admin, 'POST', '/contact-lists', { name: 'Vizinha' })).json();
    /** The list's counts as the API gives them, and as its items are. */
    const counted = async (id: number) => {
      const shown = (await call(fresh.admin, 'GET', `/contact-lists/${id}`)).json();
      const [truth] = (
        await server.deps.database.query<{ n: number; valid: number; invalid: number }>(
          `select count(*)::int n, (count(*) filter (where is_whatsapp_valid))::int valid,
             (count(*) filter (where not is_whatsapp_valid))::int invalid
           from contact_list_items where contact_list_id = $1`,
          [id],
        )
      ).rows;
      expect(shown).toMatchObject({
        contactsCount: truth.n,
        validCount: truth.valid,
        invalidCount: truth.invalid,
        uncheckedCount: truth.n - truth.valid - truth.invalid,
      });
      return shown as { contactsCount: number; validCount: number; invalidCount: number };
    };
    const ids: number[] = [];
    for (const [name, number] of [
      ['Um', '5511977770001'],
      ['Dois', '5511977770002'],
      ['Três', '5511977770003'],
      ['Quatro', '551177770003'],
    ]) {
      const res = await call(fresh.admin, 'POST', '/contact-list-items', { name, number, contactListId: list.id });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    await call(fresh.admin, 'POST', '/contact-list-items', {
      name: 'Ao lado',
      number: '5511977770009',
      contactListId: other.id,
    });
    expect(await counted(list.id)).toMatchObject({ contactsCount: 4, validCount: 0, invalidCount: 0 });
    // The check: 0001 and 0003 exist, 0002 does not, and 551177770003 is 0003 with its ninth digit (a twin, removed).
    const known = ['5511977770001', '5511977770003'];
    await checkListNumbers(
      { db: server.deps.database.db, realtime: server.deps.realtime },
      { gapMs: 0, channelOf: async () => ({ checkNumber: async (n: string) => ({ exists: known.includes(n) }) }) },
      fresh.companyId,
      list.id,
    );
    expect(await counted(list.id)).toMatchObject({ contactsCount: 3, validCount: 2, invalidCount: 1 });
    // A new number is unchecked again; a name alone changes no count.
    await call(fresh.admin, 'PUT', `/contact-list-items/${ids[0]}`, { number: '5511977770005' });
    await call(fresh.admin, 'PUT', `/contact-list-items/${ids[1]}`, { name: 'Dois de novo' });
    expect(await counted(list.id)).toMatchObject({ contactsCount: 3, validCount: 1, invalidCount: 1 });
    await call(fresh.admin, 'DELETE', `/contact-list-items/${ids[1]}`);
    expect(await counted(list.id)).toMatchObject({ contactsCount: 2, validCount: 1, invalidCount: 0 });
    expect(await counted(other.id)).toMatchObject({ contactsCount: 1 });

    const sent = await recordStatements(server.deps.database.db, async () => {
      await call(fresh.admin, 'GET', '/contact-lists');
      await call(fresh.admin, 'GET', `/contact-list-items?contactListId=${list.id}`);
    });
    expect(sent.filter((q) => /count\(\*\)/.test(q.text))).toEqual([
      expect.objectContaining({ text: expect.stringContaining('"contact_lists"') }),
    ]);
    // The company's deletion takes its lists and items with it.
    const su = await login(server, SUPER.email, SUPER.password);
    expect((await call(su, 'DELETE', `/companies/${fresh.companyId}`)).statusCode).toBe(200);
    const left = await server.deps.database.query('select 1 from contact_lists where company_id = $1', [
      fresh.companyId,
    ]);
    expect(left.rows).toHaveLength(0);
  });
});

describe('a connection coming up', () => {
  it('checks the items that were added while no connection was connected', async () => {
    const fresh = await createTenant(server);
    const list = (await call(fresh.admin, 'POST', '/contact-lists', { name: 'Sem conexão' })).json() as { id: number };
    const item = await call(fresh.admin, 'POST', '/contact-list-items', {
      name: 'Ainda não verificado',
      number: '5511977776543',
      contactListId: list.id,
    });
    expect(item.statusCode, item.body).toBe(201);
    const unchecked = await call(fresh.admin, 'GET', `/contact-list-items/${item.json().id}`);
    expect(unchecked.json().isWhatsappValid).toBeNull();
    await connectedSandbox(server, fresh.admin);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = (await call(fresh.admin, 'GET', `/contact-list-items/${item.json().id}`)).json();
      if (now.isWhatsappValid === true) break;
      if (Date.now() > deadline) throw new Error(`still ${now.isWhatsappValid} 10 s after the connection came up`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
