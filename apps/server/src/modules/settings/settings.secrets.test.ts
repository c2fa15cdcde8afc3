import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, login, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('integration credentials in settings', () => {
  it('are readable by admins and hidden from plain users, in GET /settings and in the session', async () => {
    const tenant = await createTenant(server);
    await server.app.inject({
      method: 'PUT',
      url: '/settings/asaas',
      headers: tenant.admin.headers,
      payload: { value: 'secret-key' },
    });
    const asAdmin = await server.app.inject({ method: 'GET', url: '/settings', headers: tenant.admin.headers });
    expect(asAdmin.json()).toContainEqual({ key: 'asaas', value: 'secret-key' });

    const asUser = await server.app.inject({ method: 'GET', url: '/settings', headers: tenant.user.headers });
    expect(asUser.body).not.toContain('secret-key');
    expect(asUser.json().map((s: { key: string }) => s.key)).not.toContain('asaas');
    expect(asUser.json()).toContainEqual({ key: 'userRating', value: 'disabled' });

    const session = await login(server, tenant.user.user.email, tenant.userPassword);
    expect(JSON.stringify(session.user.company.settings)).not.toContain('secret-key');
  });
});
