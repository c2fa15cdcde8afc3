import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { waitUntil } from '../../../test/sandbox-helpers.js';
import { createChannelManager } from '../manager.js';
import type { BaileysOptions } from './baileys.channel.js';
import { baileysSent } from './baileys.schema.js';
import { type FakeWorld, fakeWorld } from './fake-socket.js';
import { betaBench } from './testing.js';

/** What an agent sends through a beta connection reaches the phone's socket, one message at a time. */

let server: TestServer;
let t: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server, { plan: { connections: 50 } });
});
afterAll(() => server?.close());
const bench = betaBench(
  () => server,
  () => t,
);
afterEach(() => bench.stopAll());

async function connected(opts: BaileysOptions = {}, world: FakeWorld = fakeWorld()) {
  const id = await bench.connection();
  const { channel } = await bench.channel(id, opts, world);
  await channel.start();
  world.last().emit('connection.update', { connection: 'open' });
  await waitUntil(
    () => bench.status(id),
    (s) => s.status === 'CONNECTED',
  );
  return { id, channel, world, sock: world.last() };
}

const file = (mimetype: string, fileName: string) => ({
  data: Buffer.from(`bytes of ${fileName}`),
  mimetype,
  fileName,
});

describe('sending', () => {
  it('a text goes to the phone-number jid and is kept for delivery retries (getMessage)', async () => {
    const { id, channel, sock } = await connected();
    const ref = await channel.sendText('5511933330001', 'Seu pedido saiu para entrega');
    expect(sock.sent).toMatchObject([
      { jid: '5511933330001@s.whatsapp.net', content: { text: 'Seu pedido saiu para entrega' } },
    ]);
    const kept = await sock.config.getMessage?.({ id: ref.providerId, remoteJid: '5511933330001@s.whatsapp.net' });
    expect(kept).toEqual({ conversation: 'Seu pedido saiu para entrega' });
    expect(await sock.config.getMessage?.({ id: 'UNKNOWN' })).toBeUndefined();
    const rows = await server.deps.database.db.select().from(baileysSent).where(eq(baileysSent.whatsappId, id));
    expect(rows.map((r) => r.providerId)).toEqual([ref.providerId]);
  });

  it('a send repeated after a crash asks WhatsApp for the same message id, so the contact sees one message', async () => {
    const { channel } = await connected();
    const first = await channel.sendText('5511933330002', 'Uma vez só', { messageId: '3EB0AAAABBBBCCCCDDDDEE' });
    const again = await channel.sendText('5511933330002', 'Uma vez só', { messageId: '3EB0AAAABBBBCCCCDDDDEE' });
    expect([first.providerId, again.providerId]).toEqual(['3EB0AAAABBBBCCCCDDDDEE', '3EB0AAAABBBBCCCCDDDDEE']);
  });

  it('a number that is not on WhatsApp fails for good (ERR_WAPP_INVALID_CONTACT), nothing is sent', async () => {
    const world = fakeWorld();
    world.missing.add('5511933330002');
    const { channel, sock } = await connected({}, world);
    await expect(channel.sendText('5511933330002', 'oi')).rejects.toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT' });
    expect(sock.sent).toEqual([]);
    expect(await channel.checkNumber('55 11 93333-0002')).toEqual({ exists: false });
    expect(await channel.checkNumber('5511933330003')).toEqual({
      exists: true,
      jid: '5511933330003@s.whatsapp.net',
    });
  });

  it("WhatsApp's own failures carry the spec's codes, the original error kept as the cause", async () => {
    const failing = (methods: Record<string, () => Promise<never>>) => {
      const world = fakeWorld();
      const make = world.make;
      world.make = (config) => Object.assign(make(config), methods);
      return world;
    };
    const timeout = new Error('Timed Out');
    const lookups = await connected({}, failing({ onWhatsApp: () => Promise.reject(timeout) }));
    await expect(lookups.channel.sendText('5511933330010', 'oi')).rejects.toMatchObject({
      code: 'ERR_WAPP_CHECK_CONTACT',
      cause: timeout,
    });
    await expect(lookups.channel.checkNumber('5511933330010')).rejects.toMatchObject({
      code: 'ERR_WAPP_CHECK_CONTACT',
    });

    const sends = await connected({}, failing({ sendMessage: () => Promise.reject(timeout) }));
    await expect(sends.channel.sendText('5511933330011', 'oi')).rejects.toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
      cause: timeout,
    });
  });

  it('before the phone is connected, sends fail with ERR_WAPP_NOT_INITIALIZED', async () => {
    const id = await bench.connection();
    const { channel } = await bench.channel(id);
    await expect(channel.sendText('5511933330004', 'oi')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await channel.start();
    await expect(channel.sendText('5511933330004', 'oi')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('a reply quotes the stored message; replies to LID-only contacts and groups go to their own jids', async () => {
    const { id, channel, sock } = await connected();
    await server.call('PUT', '/settings/CheckMsgIsGroup', t.admin, { value: 'disabled' });
    sock.emit('messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: '190000000000044@lid', id: 'IN-LID-1', fromMe: false },
          message: { conversation: 'tem em azul?' },
        },
        {
          key: {
            remoteJid: '120363000000000088@g.us',
            id: 'IN-G-1',
            fromMe: false,
            participant: '5511933330005@s.whatsapp.net',
          },
          message: { conversation: 'no grupo' },
        },
      ],
    });
    await waitUntil(
      async () =>
        (await server.call('GET', '/tickets?showAll=true&searchParam=190000000000044', t.admin)).json().tickets,
      (l: unknown[]) => l.length === 1,
    );
    await channel.sendText('190000000000044', 'Temos sim', { quotedProviderId: 'IN-LID-1' });
    await channel.sendText('120363000000000088', 'Olá grupo');
    expect(sock.sent[0]).toMatchObject({
      jid: '190000000000044@lid',
      content: { text: 'Temos sim' },
      quoted: { key: { id: 'IN-LID-1', fromMe: false }, message: { conversation: 'tem em azul?' } },
    });
    expect(sock.sent[1].jid).toBe('120363000000000088@g.us');

    // After a restart the LID-only contact is still answered on its LID.
    await channel.stop();
    const again = await bench.channel(id);
    await again.channel.start();
    again.world.last().emit('connection.update', { connection: 'open' });
    await waitUntil(
      () => bench.status(id),
      (s) => s.status === 'CONNECTED',
    );
    await again.channel.sendText('190000000000044', 'Ainda aqui');
    expect(again.world.last().sent[0].jid).toBe('190000000000044@lid');
  });

  it('media by mimetype, with caption and file name', async () => {
    const { channel, sock } = await connected();
    const to = '5511933330006';
    await channel.sendMedia(to, file('image/jpeg', 'foto.jpg'), 'legenda');
    await channel.sendMedia(to, file('video/mp4', 'video.mp4'), 'vídeo');
    await channel.sendMedia(to, file('application/pdf', 'boleto.pdf'), 'seu boleto');
    await channel.sendMedia(to, file('audio/mpeg', 'musica.mp3'), '');
    expect(sock.sent.map((s) => s.content)).toMatchObject([
      { image: Buffer.from('bytes of foto.jpg'), mimetype: 'image/jpeg', caption: 'legenda' },
      { video: Buffer.from('bytes of video.mp4'), caption: 'vídeo' },
      {
        document: Buffer.from('bytes of boleto.pdf'),
        fileName: 'boleto.pdf',
        mimetype: 'application/pdf',
        caption: 'seu boleto',
      },
      { audio: Buffer.from('bytes of musica.mp3'), mimetype: 'audio/mpeg', ptt: false },
    ]);
  });

  it('a voice note is converted to OGG/Opus by ffmpeg, or sent as plain audio without it', async () => {
    const without = await connected({ ffmpeg: null });
    await without.channel.sendMedia('5511933330007', file('audio/webm', 'gravacao.webm'), '', { ptt: true });
    expect(without.sock.sent[0].content).toMatchObject({
      audio: Buffer.from('bytes of gravacao.webm'),
      mimetype: 'audio/webm',
      ptt: false,
    });

    // A stand-in ffmpeg: reads the audio from stdin, writes "OggS" + its byte count to stdout.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-'));
    const ffmpeg = path.join(dir, 'ffmpeg');
    await writeFile(ffmpeg, '#!/bin/sh\nn=$(wc -c)\nprintf "OggS%s" "$n"\n');
    await chmod(ffmpeg, 0o755);
    const withIt = await connected({ ffmpeg });
    await withIt.channel.sendMedia('5511933330007', file('audio/webm', 'gravacao.webm'), '', { ptt: true });
    expect(withIt.sock.sent[0].content).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true });
    const audio = (withIt.sock.sent[0].content as { audio: Buffer }).audio.toString();
    expect(audio.replace(/\s/g, '')).toBe(`OggS${Buffer.from('bytes of gravacao.webm').length}`);
  });

  it('sends of one connection go one at a time, in order, with the configured gap', async () => {
    const world = fakeWorld();
    world.sendMs = 30;
    const { channel, sock } = await connected({ sendGapMs: { min: 80, max: 80 } }, world);
    await Promise.all(['um', 'dois', 'três'].map((body) => channel.sendText('5511933330008', body)));
    expect(sock.maxInFlight).toBe(1);
    expect(sock.sent.map((s) => (s.content as { text: string }).text)).toEqual(['um', 'dois', 'três']);
    for (let i = 1; i < sock.sent.length; i++)
      expect(sock.sent[i].at - sock.sent[i - 1].at).toBeGreaterThanOrEqual(105);
  });

  it('delete for everyone and read receipts', async () => {
    const { channel, sock, world } = await connected();
    const ref = await channel.sendText('5511933330009', 'errado');
    await channel.deleteMessage('5511933330009', ref);
    expect(sock.sent[1]).toMatchObject({
      jid: '5511933330009@s.whatsapp.net',
      content: { delete: { remoteJid: '5511933330009@s.whatsapp.net', fromMe: true, id: ref.providerId } },
    });
    await channel.markRead('5511933330009', [{ providerId: 'IN-1' }, { providerId: 'IN-2' }]);
    expect(world.last().reads).toEqual([
      [
        { remoteJid: '5511933330009@s.whatsapp.net', id: 'IN-1', fromMe: false },
        { remoteJid: '5511933330009@s.whatsapp.net', id: 'IN-2', fromMe: false },
      ],
    ]);
  });
});

describe('the channel manager', () => {
  it('starts beta connections with the options runtime passes', async () => {
    const id = await bench.connection();
    const world = fakeWorld();
    const manager = createChannelManager(
      {
        db: server.deps.database.db,
        storage: server.deps.storage,
        events: server.deps.channels.events,
        store: server.deps.channels.store,
        log: pino({ level: 'silent' }),
      },
      { sandboxEnabled: false, beta: { makeSocket: world.make, sendGapMs: { min: 0, max: 0 } } },
    );
    await manager.start(t.companyId, id);
    world.last().emit('connection.update', { qr: 'manager-qr' });
    await waitUntil(
      () => bench.status(id),
      (s) => s.qrcode === 'manager-qr',
    );
    await manager.stopAll();
    expect(world.last().ended).toBe(1);
  });
});
