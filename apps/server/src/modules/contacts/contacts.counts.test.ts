import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../test/count-statements.js';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { ownConnections } from '../../../test/own-connections.js';
import { connectedSandbox, contactWrites } from '../../../test/sandbox-helpers.js';
import { insertMany } from '../../db/insert-many.js';
import { contacts } from './contacts.schema.js';

/**
 * The contacts list's count of all of a company's contacts is summed from `contact_counts`
 * (migration 0025), kept by triggers in the transaction that writes the contacts: whatever adds or
 * removes a contact (the API, an inbound message, a bulk insert as the import's, a company's
 * deletion), the list's count is the company's contacts, and another company's stay its own.
 */
let server: TestServer;
let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  const wa = await connectedSandbox(server, other.admin);
  for (const n of [1, 2]) await contactWrites(server, other.admin, wa, { number: `55119710000${n}` });
});
afterAll(() => server.close());

const rows = async (text: string, values?: unknown[]) => (await server.deps.database.query(text, values)).rows;

function call(session: Session, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

/** The list's count, and how many contacts the company has. */
async function counted(tenant: Tenant) {
  const res = await call(tenant.admin, 'GET', '/contacts?pageNumber=1');
  expect(res.statusCode, res.body).toBe(200);
  const [{ n }] = await rows('select count(*)::int n from contacts where company_id = $1', [tenant.companyId]);
  return { listed: res.json().count as number, actual: n as number };
}

describe('contact counts', () => {
  it('follow every way a contact comes and goes, per company', async () => {
    const start = await counted(t);
    expect(start.listed).toBe(start.actual);
    const created = [];
    for (const n of [1, 2, 3]) {
      const res = await call(t.admin, 'POST', '/contacts', { name: `Pessoa ${n}`, number: `55119720000${n}` });
      expect(res.statusCode, res.body).toBe(201);
      created.push(res.json().id as number);
    }
    const wa = await connectedSandbox(server, t.admin);
    await contactWrites(server, t.admin, wa, { number: '5511973000001' });
    await insertMany(
      server.deps.database.db,
      contacts,
      Array.from({ length: 50 }, (_, i) => ({ companyId: t.companyId, name: `Lote ${i}`, number: `5511974${i}` })),
    );
    expect(await counted(t)).toEqual({ listed: start.actual + 54, actual: start.actual + 54 });
    const removed = await call(t.admin, 'DELETE', `/contacts/${created[0]}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await counted(t)).toEqual({ listed: start.actual + 53, actual: start.actual + 53 });
    // A search counts its matches.
    const search = await call(t.admin, 'GET', '/contacts?searchParam=lote&pageNumber=1');
    expect(search.json().count).toBe(50);
    expect(await counted(other)).toEqual({ listed: 2, actual: 2 });
  });

  it('read the kept count, not the contacts, for the whole list', async () => {
    const sent = await recordStatements(server.deps.database.db, () => call(t.admin, 'GET', '/contacts?pageNumber=2'));
    expect(sent.some((s) => s.text.includes('"contact_counts"'))).toBe(true);
    expect(sent.some((s) => /count\(\*\)/.test(s.text))).toBe(false);
  });

  it("go with a deleted company's contacts, and the deletion goes through", async () => {
    const doomed = await createTenant(server);
    await call(doomed.admin, 'POST', '/contacts', { name: 'Última', number: '5511975000001' });
    expect(await rows('select 1 from contact_counts where company_id = $1', [doomed.companyId])).not.toHaveLength(0);
    const su = await login(server, SUPER.email, SUPER.password);
    const res = await call(su, 'DELETE', `/companies/${doomed.companyId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows('select 1 from contact_counts where company_id = $1', [doomed.companyId])).toHaveLength(0);
    const kept = await counted(t);
    expect(kept.listed).toBe(kept.actual);
  });

  it('two writers of one company never wait for each other, and their counts add up', async ({ skip }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite has one connection');
    const [first, second] = await ownConnections(server.deps.database, 2);
    const insert = (client: pg.Client, n: number) =>
      client.query(`insert into contacts (company_id, name, number) values ($1, 'Concorrente', $2)`, [
        t.companyId,
        `551197600000${n}`,
      ]);
    const companyRows = async () =>
      (await rows('select count(*)::int n from contact_counts where company_id = $1', [t.companyId]))[0].n as number;
    try {
      expect(await companyRows()).toBe(1);
      await first.query('begin');
      await insert(first, 1);
      // The first writer holds a row of the company until it commits: the second takes one of its own.
      await second.query(`set lock_timeout = '2s'`);
      await insert(second, 2);
      expect(await companyRows()).toBe(2);
      await first.query('commit');
      const after = await counted(t);
      expect(after.listed).toBe(after.actual);
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});
