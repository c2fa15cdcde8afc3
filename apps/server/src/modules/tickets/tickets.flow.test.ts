import { companyEvent } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  nextEvent,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../../test/sandbox-helpers.js';

let server: TestServer;
let tenant: Tenant;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer({}, { jobs: true });
  await server.listen();
  tenant = await createTenant(server);
  whatsappId = await connectedSandbox(server, tenant.admin);
});
afterAll(() => server.close());

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers = tenant.admin.headers,
) => server.app.inject({ method, url, payload, headers });

describe('the core loop on the sandbox', () => {
  it('a contact writes, the admin sees it live, accepts, answers, the phone receives it, acks move, close, reopen', async () => {
    const socket = await connectSocket(server, tenant.admin.token);
    const ticketEvent = nextEvent<{ action: string; ticket: { id: number; status: string; unreadMessages: number } }>(
      socket,
      companyEvent.ticket(tenant.companyId),
    );
    const messageEvent = nextEvent<{ action: string; message: { body: string } }>(
      socket,
      companyEvent.appMessage(tenant.companyId),
    );
    await contactWrites(server, tenant.admin, whatsappId, {
      number: '5511999990001',
      name: 'Maria',
      body: 'Olá, preciso de ajuda',
    });
    const live = await ticketEvent;
    expect(live.ticket).toMatchObject({ status: 'pending', unreadMessages: 1 });
    expect((await messageEvent).message.body).toBe('Olá, preciso de ajuda');

    const pending = await api('GET', '/tickets?status=pending');
    expect(pending.json().tickets.map((t: { id: number }) => t.id)).toContain(live.ticket.id);
    const ticketId = live.ticket.id;

    const accepted = await api('PUT', `/tickets/${ticketId}`, { status: 'open', userId: tenant.admin.user.id });
    expect(accepted.json()).toMatchObject({ status: 'open', user: { id: tenant.admin.user.id } });

    const page = await api('GET', `/messages/${ticketId}`);
    expect(page.json().messages.map((m: { body: string }) => m.body)).toEqual(['Olá, preciso de ajuda']);
    expect((await api('GET', `/tickets/${ticketId}`)).json().unreadMessages).toBe(0);

    const sent = await api('POST', `/messages/${ticketId}`, { body: 'Claro! Como posso ajudar?' });
    expect(sent.statusCode).toBe(201);
    const phone = await waitUntil(
      () => phoneOf(server, tenant.admin, whatsappId, '5511999990001'),
      (list) => list.length === 1,
    );
    expect(phone[0].body).toBe('Claro! Como posso ajudar?');

    await api('POST', `/sandbox/${whatsappId}/ack`, { providerId: phone[0].providerId, ack: 3 });
    const acked = await api('GET', `/messages/${ticketId}`);
    expect(acked.json().messages.at(-1)).toMatchObject({ fromMe: true, ack: 3, sendStatus: 'sent' });

    const closed = await api('PUT', `/tickets/${ticketId}`, { status: 'closed' });
    expect(closed.json().status).toBe('closed');
    await contactWrites(server, tenant.admin, whatsappId, { number: '5511999990001', body: 'Oi de novo' });
    const again = await api('GET', `/tickets/${ticketId}`);
    expect(again.json()).toMatchObject({ status: 'pending', user: null, queue: null, unreadMessages: 1 });
    socket.close();
  });

  // 400 inbound messages through the real pipeline: well within the default on a quiet machine, a minute on a loaded CI one.
  it('200 messages from one contact at once, then redelivered, make one ticket with 200 messages', async () => {
    const number = '5511999990002';
    const ids = Array.from({ length: 200 }, (_, i) => `BURST${i}`);
    const send = () =>
      Promise.all(
        ids.map((providerId, i) =>
          contactWrites(server, tenant.admin, whatsappId, { number, body: `m${i}`, providerId }),
        ),
      );
    await send();
    await send();
    const list = await api('GET', `/tickets?searchParam=${number}&status=pending`);
    expect(list.json().tickets).toHaveLength(1);
    const ticket = list.json().tickets[0];
    expect(ticket.unreadMessages).toBe(200);
    const count = (await api('GET', `/messages/${ticket.id}`)).json().count;
    expect(count).toBe(200);
  }, 120_000);
});
