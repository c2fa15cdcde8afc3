import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let colleague: Session;
let qa: number;
let qb: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  for (const tenant of [t, other])
    await call(tenant.admin, 'POST', '/whatsapp', { name: 'Principal', provider: 'sandbox' });
  qa = (await call(t.admin, 'POST', '/queue', { name: 'Fila A', color: '#0000A0' })).json().id;
  qb = (await call(t.admin, 'POST', '/queue', { name: 'Fila B', color: '#0000B0' })).json().id;
  await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [qa] });
  await call(t.admin, 'POST', '/users', {
    name: 'Colega',
    email: 'colega@notes.test',
    password: 'colega-pass',
    queueIds: [qa],
  });
  colleague = await login(server, 'colega@notes.test', 'colega-pass');
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

let seq = 0;
const ticketOf = async (tenant: Tenant, queueId: number | null) => {
  const n = ++seq;
  const contact = (
    await call(tenant.admin, 'POST', '/contacts', { name: `Cliente ${n}`, number: `55119300000${n}` })
  ).json();
  const res = await call(tenant.admin, 'POST', '/tickets', { contactId: contact.id, queueId, status: 'open' });
  expect(res.statusCode, res.body).toBe(201);
  return { ticketId: res.json().id as number, contactId: contact.id as number };
};
type Note = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  user: { id: number; name: string } | null;
};
const add = async (session: Session, ids: { ticketId: number; contactId: number }, note: string) => {
  const res = await call(session, 'POST', '/ticket-notes', { ...ids, note });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Note;
};
const listOf = async (session: Session, ids: { ticketId?: number; contactId: number }) => {
  const q = `contactId=${ids.contactId}${ids.ticketId ? `&ticketId=${ids.ticketId}` : ''}`;
  return call(session, 'GET', `/ticket-notes/list?${q}`);
};

describe('ticket notes', () => {
  it('need at least 2 characters and record their author', async () => {
    const ids = await ticketOf(t, qa);
    const short = await call(t.user, 'POST', '/ticket-notes', { ...ids, note: ' a ' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toContainEqual({ path: 'note', message: 'Muito curto!' });
    const note = await add(t.user, ids, 'Cliente pediu retorno amanhã');
    expect(note).toMatchObject({
      ...ids,
      note: 'Cliente pediu retorno amanhã',
      user: { id: t.user.user.id, name: t.user.user.name },
    });
  });

  it("list the ticket's notes, newest first, and only that ticket's when asked", async () => {
    const ids = await ticketOf(t, qa);
    await add(t.user, ids, 'Primeira nota');
    await add(colleague, ids, 'Segunda nota');
    // An older ticket of the same contact.
    await call(t.admin, 'PUT', `/tickets/${ids.ticketId}`, { status: 'closed' });
    const next = await call(t.admin, 'POST', '/tickets', { contactId: ids.contactId, queueId: qa, status: 'open' });
    const nextIds = { ticketId: next.json().id as number, contactId: ids.contactId };
    await add(t.user, nextIds, 'Nota do novo ticket');

    const forTicket = await listOf(t.user, ids);
    expect(forTicket.statusCode).toBe(200);
    expect((forTicket.json() as Note[]).map((n) => [n.note, n.user?.name])).toEqual([
      ['Segunda nota', 'Colega'],
      ['Primeira nota', t.user.user.name],
    ]);
    expect((await listOf(t.user, nextIds)).json().map((n: Note) => n.note)).toEqual(['Nota do novo ticket']);
    // The contact's whole history is for admins.
    const all = await listOf(t.admin, { contactId: ids.contactId });
    expect(all.json()).toHaveLength(3);
    const denied = await listOf(t.user, { contactId: ids.contactId });
    expect(denied.statusCode).toBe(403);
  });

  it('delete: the author may, a colleague may not, an admin may', async () => {
    const ids = await ticketOf(t, qa);
    const mine = await add(t.user, ids, 'Nota minha');
    const refused = await call(colleague, 'DELETE', `/ticket-notes/${mine.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(t.user, 'DELETE', `/ticket-notes/${mine.id}`)).statusCode).toBe(200);
    expect((await listOf(t.user, ids)).json()).toEqual([]);
    const again = await call(t.user, 'DELETE', `/ticket-notes/${mine.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('ERR_NO_NOTE_FOUND');

    const theirs = await add(colleague, ids, 'Nota da colega');
    expect((await call(t.admin, 'DELETE', `/ticket-notes/${theirs.id}`)).statusCode).toBe(200);
  });

  it('a plain user cannot read or write notes of a ticket outside their queues', async () => {
    const ids = await ticketOf(t, qb);
    const adminNote = await add(t.admin, ids, 'Nota na fila B');
    for (const res of [
      await listOf(t.user, ids),
      await call(t.user, 'POST', '/ticket-notes', { ...ids, note: 'Intrusa' }),
      await call(t.user, 'DELETE', `/ticket-notes/${adminNote.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('Nota na fila B');
    }
    expect((await listOf(t.admin, ids)).json()).toHaveLength(1);
  });

  it('refuse a contact that is not the ticket’s', async () => {
    const ids = await ticketOf(t, qa);
    const otherIds = await ticketOf(t, qa);
    const res = await call(t.user, 'POST', '/ticket-notes', {
      ticketId: ids.ticketId,
      contactId: otherIds.contactId,
      note: 'Trocada',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it("another company's ticket or note answers 404", async () => {
    const theirs = await ticketOf(other, null);
    const note = await add(other.admin, theirs, 'Segredo deles');
    for (const res of [
      await call(t.admin, 'POST', '/ticket-notes', { ...theirs, note: 'Intrusa' }),
      await listOf(t.admin, theirs),
      await call(t.admin, 'DELETE', `/ticket-notes/${note.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Segredo deles');
    }
    const contactOnly = await listOf(t.admin, { contactId: theirs.contactId });
    expect(contactOnly.statusCode).toBe(200);
    expect(contactOnly.json()).toEqual([]);
    expect((await listOf(other.admin, theirs)).json().map((n: Note) => n.note)).toEqual(['Segredo deles']);
  });
});
