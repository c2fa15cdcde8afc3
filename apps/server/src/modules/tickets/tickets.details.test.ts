import type { Ticket } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../test/count-statements.js';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';

/**
 * A ticket's contact, user, queue and connection are read by joins in the statements planned once
 * per connection and by JSON subqueries in those planned on each call (tickets.view, `detailForms`).
 * Both forms must give the same ticket, with the details a ticket may lack (user, queue) as null.
 */
let server: TestServer;
let t: Tenant;
let queue: { id: number; name: string; color: string };
let tag: { id: number; name: string; color: string };
const ids: Record<'queued' | 'mine' | 'bare', number> = { queued: 0, mine: 0, bare: 0 };
beforeAll(async () => {
  server = await createTestServer();
  t = await createTenant(server);
  queue = {
    id: (await call(t.admin, 'POST', '/queue', { name: 'Financeiro', color: '#00A0A0' })).json().id,
    name: 'Financeiro',
    color: '#00A0A0',
  };
  tag = {
    id: (await call(t.admin, 'POST', '/tags', { name: 'VIP', color: '#A000A0' })).json().id,
    name: 'VIP',
    color: '#A000A0',
  };
  await call(t.admin, 'POST', '/whatsapp', { name: 'Loja', provider: 'sandbox', isDefault: true });
  ids.queued = await ticket(1, { queueId: queue.id, status: 'pending' });
  ids.mine = await ticket(2, { status: 'open', userId: t.admin.user.id });
  ids.bare = await ticket(3, { status: 'pending' });
  const tagged = await call(t.admin, 'PUT', `/ticket-tags/${ids.mine}/${tag.id}`);
  expect(tagged.statusCode, tagged.body).toBe(200);
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function ticket(n: number, body: Record<string, unknown>) {
  const contact = await call(t.admin, 'POST', '/contacts', {
    name: `Cliente ${n}`,
    number: `551197000000${n}`,
    email: `cliente${n}@example.com`,
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const res = await call(t.admin, 'POST', '/tickets', { contactId: contact.json().id, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

/** The admin's list with `query`, and the text of the page's statement. */
async function list(query: string) {
  let body: { tickets: Ticket[] } = { tickets: [] };
  const sent = await recordStatements(server.deps.database.db, async () => {
    const res = await call(t.admin, 'GET', `/tickets?showAll=true${query}`);
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  const page = sent.find((s) => s.text.includes('"ticket_tags"'));
  const byId = new Map(body.tickets.map((x) => [x.id, x]));
  return { byId, text: page?.text ?? '' };
}

describe('ticket details', () => {
  it('are the same joined (a list planned once) and as subqueries (a list with a day in sight)', async () => {
    const joined = await list('');
    const today = new Date().toISOString().slice(0, 10);
    const subqueries = await list(`&date=${today}`);
    expect(joined.text).toMatch(/join "contacts"/);
    expect(joined.text).not.toMatch(/json_build_object\('id', "contacts"/);
    expect(subqueries.text).toMatch(/json_build_object\('id', "contacts"/);
    expect(subqueries.text).not.toMatch(/join "contacts"/);

    const whatsapp = { id: expect.any(Number), name: 'Loja' };
    const queued = joined.byId.get(ids.queued);
    expect(queued).toMatchObject({
      contact: { name: 'Cliente 1', number: '5511970000001', email: 'cliente1@example.com', isGroup: false },
      user: null,
      queue,
      whatsapp,
      tags: [],
    });
    expect(queued?.contact.id).toBe(queued?.contactId);
    expect(joined.byId.get(ids.mine)).toMatchObject({
      user: { id: t.admin.user.id, name: t.admin.user.name },
      queue: null,
      tags: [tag],
    });
    expect(joined.byId.get(ids.bare)).toMatchObject({ user: null, queue: null, tags: [] });
    for (const id of Object.values(ids)) {
      expect(subqueries.byId.get(id)).toEqual(joined.byId.get(id));
      // One ticket read by id (joined too) is the list's.
      expect((await call(t.admin, 'GET', `/tickets/${id}`)).json()).toEqual(joined.byId.get(id));
    }
  });
});
