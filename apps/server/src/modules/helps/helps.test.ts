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

let server: TestServer;
let t: Tenant;
let su: Session;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  // Each super login revokes the previous super session: log in after createTenant.
  su = await login(server, SUPER.email, SUPER.password);
});
afterAll(() => server.close());

const call: TestServer['call'] = (...args) => server.call(...args);
const ID = 'dQw4w9WgXcQ';

describe('help videos, super user', () => {
  it('creates from a link, storing only the video id; updates, lists and deletes', async () => {
    const created = await call('POST', '/helps', su, {
      title: 'Como abrir um atendimento',
      description: 'Passo a passo',
      video: `https://www.youtube.com/watch?v=${ID}&t=42s`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const help = created.json();
    expect(help).toMatchObject({ title: 'Como abrir um atendimento', description: 'Passo a passo', video: ID });

    const renamed = await call('PUT', `/helps/${help.id}`, su, { title: 'Abrir atendimento' });
    expect(renamed.json()).toMatchObject({ title: 'Abrir atendimento', description: 'Passo a passo', video: ID });
    const moved = await call('PUT', `/helps/${help.id}`, su, { video: 'https://youtu.be/abcdefghijk?si=x' });
    expect(moved.json()).toMatchObject({ title: 'Abrir atendimento', video: 'abcdefghijk' });

    const list = await call('GET', '/helps/list', t.user);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual({
      id: help.id,
      title: 'Abrir atendimento',
      description: 'Passo a passo',
      video: 'abcdefghijk',
    });

    expect((await call('DELETE', `/helps/${help.id}`, su)).statusCode).toBe(200);
    expect((await call('GET', '/helps/list', su)).json().some((h: { id: number }) => h.id === help.id)).toBe(false);
    const again = await call('DELETE', `/helps/${help.id}`, su);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('ERR_NO_HELP_FOUND');
    const missing = await call('PUT', `/helps/${help.id}`, su, { title: 'x' });
    expect(missing.json().error).toBe('ERR_NO_HELP_FOUND');
  });

  it('refuses a video that is neither a YouTube link nor an id, and keeps the stored one', async () => {
    const help = (await call('POST', '/helps', su, { title: 'Filas', video: ID })).json();
    expect(help.description).toBe('');
    for (const video of ['https://vimeo.com/123', `https://youtube.com.evil.test/watch?v=${ID}`, 'short', '<b>x</b>']) {
      const created = await call('POST', '/helps', su, { title: 'Ruim', video });
      expect(created.statusCode, video).toBe(400);
      expect(created.json().error).toBe('ERR_INVALID_VIDEO');
      const updated = await call('PUT', `/helps/${help.id}`, su, { video });
      expect(updated.json().error).toBe('ERR_INVALID_VIDEO');
    }
    expect((await call('GET', '/helps/list', su)).json()).toContainEqual(help);
    expect((await call('GET', '/helps?searchParam=ruim', su)).json().count).toBe(0);
  });

  it('validates the title and needs a video', async () => {
    const noTitle = await call('POST', '/helps', su, { title: '  ', video: ID });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fields).toContainEqual(expect.objectContaining({ path: 'title', message: 'Obrigatório' }));
    const noVideo = await call('POST', '/helps', su, { title: 'Sem vídeo' });
    expect(noVideo.json().fields).toContainEqual(expect.objectContaining({ path: 'video' }));
  });

  it('pages the list by 20 with a title search', async () => {
    const made = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        call('POST', '/helps', su, { title: `Lote ${String(i).padStart(2, '0')}`, video: ID }),
      ),
    );
    expect(made.map((r) => r.statusCode)).toEqual(Array(21).fill(201));
    const page1 = (await call('GET', '/helps?searchParam=LOTE&pageNumber=1', t.admin)).json();
    expect(page1).toMatchObject({ count: 21, hasMore: true });
    expect(page1.helps).toHaveLength(20);
    expect(page1.helps[0].title).toBe('Lote 00');
    const page2 = (await call('GET', '/helps?searchParam=lote&pageNumber=2', t.user)).json();
    expect(page2).toMatchObject({ count: 21, hasMore: false });
    expect(page2.helps.map((h: { title: string }) => h.title)).toEqual(['Lote 20']);
  });
});

describe('help videos, everyone else', () => {
  it('reads them but may not create, change or delete one', async () => {
    const help = (await call('POST', '/helps', su, { title: 'Intocável', video: ID })).json();
    for (const session of [t.admin, t.user]) {
      expect((await call('GET', '/helps', session)).statusCode).toBe(200);
      for (const [method, url, payload] of [
        ['POST', '/helps', { title: 'Intrusa', video: ID }],
        ['PUT', `/helps/${help.id}`, { title: 'Mudada' }],
        ['DELETE', `/helps/${help.id}`, undefined],
      ] as const) {
        const res = await call(method, url, session, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe('ERR_NO_PERMISSION');
      }
    }
    expect((await call('GET', '/helps/list', su)).json()).toContainEqual(help);
  });

  it('needs a session to read', async () => {
    expect((await call('GET', '/helps')).statusCode).toBe(401);
    expect((await call('GET', '/helps/list')).statusCode).toBe(401);
  });
});
