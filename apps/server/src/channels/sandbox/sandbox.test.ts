import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf } from '../../../test/sandbox-helpers.js';

/** The sandbox provider: a simulated phone, only where the server has it switched on. */

let on: TestServer;
let off: TestServer;
let t: Tenant;
let tOff: Tenant;
let sandboxId: number;
beforeAll(async () => {
  [on, off] = await Promise.all([
    createTestServer({ LOGIN_LIMIT_IP: '1000' }),
    createTestServer({ LOGIN_LIMIT_IP: '1000', SANDBOX: 'false' }),
  ]);
  t = await createTenant(on);
  tOff = await createTenant(off);
  sandboxId = await connectedSandbox(on, t.admin);
});
afterAll(() => Promise.all([on?.close(), off?.close()]));

const call = (
  server: TestServer,
  session: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => server.app.inject({ method, url, payload, headers: session.headers });

const routes = (id: number) =>
  [
    ['POST', `/sandbox/${id}/scan`, undefined],
    ['POST', `/sandbox/${id}/inbound`, { number: '5511977700001', body: 'oi' }],
    ['GET', `/sandbox/${id}/outbound?number=5511977700001`, undefined],
    ['POST', `/sandbox/${id}/ack`, { providerId: 'X', ack: 2 }],
    ['POST', `/sandbox/${id}/call`, { number: '5511977700001' }],
  ] as const;

describe('with SANDBOX=false', () => {
  it('refuses sandbox connections and has no sandbox routes', async () => {
    const res = await call(off, tOff.admin, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(off, tOff.admin, 'GET', '/whatsapp')).json()).toEqual([]);

    const beta = await call(off, tOff.admin, 'POST', '/whatsapp', { name: 'Beta', provider: 'beta' });
    expect(beta.statusCode).toBe(201);
    for (const [method, url, payload] of routes(beta.json().id)) {
      const route = await call(off, tOff.admin, method, url, payload);
      expect(route.statusCode, url).toBe(404);
      expect(route.json().error).toBe('ERR_NOT_FOUND');
    }
  });
});

describe('with the sandbox on', () => {
  it('its routes are for admins only', async () => {
    for (const [method, url, payload] of routes(sandboxId)) {
      const res = await call(on, t.user, method, url, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect(await phoneOf(on, t.admin, sandboxId, '5511977700001')).toEqual([]);
  });

  it('a connection of another provider is not a sandbox', async () => {
    const beta = (await call(on, t.admin, 'POST', '/whatsapp', { name: 'Beta', provider: 'beta' })).json().id;
    for (const [method, url, payload] of routes(beta).filter(([, url]) => !url.includes('outbound'))) {
      const res = await call(on, t.admin, method, url, payload);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_WAPP_FOUND');
    }
  });

  it('a sandbox that is not started cannot be scanned nor written to', async () => {
    const idle = (await call(on, t.admin, 'POST', '/whatsapp', { name: 'Parada', provider: 'sandbox' })).json().id;
    for (const url of [`/sandbox/${idle}/scan`, `/sandbox/${idle}/inbound`]) {
      const res = await call(on, t.admin, 'POST', url, { number: '5511977700002', body: 'oi' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    }
    expect((await call(on, t.admin, 'GET', `/whatsapp/${idle}`)).json().status).toBe('DISCONNECTED');
  });

  it('validates what the phone sends', async () => {
    for (const payload of [
      { number: '+55 11 97777-0003' },
      { number: '1234' },
      { number: '5511977700003', participant: 'abc' },
    ]) {
      const res = await call(on, t.admin, 'POST', `/sandbox/${sandboxId}/inbound`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const bad = await call(on, t.admin, 'POST', `/sandbox/${sandboxId}/ack`, { providerId: 'X', ack: 4 });
    expect(bad.statusCode).toBe(400);
    expect((await call(on, t.admin, 'GET', `/sandbox/${sandboxId}/outbound?number=abc`)).statusCode).toBe(400);
  });

  it('an inbound message returns its provider id; a given one is kept', async () => {
    const generated = await contactWrites(on, t.admin, sandboxId, { number: '5511977700004', body: 'oi' });
    expect(generated).toMatch(/^SBXIN[0-9A-F]{32}$/);
    expect(
      await contactWrites(on, t.admin, sandboxId, { number: '5511977700004', body: 'de novo', providerId: 'MEU-ID' }),
    ).toBe('MEU-ID');
  });

  it('each phone sees only what was sent to its number; acks need a message of this connection', async () => {
    const channel = on.deps.channels.get(sandboxId);
    const one = await channel.sendText('5511977700005', 'para o cinco');
    await channel.sendText('5511977700006', 'para o seis');
    const five = await phoneOf(on, t.admin, sandboxId, '5511977700005');
    expect(five.map((m) => [m.providerId, m.body, m.ack])).toEqual([[one.providerId, 'para o cinco', 1]]);
    expect((await phoneOf(on, t.admin, sandboxId, '5511977700006')).map((m) => m.body)).toEqual(['para o seis']);

    const unknown = await call(on, t.admin, 'POST', `/sandbox/${sandboxId}/ack`, { providerId: 'NOPE', ack: 3 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('ERR_NO_MESSAGE_FOUND');
    const other = await connectedSandbox(on, t.admin);
    const wrongConnection = await call(on, t.admin, 'POST', `/sandbox/${other}/ack`, {
      providerId: one.providerId,
      ack: 3,
    });
    expect(wrongConnection.statusCode).toBe(404);
    expect(
      (await call(on, t.admin, 'POST', `/sandbox/${sandboxId}/ack`, { providerId: one.providerId, ack: 3 })).statusCode,
    ).toBe(200);
    expect((await phoneOf(on, t.admin, sandboxId, '5511977700005'))[0].ack).toBe(3);
  });

  it('shows a message sent again under its id once, and counts the sends', async () => {
    const channel = on.deps.channels.get(sandboxId);
    const number = '5511977700007';
    const once = await channel.sendText(number, 'uma vez', { messageId: 'SBXTEST-ONCE' });
    const again = await channel.sendText(number, 'três vezes', { messageId: 'SBXTEST-THRICE' });
    await channel.sendText(number, 'três vezes', { messageId: 'SBXTEST-THRICE' });
    await channel.sendMedia(
      number,
      { data: Buffer.from('x'), fileName: 'a.txt', mimetype: 'text/plain' },
      'três vezes',
      { messageId: 'SBXTEST-THRICE' },
    );
    const phone = await phoneOf(on, t.admin, sandboxId, number);
    expect(phone.map((m) => [m.providerId, m.body, m.sends])).toEqual([
      [once.providerId, 'uma vez', 1],
      [again.providerId, 'três vezes', 3],
    ]);
    // An ack still names the one message the phone shows.
    expect(await on.deps.channels.sandbox(sandboxId).ack(again.providerId, 3)).toBe(true);
    expect((await phoneOf(on, t.admin, sandboxId, number))[1]).toMatchObject({ ack: 3, sends: 3 });
  });

  it("another company's admin cannot drive this sandbox", async () => {
    const stranger = await createTenant(on);
    for (const [method, url, payload] of routes(sandboxId)) {
      const res = await call(on, stranger.admin, method, url, payload);
      expect(res.statusCode, url).toBe(404);
    }
    expect(await phoneOf(on, t.admin, sandboxId, '5511977700001')).toEqual([]);
    expect((await call(on, t.admin, 'GET', '/tickets?searchParam=5511977700001')).json().count).toBe(0);
  });
});
