import { companyEvent } from '@balcao/shared';
import type { WAMessage } from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
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
import { connectedSandbox, contactWrites, waitUntil } from '../../../test/sandbox-helpers.js';
import type { FakeSocket, FakeWorld } from '../../channels/baileys/fake-socket.js';
import { betaBench } from '../../channels/baileys/testing.js';
import { contacts } from './contacts.schema.js';

/**
 * Contacts' profile pictures (DOMAIN §1.4): asked of WhatsApp when the contact is new or due for its
 * daily refresh, off the inbound path; stored as our own copy (WhatsApp's URLs expire) that only the
 * company's members read; a failure keeps what we had.
 */

let server: TestServer;
let t: Tenant;
let other: Tenant;
let socket: Socket;
let world: FakeWorld;
let sock: FakeSocket;
/** The bytes behind each URL the fake WhatsApp gives; a URL without bytes fails to download. */
const cdn = new Map<string, Buffer>();
const downloads: string[] = [];

const bench = betaBench(
  () => server,
  () => t,
);

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
  socket = await connectSocket(server, t.user.token);
  const whatsappId = await bench.connection();
  const live = await bench.channel(whatsappId, {
    fetchPicture: async (url) => {
      downloads.push(url);
      const bytes = cdn.get(url);
      if (!bytes) throw new Error('download failed');
      return bytes;
    },
  });
  world = live.world;
  await live.channel.start();
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

/** A 640×640 JPEG as WhatsApp serves profile pictures, published at a fresh URL. */
let published = 0;
async function publish(jid: string, colour: string) {
  const url = `https://pps.whatsapp.net/v/t61/${++published}.jpg?oe=expires`;
  cdn.set(
    url,
    await sharp({ create: { width: 640, height: 640, channels: 3, background: colour } })
      .jpeg()
      .toBuffer(),
  );
  world.pictures.set(jid, url);
  return url;
}

let seq = 0;
function receive(jid: string, body: string, extra: Partial<WAMessage['key']> = {}) {
  const message: WAMessage = {
    key: { remoteJid: jid, fromMe: false, id: `3APIC${Date.now()}${++seq}`, ...extra },
    message: { conversation: body },
    pushName: 'Cliente',
    messageTimestamp: Math.floor(Date.now() / 1000),
  };
  sock.emit('messages.upsert', { messages: [message], type: 'notify' });
}

type ContactView = { id: number; number: string; profilePicUrl: string };
const contactOf = async (number: string) =>
  ((await server.call('GET', `/contacts?searchParam=${number}`, t.admin)).json().contacts as ContactView[]).find(
    (c) => c.number === number,
  );
/** The contact once `ok` holds (it exists, its picture changed…). */
const contactWhen = (number: string, ok: (c: ContactView) => boolean) =>
  waitUntil(
    () => contactOf(number),
    (c) => c !== undefined && ok(c),
  ) as Promise<ContactView>;
const lookupsOf = (jid: string) => sock.pictureLookups.filter((j) => j === jid).length;
/** The day has passed for this contact (the refresh is due again). */
const dayLater = (id: number) =>
  server.deps.database.db
    .update(contacts)
    .set({ profileRefreshedAt: new Date(Date.now() - 25 * 3_600_000) })
    .where(eq(contacts.id, id));
/** The old copy is removed right after the contact points at the new one. */
const gone = (url: string) =>
  waitUntil(
    async () => (await server.call('GET', url, t.admin)).statusCode,
    (status) => status === 404,
  );
/**
 * Pictures are fetched one at a time, in order: once a later contact's picture is in, every earlier
 * fetch has run. A new contact with a picture closes the queue.
 */
let closers = 0;
async function settle() {
  const number = `55119800${String(++closers).padStart(5, '0')}`;
  await publish(`${number}@s.whatsapp.net`, '#455a64');
  receive(`${number}@s.whatsapp.net`, 'fechando a fila');
  await contactWhen(number, (c) => c.profilePicUrl !== '');
}

