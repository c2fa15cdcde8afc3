import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, phoneOf, waitUntil } from '../../test/sandbox-helpers.js';
import { SANDBOX_CALL_REJECTED } from '../channels/sandbox/sandbox.channel.js';
import { CALLS_DISABLED_MESSAGE } from './calls.js';

/** Incoming calls (DOMAIN §5), played by the sandbox phone, with the send job running. */

let server: TestServer;
let seq = 0;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
});
afterAll(() => server.close());

async function scene() {
  const t = await createTenant(server);
  const w = await connectedSandbox(server, t.admin);
  const number = `55118${String(++seq).padStart(8, '0')}`;
  return { t, w, number };
}

async function rings(t: Tenant, w: number, number: string, callId?: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: `/sandbox/${w}/call`,
    headers: t.admin.headers,
    payload: { number, ...(callId ? { callId } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().callId as string;
}

async function callLogs(t: Tenant, number: string) {
  const list = await server.app.inject({
    method: 'GET',
    url: `/tickets?showAll=true&searchParam=${number}`,
    headers: t.admin.headers,
  });
  const tickets = list.json().tickets as { id: number }[];
  expect(tickets).toHaveLength(1);
  const res = await server.app.inject({ method: 'GET', url: `/messages/${tickets[0].id}`, headers: t.admin.headers });
  const messages = res.json().messages as { body: string; mediaType: string; fromMe: boolean }[];
  return { messages, logs: messages.filter((m) => m.mediaType === 'call_log') };
}

describe('incoming calls (DOMAIN §5)', () => {
  it('with calls enabled: a call_log on the ticket, the call is not rejected and nothing is sent', async () => {
    const { t, w, number } = await scene();
    expect(await rings(t, w, number)).toMatch(/^SBXCALL[0-9A-F]{32}$/);
    const { messages, logs } = await callLogs(t, number);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ fromMe: false });
    expect(logs[0].body).toMatch(/^Chamada de voz\/vídeo perdida às \d{2}:\d{2}$/);
    expect(messages).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(await phoneOf(server, t.admin, w, number)).toEqual([]);
  });

  it('with calls disabled: rejected, answered with the automatic text, and logged', async () => {
    const { t, w, number } = await scene();
    const put = await server.app.inject({
      method: 'PUT',
      url: '/settings/call',
      headers: t.admin.headers,
      payload: { value: 'disabled' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await rings(t, w, number, 'CALL-1');
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, w, number),
      (l) => l.length >= 2,
    );
    expect(phone.map((m) => m.body)).toEqual([SANDBOX_CALL_REJECTED, CALLS_DISABLED_MESSAGE]);
    const { messages, logs } = await callLogs(t, number);
    expect(logs).toHaveLength(1);
    expect(messages.filter((m) => m.fromMe).map((m) => m.body)).toEqual([CALLS_DISABLED_MESSAGE]);
  });

  it('the same call reported twice is one call_log and one answer', async () => {
    const { t, w, number } = await scene();
    await server.app.inject({
      method: 'PUT',
      url: '/settings/call',
      headers: t.admin.headers,
      payload: { value: 'disabled' },
    });
    await rings(t, w, number, 'CALL-TWICE');
    await rings(t, w, number, 'CALL-TWICE');
    await waitUntil(
      () => phoneOf(server, t.admin, w, number),
      (l) => l.length >= 2,
    );
    await new Promise((r) => setTimeout(r, 400));
    expect((await phoneOf(server, t.admin, w, number)).map((m) => m.body)).toEqual([
      SANDBOX_CALL_REJECTED,
      CALLS_DISABLED_MESSAGE,
    ]);
    expect((await callLogs(t, number)).logs).toHaveLength(1);
  });

  it('a call with the setting enabled twice with the same id is one call_log', async () => {
    const { t, w, number } = await scene();
    await rings(t, w, number, 'CALL-SAME');
    await rings(t, w, number, 'CALL-SAME');
    expect((await callLogs(t, number)).logs).toHaveLength(1);
  });
});
