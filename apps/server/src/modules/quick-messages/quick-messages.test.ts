import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let t: Tenant;
let other: Tenant;
let colleague: Session;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
  await call(t.admin, 'POST', '/users', { name: 'Colega', email: 'colega@quick.test', password: 'colega-pass' });
  colleague = await login(server, 'colega@quick.test', 'colega-pass');
});
afterAll(() => server.close());

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function upload(session: Session, id: number, name: string, type: string, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return server.app.inject({
    method: 'POST',
    url: `/quick-messages/${id}/media-upload`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { ...session.headers, 'content-type': request.headers.get('content-type') as string },
  });
}

type Quick = {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  userId: number | null;
  isMedia: boolean;
  mediaUrl: string | null;
  mediaName: string | null;
};
const create = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/quick-messages', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Quick;
};
const shortcodes = async (session: Session) =>
  ((await call(session, 'GET', '/quick-messages/list')).json() as Quick[]).map((q) => q.shortcode);

describe('quick messages', () => {
  it('create, read, update and delete', async () => {
    const empty = await call(t.user, 'POST', '/quick-messages', { shortcode: ' ', message: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'shortcode', message: 'Obrigatório' },
        { path: 'message', message: 'Obrigatório' },
      ]),
    );
    const q = await create(t.user, { shortcode: 'bomdia', message: 'Bom dia, {{name}}!' });
    expect(q).toMatchObject({ geral: true, userId: t.user.user.id, isMedia: false, mediaUrl: null });
    expect((await call(t.user, 'GET', `/quick-messages/${q.id}`)).json().message).toBe('Bom dia, {{name}}!');
    const updated = await call(t.user, 'PUT', `/quick-messages/${q.id}`, { message: 'Bom dia!' });
    expect(updated.json()).toMatchObject({ shortcode: 'bomdia', message: 'Bom dia!', geral: true });
    expect((await call(t.user, 'DELETE', `/quick-messages/${q.id}`)).statusCode).toBe(200);
    const gone = await call(t.user, 'GET', `/quick-messages/${q.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_QUICK_MESSAGE_FOUND');
  });

  it('a private one (geral false) is seen and used by its author only, and stays private when edited', async () => {
    const mine = await create(t.user, { shortcode: 'privada', message: 'Só minha', geral: false });
    const shared = await create(t.user, { shortcode: 'geral', message: 'Para todos' });
    expect(await shortcodes(t.user)).toEqual(expect.arrayContaining(['privada', 'geral']));
    expect(await shortcodes(colleague)).toContain('geral');
    expect(await shortcodes(colleague)).not.toContain('privada');
    expect(await shortcodes(t.admin)).not.toContain('privada');
    const page = (await call(colleague, 'GET', '/quick-messages?searchParam=priv')).json();
    expect(page).toMatchObject({ records: [], count: 0 });
    expect((await call(colleague, 'GET', `/quick-messages/${mine.id}`)).statusCode).toBe(404);

    const edited = await call(t.user, 'PUT', `/quick-messages/${mine.id}`, { message: 'Ainda só minha' });
    expect(edited.json()).toMatchObject({ geral: false, message: 'Ainda só minha' });
    expect(await shortcodes(colleague)).not.toContain('privada');

    // A shared one is read by all but changed only by its author or an admin.
    const denied = await call(colleague, 'PUT', `/quick-messages/${shared.id}`, { message: 'Mudei' });
    expect(denied.statusCode).toBe(403);
    expect((await call(colleague, 'DELETE', `/quick-messages/${shared.id}`)).statusCode).toBe(403);
    expect((await call(t.admin, 'PUT', `/quick-messages/${shared.id}`, { message: 'Ajustada' })).statusCode).toBe(200);
  });

  it('search by shortcode or text, pages by 20', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 22; i++)
      await create(tenant.user, { shortcode: `atalho${String(i).padStart(2, '0')}`, message: `Texto ${i}` });
    await create(tenant.user, { shortcode: 'pix', message: 'Nossa chave PIX é ...' });
    const one = (await call(tenant.user, 'GET', '/quick-messages')).json();
    expect(one).toMatchObject({ count: 23, hasMore: true });
    expect(one.records).toHaveLength(20);
    const two = (await call(tenant.user, 'GET', '/quick-messages?pageNumber=2')).json();
    expect(two.records.map((q: Quick) => q.shortcode)).toEqual(['atalho20', 'atalho21', 'pix']);
    expect((await call(tenant.user, 'GET', '/quick-messages?searchParam=chave')).json().records[0].shortcode).toBe(
      'pix',
    );
    expect((await call(tenant.user, 'GET', '/quick-messages?searchParam=ATALHO1')).json().count).toBe(10);
  });

  it('media: upload, serve, replace and remove', async () => {
    const q = await create(t.user, { shortcode: 'catalogo', message: 'Segue o catálogo' });
    const up = await upload(t.user, q.id, 'catálogo 2024.png', 'image/png', PNG);
    expect(up.statusCode, up.body).toBe(200);
    const withMedia = up.json() as Quick;
    expect(withMedia).toMatchObject({ isMedia: true, mediaName: 'catálogo 2024.png' });
    expect(withMedia.mediaUrl).toMatch(new RegExp(`^/media/${t.companyId}/[0-9a-f-]{36}\\.png$`));
    const file = await server.app.inject({
      method: 'GET',
      url: withMedia.mediaUrl as string,
      headers: colleague.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(
      (await server.app.inject({ method: 'GET', url: withMedia.mediaUrl as string, headers: other.admin.headers }))
        .statusCode,
    ).toBe(404);

    const replaced = (
      await upload(t.user, q.id, 'novo.pdf', 'application/pdf', Buffer.from('%PDF-1.4'))
    ).json() as Quick;
    expect(replaced.mediaName).toBe('novo.pdf');
    expect(replaced.mediaUrl).not.toBe(withMedia.mediaUrl);
    expect(
      (await server.app.inject({ method: 'GET', url: withMedia.mediaUrl as string, headers: t.user.headers }))
        .statusCode,
    ).toBe(404);

    const denied = await upload(colleague, q.id, 'x.png', 'image/png', PNG);
    expect(denied.statusCode).toBe(403);

    const removed = await call(t.user, 'DELETE', `/quick-messages/${q.id}/media-upload`);
    expect(removed.json()).toMatchObject({ isMedia: false, mediaUrl: null, mediaName: null });
    expect(
      (await server.app.inject({ method: 'GET', url: replaced.mediaUrl as string, headers: t.user.headers }))
        .statusCode,
    ).toBe(404);

    // Deleting the quick message deletes its file.
    const again = (await upload(t.user, q.id, 'ultimo.png', 'image/png', PNG)).json() as Quick;
    await call(t.user, 'DELETE', `/quick-messages/${q.id}`);
    expect(
      (await server.app.inject({ method: 'GET', url: again.mediaUrl as string, headers: t.user.headers })).statusCode,
    ).toBe(404);
  });

  it("another company's quick message answers 404", async () => {
    const theirs = await create(other.admin, { shortcode: 'deles', message: 'Segredo deles' });
    for (const res of [
      await call(t.admin, 'GET', `/quick-messages/${theirs.id}`),
      await call(t.admin, 'PUT', `/quick-messages/${theirs.id}`, { message: 'Invadida' }),
      await call(t.admin, 'DELETE', `/quick-messages/${theirs.id}`),
      await call(t.admin, 'DELETE', `/quick-messages/${theirs.id}/media-upload`),
      await upload(t.admin, theirs.id, 'x.png', 'image/png', PNG),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_QUICK_MESSAGE_FOUND');
      expect(res.body).not.toContain('Segredo deles');
    }
    expect(await shortcodes(t.admin)).not.toContain('deles');
    expect((await call(other.admin, 'GET', `/quick-messages/${theirs.id}`)).json()).toMatchObject({
      message: 'Segredo deles',
      isMedia: false,
    });
  });
});
