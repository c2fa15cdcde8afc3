import { companyEvent } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf } from '../../../test/sandbox-helpers.js';

const NUMBER = '5511955530001';

let server: TestServer;
let t: Tenant;
let bruno: Session;
let brunoSocket: Socket;
let queueId: number;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
  await server.listen();
  t = await createTenant(server);
  queueId = (await call(t.admin, 'POST', '/queue', { name: 'Suporte', color: '#0000A0' })).json().id;
  const email = 'bruno@transfer.test';
  await call(t.admin, 'POST', '/users', { name: 'Bruno', email, password: 'user-pass', queueIds: [queueId] });
  bruno = await login(server, email, 'user-pass');
  brunoSocket = await connectSocket(server, bruno.token);
  whatsappId = await connectedSandbox(server, t.admin);
});
afterAll(async () => {
  brunoSocket?.close();
  await server.close();
});

function call(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

type Line = { mediaType: string; body: string; ticketId: number };
const linesOf = async (ticketId: number) =>
  ((await call(t.admin, 'GET', `/messages/${ticketId}`)).json().messages as Line[]).filter(
    (m) => m.mediaType === 'transfer',
  );

describe('transferring a ticket', () => {
  it('records an event line, tells the receiver as for a new ticket, and sends nothing to the contact', async () => {
    await contactWrites(server, t.admin, whatsappId, { number: NUMBER, name: 'Rita', body: 'Preciso de ajuda' });
    const ticketId = (await call(t.admin, 'GET', `/tickets?searchParam=${NUMBER}`)).json().tickets[0].id;
    await call(t.admin, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: t.admin.user.id });
    // Accepting is no transfer.
    expect(await linesOf(ticketId)).toEqual([]);

    const ticketForBruno = eventWhere<{
      action: string;
      ticket?: { id: number; userId: number };
      transferredTo?: number;
    }>(brunoSocket, companyEvent.ticket(t.companyId), (e) => e.action === 'update' && e.ticket?.id === ticketId);
    const lineForBruno = eventWhere<{ message: Line; ticket: { lastMessage: string } }>(
      brunoSocket,
      companyEvent.appMessage(t.companyId),
      (e) => e.message.ticketId === ticketId,
    );
    const res = await call(t.admin, 'PUT', `/tickets/${ticketId}`, { queueId, userId: bruno.user.id });
    expect(res.json()).toMatchObject({ status: 'open', userId: bruno.user.id, queueId });

    // The receiver is named so that their client alerts as for a new ticket (open, not in the bell).
    expect(await ticketForBruno).toMatchObject({ ticket: { userId: bruno.user.id }, transferredTo: bruno.user.id });
    const live = await lineForBruno;
    expect(live.message).toMatchObject({ mediaType: 'transfer', body: 'Bruno · Suporte' });
    expect(live.ticket.lastMessage).toBe('Preciso de ajuda');
    // A reload shows it where it happened.
    expect(await linesOf(ticketId)).toMatchObject([{ body: 'Bruno · Suporte' }]);
    expect((await phoneOf(server, t.admin, whatsappId, NUMBER)).map((m) => m.body)).not.toContain('Bruno · Suporte');

    // Back to the queue without a user: the line names the queue alone; closing adds none.
    await call(bruno, 'PUT', `/tickets/${ticketId}`, { status: 'pending' });
    await call(t.admin, 'PUT', `/tickets/${ticketId}`, { queueId: null });
    await call(t.admin, 'PUT', `/tickets/${ticketId}`, { queueId });
    await call(t.admin, 'PUT', `/tickets/${ticketId}`, { status: 'closed', userId: t.admin.user.id });
    expect((await linesOf(ticketId)).map((m) => m.body)).toEqual(['Bruno · Suporte', 'Suporte']);
  });
});
