import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../../test/sandbox-helpers.js';

let server: TestServer;
let tenant: Tenant;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer({}, { jobs: true });
  tenant = await createTenant(server);
  whatsappId = await connectedSandbox(server, tenant.admin);
});
afterAll(() => server.close());

describe('outbound order', () => {
  it('ten answers sent back to back reach the contact in the order they were written', async () => {
    const number = '5511988880001';
    await contactWrites(server, tenant.admin, whatsappId, { number, body: 'oi' });
    const list = await server.app.inject({
      method: 'GET',
      url: `/tickets?searchParam=${number}`,
      headers: tenant.admin.headers,
    });
    const ticketId = list.json().tickets[0].id as number;
    await server.app.inject({
      method: 'PUT',
      url: `/tickets/${ticketId}`,
      headers: tenant.admin.headers,
      payload: { status: 'open', userId: tenant.admin.user.id },
    });
    const bodies = Array.from({ length: 10 }, (_, i) => `resposta ${i + 1}`);
    for (const body of bodies) {
      const sent = await server.app.inject({
        method: 'POST',
        url: `/messages/${ticketId}`,
        headers: tenant.admin.headers,
        payload: { body },
      });
      expect(sent.statusCode).toBe(201);
    }
    const phone = await waitUntil(
      () => phoneOf(server, tenant.admin, whatsappId, number),
      (l) => l.length === 10,
      15_000,
    );
    expect(phone.map((p) => p.body)).toEqual(bodies);
  });
});
