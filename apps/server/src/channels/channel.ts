import type { Readable } from 'node:stream';
import type { ConnectionStatus, MessageMediaType } from '@balcao/shared';
import { AppError } from '../platform/errors/app-error.js';

/** A reference to a message on the provider's side. */
export interface SentRef {
  providerId: string;
}

export interface OutboundFile {
  data: Buffer;
  fileName: string;
  mimetype: string;
}

/**
 * A received file: its bytes, or a way to download them that the pipeline calls only for a
 * message it has not stored before, streaming them to storage.
 */
export type InboundFile = Pick<OutboundFile, 'fileName' | 'mimetype'> &
  ({ data: Buffer } | { download: () => Promise<Buffer | Readable> });

export interface SendOptions {
  quotedProviderId?: string;
  /**
   * Our id for this message, the same on every attempt: a provider that lets the sender choose
   * the id (Baileys, the sandbox) uses it, so a send repeated after a crash is the same message
   * again, which WhatsApp shows once, not a second one.
   */
  messageId?: string;
  /** Voice note rather than an audio file. */
  ptt?: boolean;
}

/**
 * A `.catch` handler that reports a provider's own failure under the spec's code (a send that
 * failed, a number check that failed), keeping the original as its cause for the logs. Our own
 * errors (not connected, not on WhatsApp) pass through: they already say what happened.
 */
export const failsAs =
  (code: 'ERR_SENDING_WAPP_MSG' | 'ERR_WAPP_CHECK_CONTACT') =>
  (err: unknown): never => {
    throw err instanceof AppError ? err : Object.assign(new AppError(code), { cause: err });
  };

/** A connection as the channels see it: the fields of its stored row they use. */
export interface ConnectionRow {
  id: number;
  companyId: number;
  provider: string;
  providerConfig: Record<string, unknown>;
  /** The provider's own session state (the sandbox's pairing). */
  session: string;
}

/**
 * What the channels read and write of the rows the modules own (connections, stored messages).
 * The modules implement it and runtime.ts wires it in, so channels never import module code.
 */
export interface ChannelStore {
  /** The company's connection; ERR_NO_WAPP_FOUND for any other. */
  connection(companyId: number, whatsappId: number): Promise<ConnectionRow>;
  /** A connection by its id alone, for webhooks whose URL names it. */
  connectionById(whatsappId: number): Promise<ConnectionRow | undefined>;
  setSession(companyId: number, whatsappId: number, session: string): Promise<void>;
  /** A stored message of the connection by its provider id (what a reply quotes). */
  messageByProviderId(
    companyId: number,
    whatsappId: number,
    providerId: string,
  ): Promise<{ body: string; fromMe: boolean; participant: string | null } | undefined>;
}

/** What `start` resolves with when another server instance holds the connection's socket. */
export const OWNED_ELSEWHERE = 'owned-elsewhere';

/** What every provider implements (ARCHITECTURE §3). The pipeline never sees provider types. */
export interface Channel {
  // biome-ignore lint/suspicious/noConfusingVoidType: providers without a socket lock resolve nothing.
  start(): Promise<void | typeof OWNED_ELSEWHERE>;
  stop(): Promise<void>;
  logout(): Promise<void>;
  sendText(to: string, body: string, opts?: SendOptions): Promise<SentRef>;
  sendMedia(to: string, file: OutboundFile, caption: string, opts?: SendOptions): Promise<SentRef>;
  deleteMessage(to: string, ref: SentRef): Promise<void>;
  /** Read receipts for the contact's messages `refs`, oldest first. */
  markRead(to: string, refs: SentRef[]): Promise<void>;
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }>;
  rejectCall?(callId: string, from: string): Promise<void>;
  /** An approved message template (Cloud API only): what may reach a contact outside the 24-hour window. */
  sendTemplate?(to: string, template: MessageTemplate, opts?: SendOptions): Promise<SentRef>;
}

export interface MessageTemplate {
  name: string;
  /** The template's language code, e.g. `pt_BR`. */
  language: string;
  /** The body's `{{1}}`, `{{2}}`… in order. */
  variables: string[];
}

/** One inbound message in the internal shape `inbound/` consumes. */
export interface InboundMessage {
  companyId: number;
  whatsappId: number;
  providerId: string;
  /** Digits of the contact's phone (its LID digits while the phone is unknown), or the group id. */
  number: string;
  /** The contact's WhatsApp LID digits, when the provider knows them: merged on one contact. */
  lid?: string;
  pushName?: string;
  fromMe: boolean;
  body: string;
  mediaType: MessageMediaType;
  media?: InboundFile;
  quotedProviderId?: string;
  isGroup?: boolean;
  groupName?: string;
  /** Sender inside a group. */
  participant?: string;
  participantName?: string;
  timestamp?: Date;
  /**
   * The contact's (or group's) current profile picture, for providers that can show it: called only
   * when the pipeline finds the contact due for its daily refresh (DOMAIN §1.4), after the message is
   * stored. Null when there is none or WhatsApp hides it; rejects when it cannot tell.
   */
  picture?: () => Promise<Buffer | null>;
}

export interface Ack {
  companyId: number;
  whatsappId: number;
  providerId: string;
  ack: number;
}

export interface ConnectionUpdate {
  companyId: number;
  whatsappId: number;
  status: ConnectionStatus;
  qrcode?: string;
  number?: string;
  retries?: number;
}

/** A message the contact deleted for everyone or edited after sending it. */
export interface Revision {
  companyId: number;
  whatsappId: number;
  /** The provider id of the message that changed. */
  providerId: string;
  kind: 'delete' | 'edit';
  /** The new text of an edit. */
  body?: string;
}

export interface Call {
  companyId: number;
  whatsappId: number;
  callId: string;
  from: string;
}

/** Where providers report: implemented by the channel manager, which calls `inbound/`. */
export interface ChannelEvents {
  inbound(message: InboundMessage): Promise<void>;
  ack(ack: Ack): Promise<void>;
  connection(update: ConnectionUpdate): Promise<void>;
  call(call: Call): Promise<void>;
  /** Deletes and edits of received messages; providers that cannot see them never call it. */
  revision(revision: Revision): Promise<void>;
}
