import { companyEvent, settingDefaults } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../../test/sandbox-helpers.js';
import { localTime } from '../../platform/templates.js';
import { applyAck } from './messages.service.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const NUMBER = '5511955510001';

let server: TestServer;
let t: Tenant;
let other: Tenant;
let whatsappId: number;
let ticketId: number;
let socket: Socket;
beforeAll(async () => {
  // Quick retries: the failure tests below spend every attempt of a message.
  server = await createTestServer(
    { LOGIN_LIMIT_IP: '1000' },
    { jobs: true, outbox: { attempts: 3, retryBaseMs: 300 } },
  );
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
  whatsappId = await connectedSandbox(server, t.admin);
  for (let i = 0; i < 25; i++) {
    const n = String(i).padStart(2, '0');
    await contactWrites(server, t.admin, whatsappId, {
      number: NUMBER,
      name: 'Marta',
      body: `m${n}`,
      providerId: `P${n}`,
    });
  }
  ticketId = (await call(t.admin, 'GET', `/tickets?searchParam=${NUMBER}`)).json().tickets[0].id;
  socket = await connectSocket(server, t.admin.token);
});
afterAll(async () => {
  socket?.close();
  await server.close();
});

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

/** A multipart body as a browser's FormData sends it. */
async function multipart(
  fields: Record<string, string>,
  files: { field: string; name: string; type: string; data: Buffer }[],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}

