import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestServer,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const GIF = Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1');

type Announcement = {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
};

let server: TestServer;
let su: Session;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server);
  b = await createTenant(server);
  // After the tenants: each of their creations logs the super user in again, ending older sessions.
  su = await login(server, SUPER.email, SUPER.password);
});
afterAll(() => server.close());

function call(session: Session | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session?.headers ?? {} });
}

async function upload(session: Session, id: number, name: string, type: string, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return server.app.inject({
    method: 'POST',
    url: `/announcements/${id}/media-upload`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { ...session.headers, 'content-type': request.headers.get('content-type') as string },
  });
}

const create = async (body: Record<string, unknown>) => {
  const res = await call(su, 'POST', '/announcements', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Announcement;
};

describe('who may do what (DOMAIN §15)', () => {
  it('only the super user writes, lists and reads one by id; admins and agents get 403', async () => {
    const record = await create({ title: 'Manutenção', text: 'Sábado às 22h' });
    const refused: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['GET', '/announcements'],
      ['GET', '/announcements?searchParam=manut&pageNumber=1'],
      ['GET', `/announcements/${record.id}`],
      ['POST', '/announcements', { title: 'x', text: 'y' }],
      ['PUT', `/announcements/${record.id}`, { title: 'Hacked' }],
      ['DELETE', `/announcements/${record.id}`],
      ['DELETE', `/announcements/${record.id}/media-upload`],
    ];
    for (const session of [a.admin, a.user]) {
      for (const [method, url, body] of refused) {
        const res = await call(session, method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe('ERR_NO_PERMISSION');
      }
      const res = await upload(session, record.id, 'a.png', 'image/png', PNG);
      expect(res.statusCode).toBe(403);
    }
    expect((await call(su, 'GET', `/announcements/${record.id}`)).json()).toMatchObject({ title: 'Manutenção' });
    expect((await call(null, 'GET', '/announcements/active')).statusCode).toBe(401);
  });
});

describe('the super user', () => {
  it('creates with the defaults, edits and deletes', async () => {
    const record = await create({ title: '  Novidade ', text: '<b>Negrito?</b> Não: texto.' });
    expect(record).toMatchObject({
      title: 'Novidade',
      // Kept as typed: the clients show it as text, never as HTML.
      text: '<b>Negrito?</b> Não: texto.',
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
    });
    const edited = await call(su, 'PUT', `/announcements/${record.id}`, { priority: 1, status: false });
    expect(edited.json()).toMatchObject({ title: 'Novidade', priority: 1, status: false });
    expect((await call(su, 'DELETE', `/announcements/${record.id}`)).statusCode).toBe(200);
    const gone = await call(su, 'GET', `/announcements/${record.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_ANNOUNCEMENT_FOUND');
    expect((await call(su, 'PUT', `/announcements/${record.id}`, { title: 'x' })).json().error).toBe(
      'ERR_NO_ANNOUNCEMENT_FOUND',
    );
    expect((await call(su, 'DELETE', `/announcements/${record.id}`)).statusCode).toBe(404);
  });

  it('is told what is missing or wrong', async () => {
    const empty = await call(su, 'POST', '/announcements', { title: ' ', text: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('ERR_VALIDATION');
    expect(empty.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'title', message: 'Obrigatório' },
        { path: 'text', message: 'Obrigatório' },
      ]),
    );
    const missing = await call(su, 'POST', '/announcements', {});
    expect(
      missing
        .json()
        .fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['text', 'title']);
    for (const priority of [0, 4, 1.5, '2x']) {
      const res = await call(su, 'POST', '/announcements', { title: 't', text: 'x', priority });
      expect(res.statusCode, String(priority)).toBe(400);
    }
    const long = await call(su, 'POST', '/announcements', { title: 'x'.repeat(256), text: 'x' });
    expect(long.json().fields).toEqual([{ path: 'title', message: 'Muito longo!' }]);
    const record = await create({ title: 'Válido', text: 'ok', priority: 2 });
    expect((await call(su, 'PUT', `/announcements/${record.id}`, {})).statusCode).toBe(400);
    expect((await call(su, 'PUT', `/announcements/${record.id}`, { text: '  ' })).json().fields).toEqual([
      { path: 'text', message: 'Obrigatório' },
    ]);
  });

  it('searches title and text, newest first, 20 a page with the count', async () => {
    for (let i = 0; i < 21; i++) await create({ title: `Lote ${i}`, text: `Aviso em lote ${i}` });
    await create({ title: 'Feriado', text: 'Não haverá expediente no lote' });
    const first = (await call(su, 'GET', '/announcements/?searchParam=LOTE')).json();
    expect(first).toMatchObject({ count: 22, hasMore: true });
    expect(first.records).toHaveLength(20);
    expect(first.records[0].title).toBe('Feriado');
    const second = (await call(su, 'GET', '/announcements?searchParam=lote&pageNumber=2')).json();
    expect(second.records.map((r: Announcement) => r.title)).toEqual(['Lote 1', 'Lote 0']);
    expect((await call(su, 'GET', '/announcements?searchParam=expediente')).json().count).toBe(1);
    expect((await call(su, 'GET', '/announcements?searchParam=100%25')).json().count).toBe(0);
  });
});

describe('GET /announcements/active: every signed-in user, active ones only', () => {
  it('shows users of any company the active announcements, newest first, page by page', async () => {
    const tenant = await createTenant(server);
    su = await login(server, SUPER.email, SUPER.password);
    const before = (await call(tenant.user, 'GET', '/announcements/active')).json().count as number;
    const hidden = await create({ title: 'Rascunho', text: 'ainda não', status: false });
    const shown = await create({ title: 'Publicado', text: 'para todos', priority: 1 });
    const page = (await call(tenant.user, 'GET', '/announcements/active')).json();
    expect(page.count).toBe(before + 1);
    expect(page.records[0]).toMatchObject({ id: shown.id, title: 'Publicado', priority: 1, status: true });
    expect(page.records.some((r: Announcement) => r.id === hidden.id)).toBe(false);
    expect(page.records.every((r: Announcement) => r.status)).toBe(true);
    expect((await call(b.admin, 'GET', '/announcements/active')).json().records[0].id).toBe(shown.id);

    await call(su, 'PUT', `/announcements/${shown.id}`, { status: false });
    const after = (await call(tenant.user, 'GET', '/announcements/active?pageNumber=1')).json();
    expect(after.records.some((r: Announcement) => r.id === shown.id)).toBe(false);
    expect(after.count).toBe(before);
    const paged = (await call(tenant.user, 'GET', '/announcements/active?pageNumber=2')).json();
    expect(paged.records.every((r: Announcement) => r.status)).toBe(true);
  });
});

describe('the attachment', () => {
  it('takes a PNG or a JPEG, served to signed-in users of every company while active', async () => {
    const record = await create({ title: 'Com imagem', text: 'veja' });
    const res = await upload(su, record.id, 'cartaz final.png', 'image/png', PNG);
    expect(res.statusCode, res.body).toBe(200);
    const withPng = res.json() as Announcement;
    expect(withPng.mediaName).toBe('cartaz final.png');
    expect(withPng.mediaPath).toMatch(new RegExp(`^/announcements/${record.id}/media/[0-9a-f-]{36}\\.png$`));

    const image = await call(b.user, 'GET', withPng.mediaPath as string);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    // Signed-in users only: no public URL.
    expect((await call(null, 'GET', withPng.mediaPath as string)).statusCode).toBe(401);

    // A JPEG named .png is stored as what it is; the old file and its URL are gone.
    const replaced = (await upload(su, record.id, 'foto.png', 'image/png', JPEG)).json() as Announcement;
    expect(replaced.mediaPath).toMatch(/\.jpg$/);
    expect((await call(b.user, 'GET', withPng.mediaPath as string)).statusCode).toBe(404);
    const jpeg = await call(a.user, 'GET', replaced.mediaPath as string);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');

    // Inactive: the super user still sees it, nobody else.
    await call(su, 'PUT', `/announcements/${record.id}`, { status: false });
    expect((await call(a.user, 'GET', replaced.mediaPath as string)).statusCode).toBe(404);
    expect((await call(su, 'GET', replaced.mediaPath as string)).statusCode).toBe(200);

    const removed = await call(su, 'DELETE', `/announcements/${record.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect((await call(su, 'GET', replaced.mediaPath as string)).statusCode).toBe(404);
  });

  it('refuses anything else by its bytes, whatever its name or declared type', async () => {
    const record = await create({ title: 'Sem imagem', text: 'texto' });
    for (const [name, type, data] of [
      ['animado.gif', 'image/gif', GIF],
      ['falso.png', 'image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['nota.jpg', 'image/jpeg', Buffer.from('plain text')],
      ['vazio.png', 'image/png', Buffer.alloc(0)],
    ] as const) {
      const res = await upload(su, record.id, name, type, data);
      expect(res.statusCode, name).toBe(415);
      expect(res.json().error).toBe('ERR_INVALID_IMAGE');
    }
    expect((await call(su, 'GET', `/announcements/${record.id}`)).json()).toMatchObject({ mediaName: null });
    const noFile = await server.app.inject({
      method: 'POST',
      url: `/announcements/${record.id}/media-upload`,
      headers: su.headers,
      payload: { file: 'x' },
    });
    expect(noFile.statusCode).toBe(400);
    const truncated = await server.app.inject({
      method: 'POST',
      url: `/announcements/${record.id}/media-upload`,
      headers: { ...su.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().error).toBe('ERR_VALIDATION');
    expect((await upload(su, 2147483647, 'a.png', 'image/png', PNG)).json().error).toBe('ERR_NO_ANNOUNCEMENT_FOUND');
  });

  it('is deleted with its announcement', async () => {
    const record = await create({ title: 'Temporário', text: 'some logo' });
    const { mediaPath } = (await upload(su, record.id, 'a.png', 'image/png', PNG)).json() as Announcement;
    expect((await call(su, 'GET', mediaPath as string)).statusCode).toBe(200);
    await call(su, 'DELETE', `/announcements/${record.id}`);
    expect((await call(su, 'GET', mediaPath as string)).statusCode).toBe(404);
    const key = (mediaPath as string).split('/').pop();
    expect(await server.deps.storage.open(`${su.user.companyId}/${key}`)).toBeNull();
  });
});
