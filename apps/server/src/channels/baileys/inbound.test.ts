import { companyEvent } from '@balcao/shared';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import type { Channel } from '../channel.js';
import { mapMessage } from './baileys.inbound.js';
import type { FakeSocket, FakeWorld } from './fake-socket.js';
import { betaBench } from './testing.js';

/** What a beta connection receives ends up in the chat: contacts, tickets, messages, live events. */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GROUP = '120363000000000077@g.us';

let server: TestServer;
let t: Tenant;
let socket: Socket;
let whatsappId: number;
let channel: Channel;
let world: FakeWorld;
let sock: FakeSocket;
const downloads: string[] = [];
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  socket = await connectSocket(server, t.admin.token);
  whatsappId = await bench.connection();
  ({ channel, world } = await bench.channel(whatsappId, {
    downloadMedia: async (m) => {
      downloads.push(m.key.id ?? '');
      return PNG;
    },
  }));
  world.groups.set(GROUP, 'Equipe de Vendas');
  await channel.start();
  sock = world.last();
  sock.emit('connection.update', { connection: 'open' });
  await waitUntil(
    () => bench.status(whatsappId),
    (s) => s.status === 'CONNECTED',
  );
});
afterAll(async () => {
  socket?.close();
  await bench.stopAll();
  await server?.close();
});
const bench = betaBench(
  () => server,
  () => t,
);

type Ticket = { id: number; isGroup: boolean; unreadMessages: number; contact: { name: string; number: string } };
type Message = {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaUrl: string | null;
  participant: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  ack: number;
  quotedMsg: { body: string } | null;
};
const ticketsOf = async (number: string) =>
  (await server.call('GET', `/tickets?showAll=true&searchParam=${number}`, t.admin)).json().tickets as Ticket[];
const messagesOf = async (ticketId: number) =>
  (await server.call('GET', `/messages/${ticketId}`, t.admin)).json().messages as Message[];
/** The conversation of a number once it has `count` messages. */
async function chat(number: string, count = 1) {
  const [ticket] = await waitUntil(
    () => ticketsOf(number),
    (l) => l.length === 1,
  );
  const list = await waitUntil(
    () => messagesOf(ticket.id),
    (l) => l.length >= count,
  );
  return { ticket, messages: list };
}

let seq = 0;
function wa(
  from: string,
  message: proto.IMessage,
  key: Partial<WAMessage['key']> = {},
  extra: Partial<WAMessage> = {},
): WAMessage {
  return {
    key: { remoteJid: from, fromMe: false, id: `3A${Date.now()}${++seq}`, ...key },
    message,
    pushName: 'Maria Cliente',
    messageTimestamp: Math.floor(Date.now() / 1000),
    ...extra,
  };
}
const receive = (m: WAMessage, type: 'notify' | 'append' = 'notify') => {
  sock.emit('messages.upsert', { messages: [m], type });
  return m;
};
const created = (body: string) =>
  eventWhere<{ action: string; message: { body: string } }>(
    socket,
    companyEvent.appMessage(t.companyId),
    (e) => e.action === 'create' && e.message.body === body,
  );

