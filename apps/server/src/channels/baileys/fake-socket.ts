import {
  type AnyMessageContent,
  type BaileysEventMap,
  type GroupMetadata,
  makeEventBuffer,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import pino from 'pino';
import type { BaileysSocket } from './baileys.channel.js';

/**
 * Tests only: a Baileys socket without a network. Its `ev` is Baileys' own event buffer, so
 * the channel subscribes exactly as it does to a real socket; every call is recorded.
 */
export interface FakeSocket {
  config: UserFacingSocketConfig;
  ev: ReturnType<typeof makeEventBuffer>;
  sent: { jid: string; content: AnyMessageContent; quoted?: WAMessage; at: number }[];
  reads: { remoteJid?: string | null; id?: string | null }[][];
  rejected: { callId: string; from: string }[];
  pairingRequests: string[];
  groupLookups: string[];
  /** The jids whose profile picture was asked for, in order. */
  pictureLookups: string[];
  ended: number;
  loggedOut: number;
  /** Sends in flight at once, at most (one-at-a-time check). */
  maxInFlight: number;
  emit<E extends keyof BaileysEventMap>(event: E, data: BaileysEventMap[E]): void;
}

export interface FakeWorld {
  sockets: FakeSocket[];
  make: (config: UserFacingSocketConfig) => BaileysSocket;
  /** Numbers (digits) that are not on WhatsApp. */
  missing: Set<string>;
  groups: Map<string, string>;
  /** Profile pictures by jid: the URL WhatsApp gives, or the error it answers; none answers 404 item-not-found. */
  pictures: Map<string, string | Error>;
  /** How long each send takes. */
  sendMs: number;
  last(): FakeSocket;
}

const silent = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function fakeWorld(): FakeWorld {
  let seq = 0;
  const world: FakeWorld = {
    sockets: [],
    missing: new Set(),
    groups: new Map(),
    pictures: new Map(),
    sendMs: 0,
    last: () => world.sockets[world.sockets.length - 1],
    make(config) {
      const ev = makeEventBuffer(silent as never);
      let inFlight = 0;
      const fake: FakeSocket = {
        config,
        ev,
        sent: [],
        reads: [],
        rejected: [],
        pairingRequests: [],
        groupLookups: [],
        pictureLookups: [],
        ended: 0,
        loggedOut: 0,
        maxInFlight: 0,
        emit: (event, data) => {
          ev.emit(event, data);
        },
      };
      const sock = {
        ev,
        user: { id: '5511900001111:7@s.whatsapp.net', name: 'Loja' },
        async sendMessage(
          jid: string,
          content: AnyMessageContent,
          options?: { quoted?: WAMessage; messageId?: string },
        ) {
          inFlight += 1;
          fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
          fake.sent.push({ jid, content, quoted: options?.quoted, at: Date.now() });
          await sleep(world.sendMs);
          inFlight -= 1;
          // Like Baileys: the id the sender chose, else a generated one.
          const id = options?.messageId ?? `3EB0FAKE${++seq}`;
          const text = (content as { text?: string }).text;
          return { key: { remoteJid: jid, fromMe: true, id }, message: text ? { conversation: text } : {} };
        },
        async readMessages(keys: { remoteJid?: string | null; id?: string | null }[]) {
          fake.reads.push(keys);
        },
        async onWhatsApp(...jids: string[]) {
          return jids.map((jid) => ({ jid, exists: !world.missing.has(jid.split('@')[0]) }));
        },
        async groupMetadata(jid: string) {
          fake.groupLookups.push(jid);
          const subject = world.groups.get(jid);
          if (!subject) throw new Error('not a group');
          return { id: jid, subject, participants: [] } as unknown as GroupMetadata;
        },
        async profilePictureUrl(jid: string) {
          fake.pictureLookups.push(jid);
          const picture = world.pictures.get(jid);
          if (picture instanceof Error) throw picture;
          // Like Baileys: WhatsApp's error node as a Boom error carrying its code.
          if (picture === undefined) throw Object.assign(new Error('item-not-found'), { data: 404 });
          return picture;
        },
        async logout() {
          fake.loggedOut += 1;
        },
        async end() {
          fake.ended += 1;
        },
        async requestPairingCode(phone: string) {
          fake.pairingRequests.push(phone);
          return 'ABCD1234';
        },
        async updateMediaMessage(m: WAMessage) {
          return m;
        },
        async rejectCall(callId: string, from: string) {
          fake.rejected.push({ callId, from });
        },
      };
      world.sockets.push(fake);
      return sock as unknown as BaileysSocket;
    },
  };
  return world;
}

/** A Boom-like error as Baileys closes a socket with it. */
export const closedWith = (statusCode: number) => ({
  connection: 'close' as const,
  lastDisconnect: { error: Object.assign(new Error('closed'), { output: { statusCode } }), date: new Date() },
});
