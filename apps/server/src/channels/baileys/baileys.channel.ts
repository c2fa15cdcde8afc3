import type { Readable } from 'node:stream';
import makeWASocket, {
  type AnyMessageContent,
  type BaileysEventMap,
  BufferJSON,
  DisconnectReason,
  downloadMediaMessage,
  type GroupMetadata,
  makeCacheableSignalKeyStore,
  proto,
  type UserFacingSocketConfig,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import { and, eq, lt } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.js';
import {
  type Channel,
  type ConnectionUpdate,
  failsAs,
  type OutboundFile,
  OWNED_ELSEWHERE,
  type SendOptions,
  type SentRef,
} from '../channel.js';
import type { ChannelContext } from '../manager.js';
import { type DbAuthState, loadAuthState } from './auth-state.js';
import { mapMessage } from './baileys.inbound.js';
import { baileysSent } from './baileys.schema.js';
import { BoundedCache } from './bounded-cache.js';
import { userOf } from './identity.js';
import { downloadPicture, hasNoPicture } from './profile-picture.js';
import { replyJids } from './reply-jids.js';
import { acquireSocketLock, type SocketLock } from './socket-lock.js';
import { findFfmpeg, toOggOpus } from './voice-note.js';
import { currentWaVersion } from './wa-version.js';

/** What the channel uses of a Baileys socket: tests hand in a fake with Baileys' own event buffer. */
export type BaileysSocket = Pick<
  WASocket,
  | 'ev'
  | 'user'
  | 'sendMessage'
  | 'readMessages'
  | 'onWhatsApp'
  | 'groupMetadata'
  | 'logout'
  | 'end'
  | 'requestPairingCode'
  | 'updateMediaMessage'
  | 'rejectCall'
  | 'profilePictureUrl'
>;

export interface BaileysOptions {
  /** Baileys' makeWASocket unless a test injects a fake. */
  makeSocket?: (config: UserFacingSocketConfig) => BaileysSocket;
  /** Media bytes of a received message; Baileys' downloadMediaMessage unless injected. */
  downloadMedia?: (msg: WAMessage, sock: BaileysSocket) => Promise<Buffer | Readable>;
  /** QR codes shown before giving up (DISCONNECTED) until someone starts the session again. */
  maxQrCodes?: number;
  /** Reconnection after an unexpected close: exponential from baseMs, capped, with jitter. */
  backoff?: { baseMs?: number; maxMs?: number; maxAttempts?: number };
  /** Pause between two sends of one connection, picked in [min, max] ms. */
  sendGapMs?: { min: number; max: number };
  /** Path of ffmpeg for voice notes; null: none; unset: looked up on PATH. */
  ffmpeg?: string | null;
  /** The WhatsApp Web version to announce; undefined keeps Baileys' own. Tests need no network. */
  waVersion?: () => Promise<WAVersion | undefined>;
  /** The bytes of a profile picture URL WhatsApp gave; an https download unless injected. */
  fetchPicture?: (url: string) => Promise<Buffer>;
}

export const MAX_QR_CODES = 5;
/** History syncs Baileys needs to learn who is who; turning them all off breaks LID sessions. */
export const IDENTITY_SYNCS: ReadonlySet<number> = new Set([
  proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
  proto.HistorySync.HistorySyncType.PUSH_NAME,
  proto.HistorySync.HistorySyncType.NON_BLOCKING_DATA,
]);
const BACKOFF = { baseMs: 2_000, maxMs: 120_000, maxAttempts: 12 };
const SEND_GAP_MS = { min: 150, max: 400 };
/** How long sent messages stay available to `getMessage` (retries happen within minutes). */
const SENT_KEEP_MS = 24 * 3_600_000;
const PICTURE_QUERY_MS = 10_000;

type Row = { id: number; companyId: number; providerConfig: Record<string, unknown> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Baileys closes with a Boom error whose status code is the DisconnectReason. */
const statusCodeOf = (err: unknown) => (err as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
const encode = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);
const looksLikeGroup = (to: string) => /^\d+-\d+$/.test(to) || /^120363\d{6,}$/.test(to);

/**
 * A real phone through Baileys (provider `beta`): the socket lives while this instance holds the
 * connection's advisory lock; the session is in the database; the status follows the socket
 * (QR codes, pairing code, reconnection by disconnect reason with backoff).
 */
export function createBaileysChannel(row: Row, ctx: ChannelContext, opts: BaileysOptions = {}): Channel {
  const { companyId, id: whatsappId } = row;
  const base = { companyId, whatsappId };
  const makeSocket = opts.makeSocket ?? ((config) => makeWASocket(config));
  const maxQr = opts.maxQrCodes ?? MAX_QR_CODES;
  const backoff = { ...BACKOFF, ...opts.backoff };
  const gap = opts.sendGapMs ?? SEND_GAP_MS;
  const ffmpeg = opts.ffmpeg === undefined ? findFfmpeg() : opts.ffmpeg;
  const pairingNumber = String(row.providerConfig.pairingNumber ?? '').replace(/\D/g, '');
  const log = ctx.log.child({ whatsappId, provider: 'beta' });
  // Baileys logs a lot at info: only its warnings reach the server log.
  const baileysLog = log.child({}, { level: log.levelVal > 40 ? log.level : 'warn' }) as unknown as NonNullable<
    UserFacingSocketConfig['logger']
  >;

  // Everything kept in memory is bounded (size and age): no unbounded message store.
  const retryCounters = new BoundedCache(1_000, 3_600_000);
  const groups = new BoundedCache<GroupMetadata>(500, 600_000);
  const lidContacts = replyJids(ctx.db, whatsappId);
  const checked = new BoundedCache<string>(5_000, 86_400_000);
  const callers = new BoundedCache<string>(200, 600_000);
  const sentHere = new BoundedCache<true>(1_000, 600_000);

  let sock: BaileysSocket | undefined;
  let version: WAVersion | undefined;
  let auth: DbAuthState | undefined;
  let lock: SocketLock | null = null;
  let running = false;
  let open = false;
  let generation = 0;
  let qrCodes = 0;
  let attempts = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let sendTail: Promise<unknown> = Promise.resolve();
  let eventTail: Promise<unknown> = Promise.resolve();

  const update = (status: ConnectionUpdate['status'], extra: Partial<ConnectionUpdate> = {}) =>
    ctx.events.connection({ ...base, status, qrcode: '', ...extra });

  /** Closes the socket and lets go of the connection; the status is the caller's business. */
  async function shutdown() {
    running = false;
    open = false;
    generation += 1;
    clearTimeout(retryTimer);
    const current = sock;
    sock = undefined;
    await current?.end(undefined)?.catch(() => undefined);
    await lock?.release();
    lock = null;
  }

  async function giveUp(reason: string) {
    log.warn({ reason }, 'baileys connection given up');
    await shutdown();
    await update('DISCONNECTED');
  }

  function connect() {
    if (!running || !auth) return;
    const mine = ++generation;
    const state = auth.state;
    const s = makeSocket({
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, baileysLog) },
      logger: baileysLog,
      markOnlineOnConnect: false,
      ...(version ? { version } : {}),
      // Our own sends are not echoed back as messages: the send job stores them.
      emitOwnEvents: false,
      syncFullHistory: false,
      // Only the syncs that carry identities (LID ↔ phone mappings, push names); never the chat
      // history, which is not stored here anyway ('messaging-history.set' has no listener).
      shouldSyncHistoryMessage: ({ syncType }) => IDENTITY_SYNCS.has(syncType ?? -1),
      msgRetryCounterCache: retryCounters,
      getMessage,
      cachedGroupMetadata: async (jid) => groups.get(jid),
    });
    sock = s;
    let pairingAsked = false;
    // One batch of events at a time, in order: messages reach the pipeline as they came.
    s.ev.process((events: Partial<BaileysEventMap>) => {
      eventTail = eventTail.then(() => handle(events)).catch((err) => log.error({ err }, 'baileys events failed'));
    });
    const handle = async (events: Partial<BaileysEventMap>) => {
      if (mine !== generation) return;
      const guard = async (what: string, run: () => Promise<void>) => {
        try {
          await run();
        } catch (err) {
          log.error({ err }, `baileys ${what} failed`);
        }
      };
      const creds = events['creds.update'];
      if (creds && auth) {
        const current = auth;
        await guard('creds', async () => {
          Object.assign(current.state.creds, creds);
          await current.saveCreds();
        });
      }
      const connection = events['connection.update'];
      if (connection)
        await guard('connection', async () => {
          if (connection.qr) {
            qrCodes += 1;
            if (qrCodes > maxQr) return giveUp('QR code not scanned');
            if (!pairingNumber) return update('qrcode', { qrcode: connection.qr });
            if (pairingAsked) return;
            pairingAsked = true;
            // The phone types this code under "Link with phone number": the status shows it.
            const code = await s.requestPairingCode(pairingNumber);
            return update('PAIRING', { qrcode: code });
          }
          if (connection.connection === 'open') {
            open = true;
            qrCodes = 0;
            attempts = 0;
            await update('CONNECTED', { number: userOf(s.user?.id), retries: 0 });
          }
          if (connection.connection === 'close') {
            open = false;
            await closed(statusCodeOf(connection.lastDisconnect?.error));
          }
        });
      const upsert = events['messages.upsert'];
      if (upsert) await guard('messages.upsert', () => receive(upsert.messages, upsert.type, s));
      const updates = events['messages.update'];
      if (updates) await guard('messages.update', () => acks(updates));
      const calls = events.call;
      if (calls) await guard('call', () => ring(calls));
    };
  }

  async function closed(code: number | undefined) {
    if (!running) return;
    if (code === DisconnectReason.loggedOut) {
      log.info('baileys session logged out from the phone: new QR code');
      await auth?.wipe();
      qrCodes = 0;
      attempts = 0;
      await update('OPENING');
      return connect();
    }
    if (code === DisconnectReason.restartRequired) return connect();
    if (code === DisconnectReason.connectionReplaced) {
      log.error({ alert: true }, 'baileys session replaced by another client: connection stopped');
      await shutdown();
      return update('DISCONNECTED');
    }
    attempts += 1;
    if (attempts > backoff.maxAttempts) return giveUp(`closed ${code}, reconnection attempts spent`);
    const exp = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempts - 1));
    const delay = Math.round(exp / 2 + (Math.random() * exp) / 2);
    log.warn({ code, attempt: attempts, delay }, 'baileys connection closed: reconnecting');
    await update('OPENING', { retries: attempts });
    retryTimer = setTimeout(connect, delay);
  }

  async function getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    const [stored] = await ctx.db
      .select({ data: baileysSent.data })
      .from(baileysSent)
      .where(and(eq(baileysSent.whatsappId, whatsappId), eq(baileysSent.providerId, key.id)));
    return stored ? (JSON.parse(stored.data, BufferJSON.reviver) as proto.IMessage) : undefined;
  }

  async function groupName(jid: string) {
    const cached = groups.get(jid);
    if (cached) return cached.subject;
    try {
      const meta = await (sock as BaileysSocket).groupMetadata(jid);
      groups.set(jid, meta);
      return meta.subject;
    } catch (err) {
      log.debug({ err }, 'group metadata unavailable');
      return undefined;
    }
  }

  async function receive(list: WAMessage[], type: 'notify' | 'append', s: BaileysSocket) {
    // Handed to the pipeline in order without waiting for each: a burst is stored in shared batches.
    const handed: Promise<void>[] = [];
    for (const msg of list) {
      // `append` carries history; of it only what the phone itself sent belongs in the chat.
      if (type === 'append' && !msg.key.fromMe) continue;
      if (msg.key.id && sentHere.get(msg.key.id)) continue;
      try {
        const mapped = await mapMessage(msg, base, {
          groupName,
          download: (m) =>
            opts.downloadMedia
              ? opts.downloadMedia(m, s)
              : downloadMediaMessage(m, 'stream', {}, { logger: baileysLog, reuploadRequest: s.updateMediaMessage }),
        });
        if (mapped.kind === 'revision') await ctx.events.revision(mapped.revision);
        if (mapped.kind !== 'message') continue;
        const jid = msg.key.remoteJid as string;
        // The chat's picture: the contact's, or the group's for a group message.
        const m = { ...mapped.message, picture: () => pictureOf(jid) };
        if (!m.isGroup && m.number === m.lid) await lidContacts.remember(m.number, jid);
        handed.push(
          ctx.events
            .inbound(m)
            .catch((err) => log.error({ err, providerId: msg.key.id }, 'baileys inbound message failed')),
        );
      } catch (err) {
        log.error({ err, providerId: msg.key.id }, 'baileys inbound message failed');
      }
    }
    await Promise.all(handed);
  }

  async function acks(updates: WAMessageUpdate[]) {
    for (const { key, update: change } of updates) {
      const status = change.status;
      if (!key.fromMe || !key.id || status === undefined || status === null) continue;
      // SERVER_ACK 2 → 1 sent, DELIVERY_ACK 3 → 2 received, READ 4 → 3, PLAYED 5 → 4.
      if (status < proto.WebMessageInfo.Status.SERVER_ACK) continue;
      await ctx.events.ack({ ...base, providerId: key.id, ack: Math.min(4, status - 1) });
    }
  }

  async function ring(calls: WACallEvent[]) {
    for (const c of calls) {
      if (c.status !== 'offer') continue;
      const from = userOf(c.callerPn) ?? userOf(c.from);
      if (!from) continue;
      callers.set(c.id, c.from);
      await ctx.events.call({ ...base, callId: c.id, from });
    }
  }

  /** Asked only when the pipeline finds the contact due (DOMAIN §1.4): at most daily per contact. */
  async function pictureOf(jid: string): Promise<Buffer | null> {
    let url: string | undefined;
    try {
      // 'image' is the full picture (640 px); 'preview' (96 px) would blur in the contact drawer.
      url = await ready().profilePictureUrl(jid, 'image', PICTURE_QUERY_MS);
    } catch (err) {
      if (hasNoPicture(err)) return null;
      throw err;
    }
    if (!url) return null;
    return (opts.fetchPicture ?? downloadPicture)(url);
  }

  const ready = (): BaileysSocket => {
    if (!sock || !open) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return sock;
  };

  const jidFor = async (to: string) =>
    (await lidContacts.lookup(to)) ?? (looksLikeGroup(to) ? `${to}@g.us` : `${to.replace(/\D/g, '')}@s.whatsapp.net`);

  /** A phone number we never heard from must exist on WhatsApp: else a permanent send failure. */
  async function recipient(to: string): Promise<string> {
    const jid = await jidFor(to);
    if (!jid.endsWith('@s.whatsapp.net')) return jid;
    const known = checked.get(to);
    if (known) return known;
    const [found] = (await ready().onWhatsApp(jid).catch(failsAs('ERR_WAPP_CHECK_CONTACT'))) ?? [];
    if (!found?.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    checked.set(to, found.jid);
    return found.jid;
  }

  /** The message a reply quotes, rebuilt from the stored one (WhatsApp shows its text). */
  async function quotedOf(jid: string, providerId: string | undefined): Promise<WAMessage | undefined> {
    if (!providerId) return undefined;
    const q = await ctx.store.messageByProviderId(companyId, whatsappId, providerId);
    return {
      key: {
        remoteJid: jid,
        id: providerId,
        fromMe: q?.fromMe ?? false,
        participant: q?.participant && jid.endsWith('@g.us') ? `${q.participant}@s.whatsapp.net` : undefined,
      },
      message: { conversation: q?.body ?? '' },
    };
  }

  /** One send at a time per connection, a short random pause between two: no bursts. */
  function serial<T>(run: () => Promise<T>): Promise<T> {
    const next = sendTail.then(run);
    sendTail = next.catch(() => undefined).then(() => sleep(gap.min + Math.random() * Math.max(0, gap.max - gap.min)));
    return next;
  }

  async function send(to: string, content: AnyMessageContent, sendOpts?: SendOptions): Promise<SentRef> {
    return serial(async () => {
      const jid = await recipient(to);
      const quoted = await quotedOf(jid, sendOpts?.quotedProviderId);
      const sent = await ready()
        .sendMessage(jid, content, { ...(quoted ? { quoted } : {}), messageId: sendOpts?.messageId })
        .catch(failsAs('ERR_SENDING_WAPP_MSG'));
      const providerId = sent?.key.id;
      if (!providerId) throw new AppError('ERR_SENDING_WAPP_MSG', {}, 'Baileys sent a message without an id');
      sentHere.set(providerId, true);
      if (sent.message) await keepForRetries(providerId, sent.message);
      return { providerId };
    });
  }

  async function keepForRetries(providerId: string, message: proto.IMessage) {
    await ctx.db
      .insert(baileysSent)
      .values({ whatsappId, providerId, data: encode(message) })
      .onConflictDoNothing();
    await ctx.db
      .delete(baileysSent)
      .where(
        and(eq(baileysSent.whatsappId, whatsappId), lt(baileysSent.createdAt, new Date(Date.now() - SENT_KEEP_MS))),
      );
  }

  async function mediaContent(file: OutboundFile, caption: string, ptt: boolean): Promise<AnyMessageContent> {
    const { data, mimetype, fileName } = file;
    if (mimetype.startsWith('image/')) return { image: data, mimetype, caption };
    if (mimetype.startsWith('video/')) return { video: data, mimetype, caption };
    if (mimetype.startsWith('audio/')) {
      if (ptt && ffmpeg) {
        try {
          return { audio: await toOggOpus(ffmpeg, data), mimetype: 'audio/ogg; codecs=opus', ptt: true };
        } catch (err) {
          log.warn({ err }, 'voice note conversion failed: sent as audio');
        }
      }
      return { audio: data, mimetype, ptt: false };
    }
    return { document: data, mimetype, fileName, caption };
  }

  return {
    async start() {
      if (running) return;
      lock = await acquireSocketLock(ctx.db, whatsappId, () => {
        log.error({ alert: true }, 'baileys socket lock lost: socket closed');
        lock = null;
        void shutdown();
      });
      if (!lock) {
        log.warn('baileys connection is owned by another server instance: no socket opened here');
        return OWNED_ELSEWHERE;
      }
      running = true;
      qrCodes = 0;
      attempts = 0;
      auth = await loadAuthState(ctx.db, whatsappId);
      await update('OPENING');
      version = await (opts.waVersion ?? currentWaVersion)();
      connect();
    },
    async stop() {
      await shutdown();
    },
    async logout() {
      const current = sock;
      // Our own logout closes the socket with loggedOut: that must not start a new session.
      running = false;
      await current?.logout().catch((err) => log.warn({ err }, 'baileys logout failed'));
      await (auth ?? (await loadAuthState(ctx.db, whatsappId))).wipe();
      await shutdown();
      await update('DISCONNECTED');
    },
    sendText: (to, body, sendOpts) => send(to, { text: body }, sendOpts),
    async sendMedia(to, file, caption, sendOpts) {
      return send(to, await mediaContent(file, caption, Boolean(sendOpts?.ptt)), sendOpts);
    },
    async deleteMessage(to, ref) {
      await serial(async () => {
        const jid = await jidFor(to);
        await ready().sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: ref.providerId } });
      });
    },
    async markRead(to, refs) {
      if (refs.length === 0) return;
      const jid = await jidFor(to);
      await ready().readMessages(refs.map((r) => ({ remoteJid: jid, id: r.providerId, fromMe: false })));
    },
    async checkNumber(number) {
      const digits = number.replace(/\D/g, '');
      if (!digits) return { exists: false };
      const [found] =
        (await ready().onWhatsApp(`${digits}@s.whatsapp.net`).catch(failsAs('ERR_WAPP_CHECK_CONTACT'))) ?? [];
      return found?.exists ? { exists: true, jid: found.jid } : { exists: false };
    },
    async rejectCall(callId, from) {
      await ready().rejectCall(callId, callers.get(callId) ?? (await jidFor(from)));
    },
  };
}