type Message = {
  id: number;
  body: string;
  fromMe: boolean;
  ack: number;
  sendStatus: string;
  sendError: string | null;
  isDeleted: boolean;
  mediaType: string;
  mediaUrl: string | null;
  mediaName: string | null;
  quotedMsg: { id: number; body: string } | null;
};
const page = async (id = ticketId, pageNumber = 1, session = t.admin) => {
  const res = await call(session, 'GET', `/messages/${id}?pageNumber=${pageNumber}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { messages: Message[]; count: number; hasMore: boolean };
};
const messageById = async (id: number) => {
  for (let p = 1; ; p++) {
    const list = await page(ticketId, p);
    const found = list.messages.find((m) => m.id === id);
    if (found || !list.hasMore) return found as Message;
  }
};
const send = async (body: object, id = ticketId) => {
  const res = await call(t.admin, 'POST', `/messages/${id}`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Message[];
};

describe('reading messages', () => {
  it('pages the newest 20 first, each page in chronological order', async () => {
    const one = await page();
    expect(one).toMatchObject({ count: 25, hasMore: true });
    expect(one.messages.map((m) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${String(i + 5).padStart(2, '0')}`),
    );
    const two = await page(ticketId, 2);
    expect(two).toMatchObject({ count: 25, hasMore: false });
    expect(two.messages.map((m) => m.body)).toEqual(['m00', 'm01', 'm02', 'm03', 'm04']);
    // Reading a pending ticket leaves it unread.
    expect((await call(t.admin, 'GET', `/tickets/${ticketId}`)).json().unreadMessages).toBe(25);
  });

  it('opening page 1 of an open ticket marks it read and tells the lists', async () => {
    await call(t.admin, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: t.admin.user.id });
    const unread = eventWhere<{ action: string; ticketId: number }>(
      socket,
      companyEvent.ticket(t.companyId),
      (e) => e.action === 'updateUnread',
    );
    const before = (await call(t.admin, 'GET', `/tickets/${ticketId}`)).json();
    // A provider that never answers: the page does not wait for the read receipts.
    const receipts = vi
      .spyOn(server.deps.channels.get(whatsappId), 'markRead')
      .mockImplementation(() => new Promise(() => undefined));
    await page();
    expect((await unread).ticketId).toBe(ticketId);
    // The contact's phone hears that its 25 messages were read, oldest first.
    expect(receipts).toHaveBeenCalledTimes(1);
    const [to, refs] = receipts.mock.calls[0];
    expect(to).toBe(NUMBER);
    expect(refs.map((r) => r.providerId)).toEqual(
      Array.from({ length: 25 }, (_, i) => `P${String(i).padStart(2, '0')}`),
    );
    receipts.mockRestore();
    const after = (await call(t.admin, 'GET', `/tickets/${ticketId}`)).json();
    expect(after.unreadMessages).toBe(0);
    // Reading is not activity: the ticket keeps its place in the lists.
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it('a plain user cannot read or write a ticket outside their queues', async () => {
    for (const res of [
      await call(t.user, 'GET', `/messages/${ticketId}`),
      await call(t.user, 'POST', `/messages/${ticketId}`, { body: 'intruso' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect((await page()).count).toBe(25);
  });
});

describe('sending', () => {
  let sentId: number;

  it('a text reaches the phone; acks go 1 → 2 → 3 and never back', async () => {
    const [created] = await send({ body: 'Olá Marta, tudo bem?' });
    expect(created).toMatchObject({ fromMe: true, body: 'Olá Marta, tudo bem?', mediaType: 'chat' });
    sentId = created.id;
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.some((m) => m.body === 'Olá Marta, tudo bem?'),
    );
    const onPhone = phone.find((m) => m.body === 'Olá Marta, tudo bem?');
    const sent = await waitUntil(
      () => messageById(sentId),
      (m) => m.sendStatus === 'sent',
    );
    expect(sent.ack).toBe(1);

    for (const ack of [2, 3] as const) {
      const live = eventWhere<{ action: string; message: Message }>(
        socket,
        companyEvent.appMessage(t.companyId),
        (e) => e.action === 'update' && e.message.id === sentId && e.message.ack === ack,
      );
      const res = await call(t.admin, 'POST', `/sandbox/${whatsappId}/ack`, { providerId: onPhone?.providerId, ack });
      expect(res.statusCode).toBe(200);
      // The event carries the message as the page shows it, its contact and all.
      const { message } = await live;
      expect(message).toEqual(await messageById(sentId));
      expect(message.ack).toBe(ack);
    }
    await call(t.admin, 'POST', `/sandbox/${whatsappId}/ack`, { providerId: onPhone?.providerId, ack: 2 });
    expect((await messageById(sentId)).ack).toBe(3);
  });

  it('two acks that land at once never move a message back', async () => {
    const [created] = await send({ body: 'Dois recibos' });
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.some((m) => m.body === 'Dois recibos'),
    );
    const providerId = phone.find((m) => m.body === 'Dois recibos')?.providerId;
    await waitUntil(
      () => messageById(created.id),
      (m) => m.sendStatus === 'sent',
    );
    // As a provider delivers them: read, then received, each handled before the other has ended.
    const { database, realtime } = server.deps;
    await Promise.all(
      [3, 2].map((ack) =>
        applyAck(database.db, realtime, { companyId: t.companyId, whatsappId, providerId: `${providerId}`, ack }),
      ),
    );
    expect((await messageById(created.id)).ack).toBe(3);
  });

  it('the echo of our own sent message is not stored again', async () => {
    const phone = await phoneOf(server, t.admin, whatsappId, NUMBER);
    const before = (await page()).count;
    await server.deps.channels.sandbox(whatsappId).receive({
      providerId: phone[0].providerId,
      number: NUMBER,
      fromMe: true,
      body: phone[0].body,
      mediaType: 'chat',
    });
    expect((await page()).count).toBe(before);
  });

  it('a reply quotes the message on the phone too', async () => {
    const quoted = (await page()).messages.find((m) => m.body === 'm24') as Message;
    const [reply] = await send({ body: 'Sobre isso…', quotedMsg: { id: quoted.id } });
    expect(reply.quotedMsg).toMatchObject({ id: quoted.id, body: 'm24' });
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.some((m) => m.body === 'Sobre isso…'),
    );
    const item = phone.find((m) => m.body === 'Sobre isso…') as unknown as { quotedProviderId: string };
    expect(item.quotedProviderId).toBe('P24');

    // A message of another ticket cannot be quoted.
    await contactWrites(server, t.admin, whatsappId, { number: '5511955510002', body: 'outro' });
    const foreign = (await call(t.admin, 'GET', '/tickets?searchParam=5511955510002')).json().tickets[0].id as number;
    const foreignMsg = (await page(foreign)).messages[0];
    const res = await call(t.admin, 'POST', `/messages/${ticketId}`, { body: 'x', quotedMsg: { id: foreignMsg.id } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_MESSAGE_FOUND');

    // A message deleted for everyone is gone from WhatsApp: it cannot be quoted there.
    const [gone] = await send({ body: 'Vou apagar' });
    await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.some((m) => m.body === 'Vou apagar'),
    );
    expect((await call(t.admin, 'DELETE', `/messages/${gone.id}`)).statusCode).toBe(200);
    const onDeleted = await call(t.admin, 'POST', `/messages/${ticketId}`, { body: 'x', quotedMsg: { id: gone.id } });
    expect(onDeleted.statusCode).toBe(400);
    expect(onDeleted.json().error).toBe('ERR_FETCH_WAPP_MSG');
  });

  it("renders the body's variables for the contact, in the company's time zone", async () => {
    const hours = (timeZone: string) => {
      const at = (ms: number) => localTime(new Date(ms), timeZone);
      return [at(Date.now()), at(Date.now() + 60_000)].map((t) => `${t.hour}:${t.minute} Marta`);
    };
    // No time zone stored: the default one.
    const expected = hours(settingDefaults.timezone);
    const [plain] = await send({ body: '{{hour}} {{firstName}}' });
    expect(expected).toContain(plain.body);
    const put = await call(t.admin, 'PUT', '/settings/timezone', { value: 'Asia/Tokyo' });
    expect(put.statusCode, put.body).toBe(200);
    const inTokyo = hours('Asia/Tokyo');
    const [tokyo] = await send({ body: '{{hour}} {{firstName}}' });
    expect(inTokyo).toContain(tokyo.body);
    await call(t.admin, 'PUT', '/settings/timezone', { value: settingDefaults.timezone });
  });

  it('refuses an empty message', async () => {
    const res = await call(t.admin, 'POST', `/messages/${ticketId}`, { body: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });

  it('media: the phone receives the file and the agent reads the same bytes back with a token', async () => {
    const form = await multipart({ body: 'Veja a foto' }, [
      { field: 'medias', name: 'foto da loja.png', type: 'image/png', data: PNG },
      { field: 'medias', name: 'contrato.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 test') },
    ]);
    const res = await server.app.inject({
      method: 'POST',
      url: `/messages/${ticketId}`,
      payload: form.payload,
      headers: { ...t.admin.headers, ...form.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [image, pdf] = res.json() as Message[];
    expect(image).toMatchObject({ mediaType: 'image', mediaName: 'foto da loja.png', body: 'Veja a foto' });
    expect(pdf).toMatchObject({ mediaType: 'application', mediaName: 'contrato.pdf', body: '' });
    expect(image.mediaUrl).toMatch(new RegExp(`^/media/${t.companyId}/[0-9a-f-]{36}\\.png$`));
    expect(image.mediaUrl).not.toContain('loja');

    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.filter((m) => m.media).length === 2,
    );
    const photo = phone.find((m) => m.media?.fileName === 'foto da loja.png') as unknown as {
      body: string;
      media: { url: string };
    };
    expect(photo.body).toBe('Veja a foto');

    for (const url of [image.mediaUrl as string, photo.media.url]) {
      const file = await server.app.inject({ method: 'GET', url, headers: t.admin.headers });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.rawPayload.equals(PNG)).toBe(true);
    }
    const doc = await server.app.inject({ method: 'GET', url: pdf.mediaUrl as string, headers: t.user.headers });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-disposition']).toBe('attachment');

    const foreign = await server.app.inject({
      method: 'GET',
      url: image.mediaUrl as string,
      headers: other.admin.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_MEDIA_NOT_FOUND');
    expect(foreign.rawPayload.includes(PNG)).toBe(false);
    const anonymous = await server.app.inject({ method: 'GET', url: image.mediaUrl as string });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('ERR_SESSION_EXPIRED');
  });

  it('deleting our message marks it deleted here and on the phone; a contact message cannot be deleted', async () => {
    const live = eventWhere<{ action: string; message: Message }>(
      socket,
      companyEvent.appMessage(t.companyId),
      (e) => e.action === 'update' && e.message.id === sentId && e.message.isDeleted,
    );
    const res = await call(t.admin, 'DELETE', `/messages/${sentId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: sentId, isDeleted: true, body: '' });
    await live;
    expect(await messageById(sentId)).toMatchObject({ isDeleted: true, body: '' });
    const phone = await phoneOf(server, t.admin, whatsappId, NUMBER);
    expect(phone.find((m) => m.body === 'Olá Marta, tudo bem?')).toMatchObject({ deleted: true });

    const theirs = (await page(ticketId, 2)).messages[0];
    const refused = await call(t.admin, 'DELETE', `/messages/${theirs.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_DELETE_WAPP_MSG');
    expect(await messageById(theirs.id)).toMatchObject({ isDeleted: false, body: 'm00' });

    const foreign = await call(other.admin, 'DELETE', `/messages/${theirs.id}`);
    expect(foreign.statusCode).toBe(404);
  });

  it('a disconnected connection refuses to send (ERR_WAPP_NOT_INITIALIZED) and stores nothing', async () => {
    const second = await connectedSandbox(server, t.admin);
    const number = '5511955510003';
    await contactWrites(server, t.admin, second, { number, body: 'oi pela segunda' });
    const id = (await call(t.admin, 'GET', `/tickets?searchParam=${number}`)).json().tickets[0].id as number;
    expect((await call(t.admin, 'DELETE', `/whatsappsession/${second}`)).statusCode).toBe(200);
    const before = (await page(id)).count;

    const text = await call(t.admin, 'POST', `/messages/${id}`, { body: 'Alô?' });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const form = await multipart({ body: '' }, [{ field: 'medias', name: 'x.png', type: 'image/png', data: PNG }]);
    const media = await server.app.inject({
      method: 'POST',
      url: `/messages/${id}`,
      payload: form.payload,
      headers: { ...t.admin.headers, ...form.headers },
    });
    expect(media.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect((await page(id)).count).toBe(before);
    expect(await phoneOf(server, t.admin, second, number)).toEqual([]);
  });

  it('a message deleted before it could be sent never reaches the phone', async () => {
    // The channel dies while the connection still reads CONNECTED: the first attempt fails.
    await server.deps.channels.stop(whatsappId);
    let id = 0;
    try {
      [{ id }] = await send({ body: 'Mensagem apagada antes do envio' });
      const deleted = await call(t.admin, 'DELETE', `/messages/${id}`);
      expect(deleted.json()).toMatchObject({ isDeleted: true });
    } finally {
      await server.deps.channels.start(t.companyId, whatsappId);
    }
    // A later message of the ticket leaves only once the older ones are dealt with.
    await send({ body: 'Depois da apagada' });
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (l) => l.some((m) => m.body === 'Depois da apagada'),
      10_000,
    );
    expect(phone.map((m) => m.body)).not.toContain('Mensagem apagada antes do envio');
    expect(await messageById(id)).toMatchObject({ isDeleted: true, body: '' });
  });

  it('a send that keeps failing ends as failed with its reason, and leaves once the connection is back', async () => {
    // The channel dies while the connection still reads CONNECTED: every attempt fails.
    await server.deps.channels.stop(whatsappId);
    try {
      const failed = eventWhere<{ action: string; message: Message }>(
        socket,
        companyEvent.appMessage(t.companyId),
        (e) => e.action === 'update' && e.message.body === 'Vai falhar' && e.message.sendStatus === 'failed',
        10_000,
      );
      const [created] = await send({ body: 'Vai falhar' });
      expect(created.sendStatus).toBe('pending');
      expect((await failed).message.id).toBe(created.id);
      expect((await failed).message.sendError).toBe('ERR_WAPP_NOT_INITIALIZED');
      expect(await messageById(created.id)).toMatchObject({ sendStatus: 'failed', ack: 0 });
      expect((await phoneOf(server, t.admin, whatsappId, NUMBER)).map((m) => m.body)).not.toContain('Vai falhar');
    } finally {
      await server.deps.channels.start(t.companyId, whatsappId);
    }
    expect((await call(t.admin, 'GET', `/whatsapp/${whatsappId}`)).json().status).toBe('CONNECTED');
    // It failed because the connection was down: once it is back, the reply leaves, once.
    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (list) => list.some((m) => m.body === 'Vai falhar'),
    );
    expect(phone.filter((m) => m.body === 'Vai falhar')).toHaveLength(1);
  });
});

describe('sending a file list (beyond the spec, DOMAIN §15)', () => {
  const PDF = Buffer.from('%PDF-1.4 tabela de preços');

  /** A file list of `session`'s company whose options got `files` (the last options may stay without one). */
  async function fileList(
    session: Session,
    message: string,
    options: string[],
    files: { name: string; data: Buffer }[],
  ) {
    const created = await call(session, 'POST', '/files', {
      name: `Arquivos ${Math.random().toString(36).slice(2, 8)}`,
      message,
      options: options.map((name) => ({ name })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const list = created.json() as { id: number; options: { id: number; path: string | null }[] };
    if (files.length === 0) return list;
    const form = new FormData();
    files.forEach((f, i) => {
      form.append('files', new Blob([new Uint8Array(f.data)]), f.name);
      form.append('id', String(list.options[i].id));
    });
    const request = new Request('http://local/', { method: 'POST', body: form });
    const uploaded = await server.app.inject({
      method: 'POST',
      url: `/files/uploadList/${list.id}`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { ...session.headers, 'content-type': request.headers.get('content-type') as string },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    return uploaded.json() as typeof list;
  }

  it("sends the list's message, then its files in order, as the agent's messages that reach the phone", async () => {
    const list = await fileList(
      t.admin,
      'Olá {{firstName}}, seguem nossos arquivos',
      ['Foto da loja', 'Tabela', 'Ainda sem arquivo'],
      [
        { name: 'loja.png', data: PNG },
        { name: 'tabela.pdf', data: PDF },
      ],
    );
    const res = await call(t.admin, 'POST', `/messages/${ticketId}/file-list/${list.id}`);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Message[];
    expect(created.map((m) => [m.body, m.mediaType, m.mediaName, m.fromMe, m.sendStatus])).toEqual([
      ['Olá Marta, seguem nossos arquivos', 'chat', null, true, 'pending'],
      ['', 'image', 'loja.png', true, 'pending'],
      ['', 'application', 'tabela.pdf', true, 'pending'],
    ]);
    // The ticket keeps copies: the list's files are not the ticket's.
    expect(created[1].mediaUrl).toMatch(new RegExp(`^/media/${t.companyId}/[0-9a-f-]{36}\\.png$`));
    expect(list.options.map((o) => o.path)).not.toContain(created[1].mediaUrl);

    const phone = await waitUntil(
      () => phoneOf(server, t.admin, whatsappId, NUMBER),
      (all) => all.some((m) => m.media?.fileName === 'tabela.pdf'),
    );
    const tail = phone.slice(phone.findIndex((m) => m.body === 'Olá Marta, seguem nossos arquivos'));
    expect(tail.map((m) => [m.body, m.media?.fileName ?? null, m.sends])).toEqual([
      ['Olá Marta, seguem nossos arquivos', null, 1],
      ['', 'loja.png', 1],
      ['', 'tabela.pdf', 1],
    ]);
    for (const m of created)
      await waitUntil(
        () => messageById(m.id),
        (s) => s.sendStatus === 'sent',
      );

    // Deleting the list deletes its files, not the ticket's history.
    expect((await call(t.admin, 'DELETE', `/files/${list.id}`)).statusCode).toBe(200);
    const kept = await server.app.inject({
      method: 'GET',
      url: created[1].mediaUrl as string,
      headers: t.admin.headers,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.equals(PNG)).toBe(true);
  });

  it("refuses another company's list, a list without files and a ticket the caller may not see, storing nothing", async () => {
    const before = (await page()).count;
    const foreign = await fileList(other.admin, 'De outra empresa', ['Arquivo'], [{ name: 'x.png', data: PNG }]);
    const refused = await call(t.admin, 'POST', `/messages/${ticketId}/file-list/${foreign.id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe('ERR_NO_FILE_LIST_FOUND');
    expect(refused.body).not.toContain('De outra empresa');

    const empty = await fileList(t.admin, 'Sem arquivos', ['Vazio'], []);
    const nothing = await call(t.admin, 'POST', `/messages/${ticketId}/file-list/${empty.id}`);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error).toBe('ERR_VALIDATION');

    const own = await fileList(t.admin, 'Da empresa', ['Arquivo'], [{ name: 'y.png', data: PNG }]);
    const outsideQueues = await call(t.user, 'POST', `/messages/${ticketId}/file-list/${own.id}`);
    expect(outsideQueues.statusCode).toBe(403);
    expect(outsideQueues.json().error).toBe('ERR_NO_PERMISSION');
    const otherCompany = await call(other.admin, 'POST', `/messages/${ticketId}/file-list/${foreign.id}`);
    expect(otherCompany.statusCode).toBe(404);
    expect(otherCompany.json().error).toBe('ERR_NO_TICKET_FOUND');
    expect((await page()).count).toBe(before);
  });
});
