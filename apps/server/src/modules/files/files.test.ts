import { companyEvent } from '@balcao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  nextEvent,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { fileKindOf } from '../../platform/storage/file-kinds.js';
import { fileOptionOf, fileOptionsOf } from './files.service.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** The start of a Windows executable (the DOS header), whatever it is called. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('This program cannot be run in DOS mode')]);

type Option = { id: number; name: string; path: string | null; mediaType: string | null; fileName: string | null };
type FileList = { id: number; name: string; message: string; userId: number | null; options: Option[] };

let server: TestServer;
let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

async function create(session: Session, body: object): Promise<FileList> {
  const res = await call(session, 'POST', '/files', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The spec's form: per file `fileId`, `typeArch`, `files`, `mediaType`, `name`, `id`. */
async function upload(session: Session, list: FileList, files: { option: Option; name: string; data: Buffer }[]) {
  const form = new FormData();
  for (const f of files) {
    form.append('fileId', String(list.id));
    form.append('typeArch', 'fileList');
    form.append('files', new Blob([new Uint8Array(f.data)], { type: 'application/pdf' }), f.name);
    form.append('mediaType', 'application/pdf');
    form.append('name', f.option.name);
    form.append('id', String(f.option.id));
  }
  const request = new Request('http://local/', { method: 'POST', body: form });
  return server.app.inject({
    method: 'POST',
    url: `/files/uploadList/${list.id}`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { ...session.headers, 'content-type': request.headers.get('content-type') as string },
  });
}

const download = async (session: Session, path: string) => (await call(session, 'GET', path)).rawPayload;

describe('file lists', () => {
  it('validates name (min 3, "Nome muito curto") and message (required)', async () => {
    const res = await call(t.admin, 'POST', '/files', { name: 'ab', message: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(res.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Nome muito curto' },
        { path: 'message', message: 'Obrigatório' },
      ]),
    );
  });

  it('create, read, update (options renamed, added, removed) and list with search', async () => {
    const list = await create(t.admin, {
      name: 'Catálogo',
      message: 'Segue o catálogo',
      userId: 999,
      options: [{ name: 'Preços' }, { name: 'Fotos' }],
    });
    expect(list).toMatchObject({ name: 'Catálogo', message: 'Segue o catálogo', userId: t.admin.user.id });
    expect(list.options.map((o) => [o.name, o.path])).toEqual([
      ['Preços', null],
      ['Fotos', null],
    ]);
    const [prices, photos] = list.options;
    const updated = await call(t.admin, 'PUT', `/files/${list.id}`, {
      name: 'Catálogo 2026',
      options: [{ name: 'Novo' }, { id: photos.id, name: 'Fotos da loja' }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().name).toBe('Catálogo 2026');
    expect(updated.json().options.map((o: Option) => o.name)).toEqual(['Novo', 'Fotos da loja']);
    expect(updated.json().options.some((o: Option) => o.id === prices.id)).toBe(false);

    await create(t.admin, { name: 'Boletos', message: 'Seu boleto' });
    const found = (await call(t.user, 'GET', '/files/?searchParam=catál&pageNumber=1')).json();
    expect(found.count).toBe(1);
    expect(found.files.map((f: FileList) => f.name)).toEqual(['Catálogo 2026']);
    const all = (await call(t.user, 'GET', `/files/?companyId=${t.companyId}`)).json();
    expect(all.files.map((f: FileList) => f.name)).toEqual(['Boletos', 'Catálogo 2026']);
    expect((await call(t.user, 'GET', `/files/${list.id}`)).json().name).toBe('Catálogo 2026');
    expect((await call(other.admin, 'GET', `/files/${list.id}`)).statusCode).toBe(404);
    expect((await call(other.admin, 'GET', '/files')).json().count).toBe(0);

    const foreign = await call(t.admin, 'PUT', `/files/${list.id}`, { options: [{ id: 2147483000, name: 'x' }] });
    expect(foreign.statusCode).toBe(400);
  });

  it('agents read but may not write', async () => {
    const list = await create(t.admin, { name: 'Só leitura', message: 'Olá', options: [{ name: 'A' }] });
    expect((await call(t.user, 'GET', `/files/${list.id}`)).statusCode).toBe(200);
    expect((await call(t.user, 'POST', '/files', { name: 'Minha', message: 'x' })).statusCode).toBe(403);
    expect((await call(t.user, 'PUT', `/files/${list.id}`, { name: 'Mudou' })).statusCode).toBe(403);
    expect((await call(t.user, 'DELETE', `/files/${list.id}`)).statusCode).toBe(403);
    const res = await upload(t.user, list, [{ option: list.options[0], name: 'a.pdf', data: PDF }]);
    expect(res.statusCode).toBe(403);
  });

  it('stores options by content type under server keys, same names side by side, one lookup for senders', async () => {
    const list = await create(t.admin, {
      name: 'Documentos',
      message: 'Seguem',
      options: [{ name: 'Contrato' }, { name: 'Logo' }, { name: 'Outro contrato' }],
    });
    const [contract, logo, second] = list.options;
    const res = await upload(t.admin, list, [
      { option: contract, name: 'doc.pdf', data: PDF },
      // The declared type says PDF and the name says JPEG: the bytes say PNG.
      { option: logo, name: 'logo.jpg', data: PNG },
      { option: second, name: 'doc.pdf', data: Buffer.concat([PDF, Buffer.from('% second\n')]) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const options: Option[] = res.json().options;
    expect(options.map((o) => [o.fileName, o.mediaType])).toEqual([
      ['doc.pdf', 'application/pdf'],
      ['logo.jpg', 'image/png'],
      ['doc.pdf', 'application/pdf'],
    ]);
    expect(options[0].path).toMatch(new RegExp(`^/media/${t.companyId}/[0-9a-f-]{36}\\.pdf$`));
    expect(options[1].path).toMatch(/\.png$/);
    expect(options[0].path).not.toBe(options[2].path);
    expect(await download(t.user, options[0].path as string)).toEqual(PDF);
    expect((await download(t.user, options[2].path as string)).toString()).toContain('% second');

    const files = await fileOptionsOf(server.deps.database.db, t.companyId, list.id);
    expect(files.map((f) => [f.name, f.fileName, f.mediaType])).toEqual([
      ['Contrato', 'doc.pdf', 'application/pdf'],
      ['Logo', 'logo.jpg', 'image/png'],
      ['Outro contrato', 'doc.pdf', 'application/pdf'],
    ]);
    expect(await fileOptionsOf(server.deps.database.db, other.companyId, list.id)).toEqual([]);
    expect((await fileOptionOf(server.deps.database.db, t.companyId, logo.id))?.key).toBe(files[1].key);
    expect(await fileOptionOf(server.deps.database.db, other.companyId, logo.id)).toBeNull();

    // A replaced file is removed; the new one is served.
    const replaced = await upload(t.admin, list, [{ option: logo, name: 'logo2.png', data: PNG }]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await server.deps.storage.open(files[1].key))?.size).toBeUndefined();
  });

  it('refuses an executable whatever its name, and leaves the list as it was', async () => {
    const list = await create(t.admin, { name: 'Perigo', message: 'x', options: [{ name: 'A' }, { name: 'B' }] });
    const [a, b] = list.options;
    const res = await upload(t.admin, list, [
      { option: a, name: 'ok.pdf', data: PDF },
      { option: b, name: 'fatura.pdf', data: EXE },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('ERR_INVALID_FILE_TYPE');
    const after = (await call(t.admin, 'GET', `/files/${list.id}`)).json() as FileList;
    expect(after.options.every((o) => o.path === null)).toBe(true);
    const mismatched = await upload(t.admin, list, []);
    expect(mismatched.statusCode).toBe(400);
  });

  it('deleting a list, or one of its options, removes the stored files', async () => {
    const list = await create(t.admin, { name: 'Temporária', message: 'x', options: [{ name: 'A' }, { name: 'B' }] });
    const res = await upload(t.admin, list, [
      { option: list.options[0], name: 'a.pdf', data: PDF },
      { option: list.options[1], name: 'b.png', data: PNG },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [keyA, keyB] = (await fileOptionsOf(server.deps.database.db, t.companyId, list.id)).map((f) => f.key);
    const trimmed = await call(t.admin, 'PUT', `/files/${list.id}`, {
      options: [{ id: list.options[1].id, name: 'B' }],
    });
    expect(trimmed.statusCode, trimmed.body).toBe(200);
    expect(await server.deps.storage.open(keyA)).toBeNull();
    const kept = await server.deps.storage.open(keyB);
    kept?.stream.destroy();
    expect(kept).not.toBeNull();
    expect((await call(t.admin, 'DELETE', `/files/${list.id}`)).statusCode).toBe(200);
    expect(await server.deps.storage.open(keyB)).toBeNull();
    expect((await call(t.admin, 'GET', `/files/${list.id}`)).statusCode).toBe(404);
  });

  it('tells the whole company live: create, update, delete', async () => {
    await server.listen();
    const socket = await connectSocket(server, t.user.token);
    try {
      const event = companyEvent.file(t.companyId);
      const created = nextEvent<{ action: string; record: FileList }>(socket, event);
      const list = await create(t.admin, { name: 'Ao vivo', message: 'x' });
      expect(await created).toMatchObject({ action: 'create', record: { id: list.id, name: 'Ao vivo' } });
      const updated = nextEvent(socket, event);
      await call(t.admin, 'PUT', `/files/${list.id}`, { message: 'y' });
      expect(await updated).toMatchObject({ action: 'update', record: { id: list.id, message: 'y' } });
      const deleted = nextEvent(socket, event);
      await call(t.admin, 'DELETE', `/files/${list.id}`);
      expect(await deleted).toEqual({ action: 'delete', id: list.id });
    } finally {
      socket.close();
    }
  });
});

describe('fileKindOf', () => {
  it('reads the type from the bytes and refuses executables and unknown binaries', () => {
    expect(fileKindOf(PDF, 'x.dat')).toEqual({ mime: 'application/pdf', ext: '.pdf' });
    expect(fileKindOf(PNG, 'x.pdf')).toEqual({ mime: 'image/png', ext: '.png' });
    expect(fileKindOf(Buffer.from('nome;numero\nAna;55\n'), 'l.csv')).toEqual({ mime: 'text/csv', ext: '.csv' });
    expect(fileKindOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'a.docx')?.ext).toBe('.docx');
    expect(fileKindOf(EXE, 'fatura.pdf')).toBeNull();
    expect(fileKindOf(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]), 'a.png')).toBeNull();
    expect(fileKindOf(Buffer.from('#!/bin/sh\nrm -rf /\n'), 'a.txt')).toBeNull();
    expect(fileKindOf(Buffer.from('echo hi'), 'run.bat')).toBeNull();
    expect(fileKindOf(PDF, 'a.exe')).toBeNull();
    expect(fileKindOf(Buffer.from([0x00, 0x01, 0x02, 0xfe, 0x99]), 'a.dat')).toBeNull();
  });
});