describe('messages.upsert', () => {
  it('a text from a phone-number contact makes a contact, a pending ticket and a message, live', async () => {
    const live = created('Olá, preciso de ajuda');
    receive(wa('5511977770001@s.whatsapp.net', { conversation: 'Olá, preciso de ajuda' }));
    await live;
    const { ticket, messages } = await chat('5511977770001');
    expect(ticket.contact).toMatchObject({ name: 'Maria Cliente', number: '5511977770001' });
    expect(ticket.unreadMessages).toBe(1);
    expect(messages[0]).toMatchObject({ body: 'Olá, preciso de ajuda', fromMe: false, mediaType: 'chat' });
  });

  it('a LID sender with its phone number is filed under the phone number; without it, under the LID', async () => {
    receive(
      wa(
        '190000000000011@lid',
        { extendedTextMessage: { text: 'vim pelo LID' } },
        { remoteJidAlt: '5511977770002@s.whatsapp.net' },
      ),
    );
    expect((await chat('5511977770002')).messages[0].body).toBe('vim pelo LID');
    receive(wa('190000000000012@lid', { conversation: 'só LID' }));
    expect((await chat('190000000000012')).messages[0].body).toBe('só LID');
  });

  it('a group message goes to the group’s ticket, named after the group, with its participant', async () => {
    // Groups are ignored by default (setting CheckMsgIsGroup).
    expect((await server.call('PUT', '/settings/CheckMsgIsGroup', t.admin, { value: 'disabled' })).statusCode).toBe(
      200,
    );
    receive(
      wa(
        GROUP,
        { conversation: 'bom dia grupo' },
        { participant: '190000000000013@lid', participantAlt: '5511977770003@s.whatsapp.net' },
      ),
    );
    receive(wa(GROUP, { conversation: 'segunda' }, { participant: '5511977770004@s.whatsapp.net' }));
    const { ticket, messages } = await chat('120363000000000077', 2);
    expect(ticket).toMatchObject({ isGroup: true, contact: { name: 'Equipe de Vendas' } });
    expect(messages.map((m) => [m.body, m.participant])).toEqual([
      ['bom dia grupo', '5511977770003'],
      ['segunda', '5511977770004'],
    ]);
    // The group's name is cached: one lookup for both messages.
    expect(sock.groupLookups).toEqual([GROUP]);
  });

  it('media is downloaded and stored; location and contact cards become readable bodies', async () => {
    const from = '5511977770005@s.whatsapp.net';
    const photo = receive(wa(from, { imageMessage: { mimetype: 'image/png', caption: 'a foto' } }));
    await chat('5511977770005', 1);
    receive(
      wa(from, {
        locationMessage: {
          degreesLatitude: -23.5,
          degreesLongitude: -46.6,
          name: 'Loja | Centro',
          address: 'Rua A, 1',
          jpegThumbnail: new Uint8Array([0xff, 0xd8, 0xff]),
        },
      }),
    );
    await chat('5511977770005', 2);
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511900000009:+55 11 90000-0009\nEND:VCARD';
    receive(wa(from, { contactMessage: { displayName: 'João', vcard } }));
    receive(wa(from, { stickerMessage: { mimetype: 'image/webp' } }));
    const { messages } = await chat('5511977770005', 4);
    expect(downloads).toContain(photo.key.id);
    expect(messages[0]).toMatchObject({ body: 'a foto', mediaType: 'image' });
    expect(messages[0].mediaUrl).toMatch(/^\/media\/.+\.png$/);
    const media = await server.app.inject({
      method: 'GET',
      url: messages[0].mediaUrl as string,
      headers: t.admin.headers,
    });
    expect(media.rawPayload).toEqual(PNG);
    // The spec's `image|link|description`: no inlined thumbnail, the map link, a pipe-free description.
    expect(messages[1]).toMatchObject({
      mediaType: 'locationMessage',
      body: '|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Loja / Centro, Rua A, 1',
    });
    expect(messages[2]).toMatchObject({ mediaType: 'vcard', body: vcard });
    expect(messages[3]).toMatchObject({ mediaType: 'image' });
  });

  it('a redelivered media message is not downloaded again', async () => {
    const from = '5511977770015@s.whatsapp.net';
    const photo = receive(wa(from, { imageMessage: { mimetype: 'image/png', caption: 'uma vez' } }));
    await chat('5511977770015', 1);
    receive(photo);
    receive(wa(from, { conversation: 'depois da foto' }));
    const { messages } = await chat('5511977770015', 2);
    expect(messages.map((m) => m.body)).toEqual(['uma vez', 'depois da foto']);
    expect(downloads.filter((id) => id === photo.key.id)).toHaveLength(1);
  });

  it('a reply quotes the stored message', async () => {
    const from = '5511977770006@s.whatsapp.net';
    const first = receive(wa(from, { conversation: 'qual o preço?' }));
    await chat('5511977770006', 1);
    receive(wa(from, { extendedTextMessage: { text: 'e o frete?', contextInfo: { stanzaId: first.key.id } } }));
    const { messages } = await chat('5511977770006', 2);
    expect(messages[1]).toMatchObject({ body: 'e o frete?', quotedMsg: { body: 'qual o preço?' } });
  });

  it('what the phone itself sent (append, fromMe) is stored as ours; status, reactions and history are not', async () => {
    const from = '5511977770007@s.whatsapp.net';
    receive(wa('status@broadcast', { conversation: 'meu status' }, { participant: from }));
    receive(wa(from, { reactionMessage: { key: { id: 'x' }, text: '👍' } }));
    receive(wa(from, { conversation: 'histórico antigo' }), 'append');
    receive(wa(from, { conversation: 'respondi pelo celular' }, { fromMe: true }), 'append');
    const { messages } = await chat('5511977770007', 1);
    await new Promise((r) => setTimeout(r, 200));
    expect((await messagesOf((await ticketsOf('5511977770007'))[0].id)).map((m) => [m.body, m.fromMe])).toEqual([
      ['respondi pelo celular', true],
    ]);
    expect(messages).toHaveLength(1);
    expect(await ticketsOf('status')).toEqual([]);
  });

  it('a message deleted for everyone or edited by the contact changes in the chat, live', async () => {
    const from = '5511977770008@s.whatsapp.net';
    const original = receive(wa(from, { conversation: 'texto com erro' }));
    const other = receive(wa(from, { conversation: 'vou apagar' }));
    const { ticket } = await chat('5511977770008', 2);

    const edited = eventWhere<{ action: string; message: { body: string; isEdited: boolean } }>(
      socket,
      companyEvent.appMessage(t.companyId),
      (e) => e.action === 'update' && e.message.isEdited,
    );
    receive(
      wa(from, {
        editedMessage: {
          message: {
            protocolMessage: {
              key: original.key,
              type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
              editedMessage: { conversation: 'texto corrigido' },
            },
          },
        },
      }),
    );
    expect((await edited).message.body).toBe('texto corrigido');
    receive(wa(from, { protocolMessage: { key: other.key, type: proto.Message.ProtocolMessage.Type.REVOKE } }));
    const list = await waitUntil(
      () => messagesOf(ticket.id),
      (l) => l.some((m) => m.isDeleted),
    );
    expect(list.map((m) => [m.body, m.isEdited, m.isDeleted])).toEqual([
      ['texto corrigido', true, false],
      ['', false, true],
    ]);
  });
});

