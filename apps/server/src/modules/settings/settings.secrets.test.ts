import { companyEvent, encryptedSettingKeys, type Setting } from '@balcao/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  login,
  recordEvents,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { encryptionKeyOf, isEncrypted } from '../../platform/secrets.js';
import { settings } from './settings.schema.js';
import { getCredentialSetting } from './settings.service.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
  await server.listen();
});
afterAll(() => server.close());

const db = () => server.deps.database.db;
const secretsKey = () => encryptionKeyOf(server.deps.config);

async function storedRow(companyId: number, key: string): Promise<string | undefined> {
  const [row] = await db()
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
  return row?.value;
}

const listOf = async (session: Session) => {
  const res = await server.call('GET', '/settings', session);
  expect(res.statusCode).toBe(200);
  return { body: res.body, list: res.json() as Setting[] };
};
const sessionOf = async (session: Session) => {
  const res = await server.call('GET', '/auth/me', session);
  expect(res.statusCode).toBe(200);
  return res.body;
};
const put = (t: Tenant, key: string, value: string) => server.call('PUT', `/settings/${key}`, t.admin, { value });

describe('integration tokens in settings (DOMAIN §18)', () => {
  it('are stored encrypted and never returned: admins see isSet and the last four, users not the key', async () => {
    const t = await createTenant(server);
    const admin = await connectSocket(server, t.admin.token);
    const user = await connectSocket(server, t.user.token);
    const heard = recordEvents(admin);
    const heardByUser = recordEvents(user);
    const clear = 'asaas-token-0123456789-WXYZ';
    try {
      const res = await put(t, 'asaas', clear);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ key: 'asaas', value: '', isSet: true, last4: 'WXYZ' });

      const row = await storedRow(t.companyId, 'asaas');
      expect(row).not.toBe(clear);
      expect(row).not.toContain('WXYZ');
      expect(isEncrypted(row)).toBe(true);
      expect(await getCredentialSetting(db(), secretsKey(), t.companyId, 'asaas')).toBe(clear);

      const asAdmin = await listOf(t.admin);
      expect(asAdmin.body).not.toContain(clear);
      expect(asAdmin.list).toContainEqual({ key: 'asaas', value: '', isSet: true, last4: 'WXYZ' });
      expect(asAdmin.list).toContainEqual({ key: 'tokenixc', value: '', isSet: false });

      const asUser = await listOf(t.user);
      expect(asUser.body).not.toContain(clear);
      expect(asUser.list.map((s) => s.key)).not.toContain('asaas');
      expect(asUser.list).toContainEqual({ key: 'userRating', value: 'disabled' });

      for (const session of [t.admin, t.user]) expect(await sessionOf(session)).not.toContain(clear);
      const adminSession = JSON.parse(await sessionOf(t.admin)).company.settings as Setting[];
      expect(adminSession).toContainEqual(expect.objectContaining({ key: 'asaas', value: '', isSet: true }));
      const userLogin = await login(server, t.user.user.email, t.userPassword);
      expect(JSON.stringify(userLogin.user.company.settings)).not.toContain(clear);
      expect(userLogin.user.company.settings.map((s) => s.key)).not.toContain('asaas');

      await new Promise((r) => setTimeout(r, 150));
      const events = heard.filter((e) => e.event === companyEvent.settings(t.companyId));
      expect(events).toEqual([
        { event: companyEvent.settings(t.companyId), payload: { action: 'update', setting: { key: 'asaas' } } },
      ]);
      expect(JSON.stringify([heard, heardByUser])).not.toContain(clear);
      expect(heardByUser.filter((e) => e.event.includes('settings'))).toEqual([]);
    } finally {
      admin.close();
      user.close();
    }
  });

  it('show no last four of a short value; a PUT replaces the value and an empty one clears it', async () => {
    const t = await createTenant(server);
    expect((await put(t, 'clientidmkauth', 'short-id')).json()).toEqual({
      key: 'clientidmkauth',
      value: '',
      isSet: true,
    });
    expect((await listOf(t.admin)).body).not.toContain('short-id');

    await put(t, 'tokenixc', 'first-token-value-AAAA');
    const before = await storedRow(t.companyId, 'tokenixc');
    await put(t, 'tokenixc', 'second-token-value-BBBB');
    const after = await storedRow(t.companyId, 'tokenixc');
    expect(after).not.toBe(before);
    expect(isEncrypted(after)).toBe(true);
    expect(await getCredentialSetting(db(), secretsKey(), t.companyId, 'tokenixc')).toBe('second-token-value-BBBB');
    expect((await listOf(t.admin)).list).toContainEqual({ key: 'tokenixc', value: '', isSet: true, last4: 'BBBB' });

    const cleared = await put(t, 'tokenixc', '');
    expect(cleared.json()).toEqual({ key: 'tokenixc', value: '', isSet: false });
    expect(await storedRow(t.companyId, 'tokenixc')).toBeUndefined();
    expect(await getCredentialSetting(db(), secretsKey(), t.companyId, 'tokenixc')).toBe('');
    expect((await listOf(t.admin)).list).toContainEqual({ key: 'tokenixc', value: '', isSet: false });
  });

  it('count an older row stored in clear as set, without returning it, and encrypt it on the next write', async () => {
    const t = await createTenant(server);
    const legacy = 'legacy-clear-secret-9876';
    await db().insert(settings).values({ companyId: t.companyId, key: 'clientsecretmkauth', value: legacy });

    const asAdmin = await listOf(t.admin);
    expect(asAdmin.body).not.toContain(legacy);
    expect(asAdmin.list).toContainEqual({ key: 'clientsecretmkauth', value: '', isSet: true, last4: '9876' });
    expect(await sessionOf(t.admin)).not.toContain(legacy);
    expect(await getCredentialSetting(db(), secretsKey(), t.companyId, 'clientsecretmkauth')).toBe(legacy);

    await put(t, 'clientsecretmkauth', 'rotated-secret-value-5555');
    const row = await storedRow(t.companyId, 'clientsecretmkauth');
    expect(isEncrypted(row)).toBe(true);
    expect(row).not.toContain('rotated');
    expect(await getCredentialSetting(db(), secretsKey(), t.companyId, 'clientsecretmkauth')).toBe(
      'rotated-secret-value-5555',
    );
  });

  it('cover every billing token; the integration hosts stay readable by admins only', async () => {
    expect([...encryptedSettingKeys].sort()).toEqual(['asaas', 'clientidmkauth', 'clientsecretmkauth', 'tokenixc']);
    const t = await createTenant(server);
    await put(t, 'ipixc', 'https://ixc.example.com');
    expect(await storedRow(t.companyId, 'ipixc')).toBe('https://ixc.example.com');
    expect((await listOf(t.admin)).list).toContainEqual({ key: 'ipixc', value: 'https://ixc.example.com' });
    expect((await listOf(t.user)).list.map((s) => s.key)).not.toContain('ipixc');
  });
});
