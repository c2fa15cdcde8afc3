import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements } from '../../../test/count-statements.js';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox } from '../../../test/sandbox-helpers.js';
import { messages } from '../messages/messages.schema.js';

/**
 * Issue 16: the hot reads run a bounded number of SQL statements, counted where the driver
 * receives them (the session check included).
 */

let server: TestServer;
let t: Tenant;
let ticketId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  const queueId = (await call(t.admin, 'POST', '/queue', { name: 'Fila', color: '#0000A0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [queueId] });
  const whatsappId = await connectedSandbox(server, t.admin);
  const contact = (await call(t.admin, 'POST', '/contacts', { name: 'Zélia Pereira', number: '5511955501234' })).json();
  const ticket = await call(t.user, 'POST', '/tickets', { contactId: contact.id, queueId, status: 'open' });
  expect(ticket.statusCode, ticket.body).toBe(201);
  ticketId = ticket.json().id;
  const tag = (await call(t.admin, 'POST', '/tags', { name: 'VIP', color: '#AA0000' })).json();
  await call(t.admin, 'POST', '/tags/sync', { ticketId, tags: [{ id: tag.id }] });
  const base = { companyId: t.companyId, ticketId, whatsappId, contactId: contact.id, read: true };
  const [first] = await server.deps.database.db
    .insert(messages)
    .values({ ...base, body: 'pedido 4471 atrasado' })
    .returning({ id: messages.id });
  await server.deps.database.db
    .insert(messages)
    .values(Array.from({ length: 25 }, (_, i) => ({ ...base, body: `mensagem ${i}`, quotedMsgId: first.id })));
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function expectOk(session: Session, url: string) {
  const res = await call(session, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('statements per hot read', () => {
  it.each([
    ['GET /tickets', '/tickets?status=open&showAll=false&pageNumber=1', 1],
    ['GET /tickets?searchParam', `/tickets?searchParam=${encodeURIComponent('pedido 4471')}&pageNumber=1`, 1],
    ['GET /messages/:ticketId', () => `/messages/${ticketId}`, 1],
  ])(
    '%s runs %i statement(s) once its session is known (callers.test: one more before)',
    async (_name, url, expected) => {
      const path = typeof url === 'function' ? url() : url;
      const session = t.user;
      await expectOk(session, '/auth/me');
      const counted = async () => {
        let body: { count: number } | undefined;
        const statements = await countStatements(server.deps.database.db, async () => {
          body = await expectOk(session, path);
        });
        expect(body?.count).toBeGreaterThan(0);
        return statements;
      };
      expect(await counted()).toBe(expected);
    },
  );

  it('a page past the end still reports the count', async () => {
    const body = await expectOk(t.user, `/messages/${ticketId}?pageNumber=9`);
    expect(body).toMatchObject({ messages: [], count: 26, hasMore: false });
    const list = await expectOk(t.user, '/tickets?status=open&showAll=false&pageNumber=9');
    expect(list).toMatchObject({ tickets: [], count: 1, hasMore: false });
  });

  it('the page carries its details: tags, quoted messages and their contacts', async () => {
    const list = await expectOk(t.user, '/tickets?status=open&showAll=false&pageNumber=1');
    expect(list.tickets[0]).toMatchObject({ id: ticketId, tags: [{ name: 'VIP', color: '#AA0000' }] });
    // The count rides on the statement's rows, not on the reply's tickets.
    expect(list.tickets[0]).not.toHaveProperty('total');
    const page = await expectOk(t.user, `/messages/${ticketId}`);
    expect(page.messages).toHaveLength(20);
    expect(page.messages.at(-1)).toMatchObject({
      body: 'mensagem 24',
      contact: { name: 'Zélia Pereira' },
      quotedMsg: { body: 'pedido 4471 atrasado', contact: { name: 'Zélia Pereira' } },
    });
  });
});