describe('receipts and calls', () => {
  it('messages.update moves our message’s ack forward (delivered 2, read 3)', async () => {
    const from = '5511977770009@s.whatsapp.net';
    const ours = receive(wa(from, { conversation: 'enviado pelo celular' }, { fromMe: true }), 'append');
    const { ticket } = await chat('5511977770009', 1);
    sock.emit('messages.update', [{ key: ours.key, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } }]);
    await waitUntil(
      () => messagesOf(ticket.id),
      (l) => l[0].ack === 2,
    );
    sock.emit('messages.update', [{ key: ours.key, update: { status: proto.WebMessageInfo.Status.READ } }]);
    await waitUntil(
      () => messagesOf(ticket.id),
      (l) => l[0].ack === 3,
    );
  });

  it('an incoming call offer reaches the call event with the caller’s number', async () => {
    sock.emit('call', [
      {
        chatId: '190000000000020@lid',
        from: '190000000000020@lid',
        callerPn: '5511977770010@s.whatsapp.net',
        id: 'CALL-1',
        date: new Date(),
        status: 'offer',
        offline: false,
      },
      { chatId: 'x@lid', from: 'x@lid', id: 'CALL-1', date: new Date(), status: 'terminate', offline: false },
    ]);
    await waitUntil(
      async () => bench.calls.length,
      (n) => n === 1,
    );
    expect(bench.calls[0]).toMatchObject({ whatsappId, callId: 'CALL-1', from: '5511977770010' });
    await channel.rejectCall?.('CALL-1', '5511977770010');
    expect(sock.rejected).toEqual([{ callId: 'CALL-1', from: '190000000000020@lid' }]);
  });
});

describe('mapMessage identity', () => {
  const base = { companyId: 1, whatsappId: 2 };
  const deps = { download: async () => Buffer.alloc(0), groupName: async () => undefined };
  it('carries the LID digits beside the phone number, and only for one-to-one chats', async () => {
    const withPn = await mapMessage(
      wa('190000000000030@lid', { conversation: 'a' }, { remoteJidAlt: '5511977770030@s.whatsapp.net' }),
      base,
      deps,
    );
    expect(withPn).toMatchObject({ kind: 'message', message: { number: '5511977770030', lid: '190000000000030' } });
    const pnFirst = await mapMessage(
      wa('5511977770031@s.whatsapp.net', { conversation: 'b' }, { remoteJidAlt: '190000000000031@lid' }),
      base,
      deps,
    );
    expect(pnFirst).toMatchObject({ message: { number: '5511977770031', lid: '190000000000031' } });
    const plain = await mapMessage(wa('5511977770032@s.whatsapp.net', { conversation: 'c' }), base, deps);
    expect(plain).toMatchObject({ kind: 'message', message: { number: '5511977770032' } });
    expect(plain.kind === 'message' && 'lid' in plain.message).toBe(false);
    const group = await mapMessage(
      wa(GROUP, { conversation: 'd' }, { participant: '190000000000033@lid' }),
      base,
      deps,
    );
    expect(group).toMatchObject({
      message: { number: '120363000000000077', isGroup: true, participant: '190000000000033' },
    });
    expect(group.kind === 'message' && 'lid' in group.message).toBe(false);
  });
});
