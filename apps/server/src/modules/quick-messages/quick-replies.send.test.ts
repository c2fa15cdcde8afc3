import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../../test/sandbox-helpers.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const NUMBER = '5511955520001';

let server: TestServer;
let t: Tenant;
let whatsappId: number;
let ticketId: number;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
  await server.listen();
  t = await createTenant(server);
  whatsappId = await connectedSandbox(server, t.admin);
  await contactWrites(server, t.admin, whatsappId, { number: NUMBER, name: 'Joana Prado', body: 'oi' });
  ticketId = (await call('GET', `/tickets?searchParam=${NUMBER}`)).json().tickets[0].id;
  await call('PUT', `/tickets/${ticketId}`, { status: 'open', userId: t.admin.user.id });
});
afterAll(() => server.close());

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: t.admin.headers });
}

async function quickReplyWithFile(message: string) {
  const created = (await call('POST', '/quick-messages', { shortcode: `q${Date.now()}`, message })).json();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cardapio.png');
  const request = new Request('http://local/', { method: 'POST', body: form });
  const upload = await server.app.inject({
    method: 'POST',
    url: `/quick-messages/${created.id}/media-upload`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { ...t.admin.headers, 'content-type': request.headers.get('content-type') as string },
  });
  expect(upload.statusCode, upload.body).toBe(200);
  return created.id as number;
}

describe('sending a quick reply', () => {
  it('renders the variables for the contact and sends the quick reply file along', async () => {
    const id = await quickReplyWithFile('Olá {{firstName}}! {{ms}}, {{name}}. Protocolo {{protocol}} {{unknown}}');
    const res = await call('POST', `/messages/${ticketId}`, {
      body: 'Olá {{firstName}}! {{ms}}, {{name}}. Protocolo {{protocol}} {{unknown}}',
      quickMessageId: id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [sent] = res.json() as { body: string; mediaType: string; mediaName: string; mediaUrl: string }[];
    expect(sent.body).toMatch(
      /^Olá Joana! (Bom dia|Boa tarde|Boa noite), Joana Prado\. Protocolo \d{8}\d+ \{\{unknown\}\}$/,
    );
    expect(sent.body).toContain(`${ticketId} {{unknown}}`);
    expect(sent).toMatchObject({ mediaType: 'image', mediaName: 'cardapio.png' });

    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.some((m) => m.media?.fileName === 'cardapio.png'),
    );
    const onPhone = phone.find((m) => m.media?.fileName === 'cardapio.png');
    expect(onPhone?.body).toBe(sent.body);

    // The message owns a copy: removing the quick reply's file leaves the sent one readable.
    await call('DELETE', `/quick-messages/${id}/media-upload`);
    const file = await server.app.inject({ method: 'GET', url: sent.mediaUrl, headers: t.admin.headers });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it('a quick reply file alone is a message; an unknown quick reply is refused', async () => {
    const id = await quickReplyWithFile('{{name}}');
    const alone = await call('POST', `/messages/${ticketId}`, { body: '', quickMessageId: id });
    expect(alone.statusCode, alone.body).toBe(201);
    expect(alone.json()).toMatchObject([{ mediaName: 'cardapio.png', body: '' }]);
    const unknown = await call('POST', `/messages/${ticketId}`, { body: 'oi', quickMessageId: 999_999 });
    expect(unknown.json().error).toBe('ERR_NO_QUICK_MESSAGE_FOUND');
  });
});
