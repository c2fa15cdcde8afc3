import { companyEvent } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  type Tenant,
  type TestServer,
} from '../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../test/sandbox-helpers.js';

/** Deletes and edits reported by a provider, applied to the stored message of that connection only. */

let server: TestServer;
let a: Tenant;
let b: Tenant;
let wa: number;
let wb: number;
let socketA: Socket;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  a = await createTenant(server);
  b = await createTenant(server);
  wa = await connectedSandbox(server, a.admin);
  wb = await connectedSandbox(server, b.admin);
  socketA = await connectSocket(server, a.admin.token);
});
afterAll(async () => {
  socketA?.close();
  await server?.close();
});

type Message = { id: number; body: string; isDeleted: boolean; isEdited: boolean; mediaUrl: string | null };
async function messagesOf(tenant: Tenant, number: string): Promise<Message[]> {
  const tickets = (await server.call('GET', `/tickets?showAll=true&searchParam=${number}`, tenant.admin)).json()
    .tickets;
  return (await server.call('GET', `/messages/${tickets[0].id}`, tenant.admin)).json().messages;
}
const revision = (r: Parameters<typeof server.deps.channels.events.revision>[0]) =>
  server.deps.channels.events.revision(r);
const updated = () =>
  eventWhere<{ action: string; message: Message }>(
    socketA,
    companyEvent.appMessage(a.companyId),
    (e) => e.action === 'update',
  );

describe('handleRevision', () => {
  it('an edit replaces the text and marks it edited, live', async () => {
    const providerId = await contactWrites(server, a.admin, wa, { number: '5511955500001', body: 'original' });
    const live = updated();
    await revision({ companyId: a.companyId, whatsappId: wa, providerId, kind: 'edit', body: 'corrigido' });
    expect((await live).message).toMatchObject({ body: 'corrigido', isEdited: true });
    expect(await messagesOf(a, '5511955500001')).toMatchObject([
      { body: 'corrigido', isEdited: true, isDeleted: false },
    ]);
  });

  it('a delete hides the message, live; a later edit does not bring it back', async () => {
    const providerId = await contactWrites(server, a.admin, wa, { number: '5511955500002', body: 'segredo' });
    const live = updated();
    await revision({ companyId: a.companyId, whatsappId: wa, providerId, kind: 'delete' });
    expect((await live).message).toMatchObject({ body: '', isDeleted: true });
    await revision({ companyId: a.companyId, whatsappId: wa, providerId, kind: 'edit', body: 'voltou?' });
    expect(await messagesOf(a, '5511955500002')).toMatchObject([{ body: '', isDeleted: true, isEdited: false }]);
  });

  it('touches only the message of that company and connection', async () => {
    const providerId = 'SAME-PROVIDER-ID';
    await contactWrites(server, a.admin, wa, { number: '5511955500003', body: 'de A', providerId });
    await contactWrites(server, b.admin, wb, { number: '5511955500003', body: 'de B', providerId });
    // Another company's connection id with A's company, and B's own revision of its message.
    await revision({ companyId: a.companyId, whatsappId: wb, providerId, kind: 'delete' });
    await revision({ companyId: b.companyId, whatsappId: wb, providerId, kind: 'edit', body: 'B editou' });
    expect(await messagesOf(a, '5511955500003')).toMatchObject([{ body: 'de A', isDeleted: false, isEdited: false }]);
    expect(await messagesOf(b, '5511955500003')).toMatchObject([{ body: 'B editou', isEdited: true }]);
  });
});