describe('a contact’s WhatsApp picture', () => {
  const number = '5511970000001';
  const jid = `${number}@s.whatsapp.net`;
  let first: string;

  it('is fetched for a new contact and stored as our own copy, which only the company reads', async () => {
    await publish(jid, '#c62828');
    const updated = eventWhere<{ action: string; contact: ContactView }>(
      socket,
      companyEvent.contact(t.companyId),
      (e) => e.action === 'update' && e.contact.number === number && e.contact.profilePicUrl !== '',
    );
    receive(jid, 'oi');
    const contact = await contactWhen(number, (c) => c.profilePicUrl !== '');
    first = contact.profilePicUrl;
    expect(first).toMatch(new RegExp(`^/media/${t.companyId}/[0-9a-f-]{36}\\.jpg$`));
    expect((await updated).contact.profilePicUrl).toBe(first);
    expect(lookupsOf(jid)).toBe(1);

    const file = await server.call('GET', first, t.user);
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 256, 256]);
    expect((await server.call('GET', first, other.admin)).statusCode).toBe(404);
    expect((await server.call('GET', `/public${first.slice('/media'.length)}`)).statusCode).toBe(404);
    // The tickets list shows it too.
    const tickets = (await server.call('GET', `/tickets?showAll=true&searchParam=${number}`, t.admin)).json().tickets;
    expect(tickets[0].contact.profilePicUrl).toBe(first);
  });

  it('is not asked for again the same day, however many messages come', async () => {
    receive(jid, 'tudo bem?');
    receive(jid, 'alô');
    await settle();
    expect(lookupsOf(jid)).toBe(1);
    expect((await contactOf(number))?.profilePicUrl).toBe(first);
  });

  it('is asked for again the next day: a new picture replaces the old copy', async () => {
    const contact = (await contactOf(number)) as ContactView;
    await dayLater(contact.id);
    await publish(jid, '#1565c0');
    receive(jid, 'bom dia');
    const renewed = await contactWhen(number, (c) => c.profilePicUrl !== first);
    expect(renewed.profilePicUrl).toMatch(/^\/media\//);
    expect(lookupsOf(jid)).toBe(2);
    await gone(first);
    first = renewed.profilePicUrl;
  });

  it('a WhatsApp error or a failed download keeps the picture we had, and the next day tries again', async () => {
    const contact = (await contactOf(number)) as ContactView;
    await dayLater(contact.id);
    world.pictures.set(jid, new Error('timed out'));
    receive(jid, 'ainda aí?');
    await settle();
    expect(lookupsOf(jid)).toBe(3);

    await dayLater(contact.id);
    world.pictures.set(jid, 'https://pps.whatsapp.net/v/t61/gone.jpg');
    receive(jid, 'e agora?');
    await settle();
    expect(lookupsOf(jid)).toBe(4);
    expect(downloads).toContain('https://pps.whatsapp.net/v/t61/gone.jpg');
    expect((await contactOf(number))?.profilePicUrl).toBe(first);
    expect((await server.call('GET', first, t.admin)).statusCode).toBe(200);

    // The messages themselves were never held up.
    const tickets = (await server.call('GET', `/tickets?showAll=true&searchParam=${number}`, t.admin)).json().tickets;
    const messages = (await server.call('GET', `/messages/${tickets[0].id}`, t.admin)).json().messages;
    expect(messages.map((m: { body: string }) => m.body)).toEqual(
      expect.arrayContaining(['oi', 'bom dia', 'ainda aí?', 'e agora?']),
    );
  });

  it('a contact who removed or hides the picture shows initials again: our copy goes', async () => {
    const contact = (await contactOf(number)) as ContactView;
    await dayLater(contact.id);
    world.pictures.delete(jid);
    receive(jid, 'tirei a foto');
    await contactWhen(number, (c) => c.profilePicUrl === '');
    await gone(first);
  });

  it('a group’s picture is the group’s', async () => {
    // Groups are ignored by default (setting CheckMsgIsGroup).
    expect((await server.call('PUT', '/settings/CheckMsgIsGroup', t.admin, { value: 'disabled' })).statusCode).toBe(
      200,
    );
    const group = '120363000000000042@g.us';
    world.groups.set(group, 'Clientes VIP');
    await publish(group, '#2e7d32');
    receive(group, 'olá grupo', { participant: '5511970000002@s.whatsapp.net' });
    await contactWhen('120363000000000042', (c) => c.profilePicUrl !== '');
    expect(lookupsOf(group)).toBe(1);
  });
});

describe('the sandbox', () => {
  it('gives the picture the phone sends, and tolerates one that is not an image', async () => {
    const whatsappId = await connectedSandbox(server, t.admin);
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#ff8f00' } })
      .png()
      .toBuffer();
    await contactWrites(server, t.admin, whatsappId, {
      number: '5511970000100',
      body: 'oi do sandbox',
      profilePic: { base64: png.toString('base64') },
    });
    const contact = await contactWhen('5511970000100', (c) => c.profilePicUrl !== '');
    expect(contact.profilePicUrl).toMatch(/\.png$/);

    await contactWrites(server, t.admin, whatsappId, {
      number: '5511970000101',
      body: 'foto quebrada',
      profilePic: { base64: Buffer.from('not an image').toString('base64') },
    });
    await settle();
    expect((await contactOf('5511970000101'))?.profilePicUrl).toBe('');
  });
});
