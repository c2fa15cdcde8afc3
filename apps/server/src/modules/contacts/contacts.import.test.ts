import { type ContactImportEvent, companyEvent, IMPORT_MAX_BYTES } from '@balcao/shared';
import * as XLSX from '@e965/xlsx';
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
import { readSheet } from './contacts.import.js';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let adminSocket: Socket;
let agentSocket: Socket;
let agentSeen: { event: string; payload: unknown }[];
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' }, { jobs: true });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
  adminSocket = await connectSocket(server, t.admin.token);
  agentSocket = await connectSocket(server, t.user.token);
  agentSeen = recordEvents(agentSocket);
});
afterAll(async () => {
  adminSocket.close();
  agentSocket.close();
  await server.close();
});

async function multipart(name: string, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}

export async function upload(server: TestServer, session: Session, url: string, name: string, data: Buffer) {
  const body = await multipart(name, data);
  return server.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...session.headers, ...body.headers },
  });
}

export function sheetFile(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

/** Uploads and waits for the job's end as the uploader's socket hears it. */
async function imported(session: Session, socket: Socket, name: string, data: Buffer) {
  const done = eventWhere<ContactImportEvent>(
    socket,
    companyEvent.contactImport(t.companyId),
    (p) => p.action !== 'progress',
    15_000,
  );
  const res = await upload(server, session, '/contacts/import', name, data);
  expect(res.statusCode, res.body).toBe(202);
  const end = await done;
  expect(end.import.id).toBe(res.json().id);
  return end.import;
}

const contactsOf = async (session: Session, search: string) =>
  (await server.call('GET', `/contacts?searchParam=${encodeURIComponent(search)}`, session)).json().contacts as {
    id: number;
    name: string;
    number: string;
    email: string;
  }[];

describe('POST /contacts/import', () => {
  it('imports an xlsx file in the background: headers by meaning, bad rows rejected, duplicates merged, live progress', async () => {
    const file = sheetFile(
      [
        ['Nome', 'Número', 'E-MAIL', 'Cidade'],
        ['Ana Xlsx', '(11) 98888-1001', 'ana@x.com', 'Recife'],
        ['B', '11988881002', '', ''],
        ['Carla Xlsx', '123', '', ''],
        ['Dora Xlsx', '11988881004', 'não-é-email', ''],
        ['Ana Xlsx Nova', '5511988881001', '', 'Olinda'],
      ],
      'xlsx',
    );
    const progress: ContactImportEvent[] = [];
    const listener = (p: ContactImportEvent) => progress.push(p);
    adminSocket.on(companyEvent.contactImport(t.companyId), listener);
    const result = await imported(t.admin, adminSocket, 'contatos.xlsx', file);
    adminSocket.off(companyEvent.contactImport(t.companyId), listener);
    expect(result).toMatchObject({ status: 'done', total: 5, processed: 5, imported: 1, rejected: 3 });
    expect(progress.some((p) => p.action === 'progress' && p.import.total === 5)).toBe(true);
    // The uploader's progress only: a colleague hears nothing.
    expect(agentSeen.filter((e) => e.event === companyEvent.contactImport(t.companyId))).toEqual([]);

    const [ana] = await contactsOf(t.admin, 'Ana Xlsx');
    expect(ana).toMatchObject({ name: 'Ana Xlsx Nova', number: '5511988881001', email: 'ana@x.com' });
    const full = (await server.call('GET', `/contacts/${ana.id}`, t.admin)).json();
    expect(full.extraInfo).toEqual([expect.objectContaining({ name: 'Cidade', value: 'Olinda' })]);

    const rejected = await server.call('GET', `/contacts/import/${result.id}/rejected`, t.admin);
    expect(rejected.statusCode).toBe(200);
    expect(rejected.headers['content-type']).toContain('text/csv');
    const lines = rejected.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Nome,Número,E-MAIL,Cidade,motivo');
    expect(lines.slice(1)).toEqual([
      'B,11988881002,,,Nome muito curto',
      'Carla Xlsx,123,,,Número inválido',
      'Dora Xlsx,11988881004,não-é-email,,E-mail inválido',
    ]);
    // Another company cannot read the import nor its file; neither can an agent who did not upload it.
    expect((await server.call('GET', `/contacts/import/${result.id}/rejected`, other.admin)).statusCode).toBe(404);
    expect((await server.call('GET', `/contacts/import/${result.id}`, t.user)).statusCode).toBe(404);
    expect((await server.call('GET', `/contacts/import/${result.id}`, t.admin)).json().status).toBe('done');
  });

  it('reads a phone typed as a number in full, not in scientific notation', async () => {
    const file = sheetFile(
      [
        ['Nome', 'Número'],
        ['Eva Número', 5521912345678],
      ],
      'xlsx',
    );
    expect((await readSheet(file, 'numeros.xlsx'))[1]).toEqual(['Eva Número', '5521912345678']);
  });

  it('imports an old .xls (BIFF8) file', async () => {
    const file = sheetFile(
      [
        ['name', 'phone'],
        ['Eva Xls', '5521977770001'],
      ],
      'biff8',
    );
    expect((await imported(t.admin, adminSocket, 'antigo.xls', file)).imported).toBe(1);
    expect((await contactsOf(t.admin, 'Eva Xls'))[0].number).toBe('5521977770001');
  });

  it('reads CSV with ; in Latin-1 and with , in UTF-8, keeping formula-looking names as text', async () => {
    const latin1 = Buffer.from('nome;telefone;email\r\nJoão Látin;21 97777-0002;\r\n', 'latin1');
    expect((await imported(t.admin, adminSocket, 'latin.csv', latin1)).imported).toBe(1);
    expect((await contactsOf(t.admin, 'João Látin'))[0].number).toBe('5521977770002');

    const utf8 = Buffer.from(
      '\uFEFFName,Celular\r\n"=HYPERLINK(""x"")",5521977770003\r\n@cmd,5521977770004\r\n',
      'utf8',
    );
    expect((await imported(t.admin, adminSocket, 'formulas.csv', utf8)).imported).toBe(2);
    expect((await contactsOf(t.admin, '=HYPERLINK'))[0].name).toBe('=HYPERLINK("x")');
  });

  it('refuses a file over 5 MB, a wrong type, and fails a file over 50,000 rows with a clear code', async () => {
    const big = await upload(server, t.admin, '/contacts/import', 'big.csv', Buffer.alloc(IMPORT_MAX_BYTES + 10, 'a'));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('ERR_IMPORT_FILE_TOO_LARGE');
    const pdf = await upload(server, t.admin, '/contacts/import', 'x.pdf', Buffer.from('%PDF'));
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().error).toBe('ERR_IMPORT_FILE_TYPE');
    const rows = `numero\n${'5511900000000\n'.repeat(50_001)}`;
    const result = await imported(t.admin, adminSocket, 'many.csv', Buffer.from(rows));
    expect(result).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_TOO_MANY_ROWS' });
  });

  it('any member may import: the agent follows their own import', async () => {
    const result = await imported(
      t.user,
      agentSocket,
      'agente.csv',
      Buffer.from('nome,numero\nFabio Agente,5531966660001\n'),
    );
    expect(result.imported).toBe(1);
    expect((await server.call('GET', `/contacts/import/${result.id}`, t.user)).statusCode).toBe(200);
  });
});

describe('GET /contacts/export', () => {
  it('streams name, number, email as UTF-8 with BOM, formula-looking cells escaped, own company only', async () => {
    const res = await server.call('GET', '/contacts/export', t.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('name,number,email');
    expect(lines).toContain(`"'=HYPERLINK(""x"")",5521977770003,`);
    expect(lines).toContain("'@cmd,5521977770004,");
    expect(lines).toContain('João Látin,5521977770002,');
    const foreign = await server.call('GET', '/contacts/export', other.admin);
    expect(foreign.body.slice(1).trim()).toBe('name,number,email');
    expect((await server.call('GET', '/contacts/export')).statusCode).toBe(401);
  });
});
