import { companyEvent, type Setting, settingDefaults } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  recordEvents,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let socketA: Socket;
let socketB: Socket;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  a = await createTenant(server);
  b = await createTenant(server);
  socketA = await connectSocket(server, a.user.token);
  socketB = await connectSocket(server, b.admin.token);
});
afterAll(async () => {
  socketA.close();
  socketB.close();
  await server.close();
});

const call: TestServer['call'] = (...args) => server.call(...args);
const settingsOf = async (session: Session) => {
  const res = await call('GET', '/settings', session);
  expect(res.statusCode).toBe(200);
  return Object.fromEntries((res.json() as Setting[]).map((s) => [s.key, s.value]));
};

describe('GET /settings', () => {
  it('returns every known key with its default for a new company', async () => {
    const t = await createTenant(server);
    const values = await settingsOf(t.admin);
    expect(Object.keys(values).sort()).toEqual(Object.keys(settingDefaults).sort());
    expect(values).toEqual(settingDefaults);
    expect(values).toMatchObject({
      userRating: 'disabled',
      scheduleType: 'disabled',
      chatBotType: 'text',
      call: 'enabled',
    });
  });

  it('needs a token', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/settings' });
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT /settings/{key}', () => {
  it('the admin saves a value that GET then returns and the company hears live', async () => {
    const heard = eventWhere<{ action: string; setting: Setting }>(
      socketA,
      companyEvent.settings(a.companyId),
      (p) => p.action === 'update',
    );
    const seenByB = recordEvents(socketB);
    const res = await call('PUT', '/settings/userRating', a.admin, { value: 'enabled' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: 'userRating', value: 'enabled' });
    expect(await heard).toEqual({ action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    expect((await settingsOf(a.user)).userRating).toBe('enabled');

    // Saving again overwrites the stored value.
    await call('PUT', '/settings/scheduleType', a.admin, { value: 'company' });
    await call('PUT', '/settings/scheduleType', a.admin, { value: 'queue' });
    expect((await settingsOf(a.admin)).scheduleType).toBe('queue');

    await new Promise((r) => setTimeout(r, 150));
    expect(seenByB.filter((e) => e.event === companyEvent.settings(a.companyId))).toEqual([]);
    expect(seenByB.filter((e) => e.event.includes('settings'))).toEqual([]);
  });

  it('does not change another company’s settings', async () => {
    await call('PUT', '/settings/sendGreetingAccepted', a.admin, { value: 'enabled' });
    await call('PUT', '/settings/call', b.admin, { value: 'disabled' });
    const inA = await settingsOf(a.admin);
    const inB = await settingsOf(b.admin);
    expect(inA).toMatchObject({ sendGreetingAccepted: 'enabled', call: 'enabled' });
    expect(inB).toMatchObject({ sendGreetingAccepted: 'disabled', call: 'disabled', userRating: 'disabled' });
  });

  it('is refused to a plain user', async () => {
    const res = await call('PUT', '/settings/CheckMsgIsGroup', a.user, { value: 'disabled' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
    expect((await settingsOf(a.admin)).CheckMsgIsGroup).toBe('enabled');
  });

  it('answers 404 ERR_NO_SETTING_FOUND for an unknown key', async () => {
    for (const key of ['noSuchSetting', '__proto__', 'constructor']) {
      const res = await call('PUT', `/settings/${key}`, a.admin, { value: 'enabled' });
      expect(res.statusCode, key).toBe(404);
      expect(res.json().error).toBe('ERR_NO_SETTING_FOUND');
    }
    const values = await settingsOf(a.admin);
    expect(Object.keys(values)).not.toContain('noSuchSetting');
  });

  it('answers 400 for a value the key does not allow', async () => {
    const res = await call('PUT', '/settings/userRating', a.admin, { value: 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    const noValue = await call('PUT', '/settings/userRating', a.admin, {});
    expect(noValue.statusCode).toBe(400);
    expect((await settingsOf(a.admin)).userRating).toBe('enabled');
  });
});
