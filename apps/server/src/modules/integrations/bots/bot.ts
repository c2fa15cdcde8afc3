import type { IntegrationType } from '@balcao/shared';

/**
 * What every queue-integration client (DOMAIN §17) speaks: one contact message in, the bot's
 * answer out. The runner (integrations.runner.ts) owns sessions, sending and control verbs; a
 * client only talks to its external service.
 */

/** An integration as a client needs it: secrets already decrypted. */
export interface BotIntegration {
  id: number;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  /** Dialogflow: the service-account JSON in clear ('' for the other types). */
  jsonContent: string;
  language: string;
  /** typebot / n8n / webhook: the address called. */
  url: string;
  typebotSlug: string;
  /** n8n / webhook: the HMAC-SHA256 key of the signature header. */
  signingSecret: string;
}

export interface BotMessage {
  /** Our message id (0 in a test session). */
  id: number;
  /** 'chat', 'image', 'audio', 'video', 'document', 'location', 'vcard'… */
  type: string;
  text: string;
  /** A signed, expiring URL of the message's file, when it has one. */
  mediaUrl?: string;
  transcript?: string;
}

export interface BotTurn {
  integration: BotIntegration;
  /** The external session id from the previous answer, null to start a new session. */
  sessionId: string | null;
  /** A unique id per call (n8n/webhook `deliveryId`, also the request's delivery header). */
  deliveryId: string;
  ticketId: number;
  contact: { number: string; name: string };
  message: BotMessage;
  /** The previous answer's `pendingChoices`: a contact answering with a number picks that label. */
  choices?: string[];
}

/** Something the contact receives. */
export type BotOutput =
  | { kind: 'text'; text: string }
  | { kind: 'media'; mediaType: 'image' | 'video' | 'audio' | 'document'; url: string; caption?: string }
  /** A pause before the next output (Typebot's wait action); the runner caps it. */
  | { kind: 'wait'; ms: number };

/** DOMAIN §17's control verbs, parsed but not yet validated against the company (the runner does). */
export type ControlVerb = { verb: 'transfer'; queueId: number } | { verb: 'handoff' } | { verb: 'close' };

export interface BotAnswer {
  outputs: BotOutput[];
  /** The session id to keep for the next message (null: none, or unchanged for stateless bots). */
  sessionId: string | null;
  actions: ControlVerb[];
  /** The bot says its flow is over (Typebot: no input awaited); the runner closes the session. */
  finished?: boolean;
  /** Typebot: the labels of the choice input now awaited, numbered from 1; pass them back as the next turn's `choices`. */
  pendingChoices?: string[];
}

/** A call that failed (timeout, refused address, non-2xx, unreadable answer). Never carries a secret. */
export class BotError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'BotError';
  }
}

export interface BotClient {
  /** Throws BotError when the service fails. */
  turn(turn: BotTurn): Promise<BotAnswer>;
}

/** Parses `transfer:{queueId}`, `handoff`, `close` (trimmed, case-insensitive); anything else is null. */
export function parseControlVerb(text: string): ControlVerb | null {
  const t = text.trim().toLowerCase();
  if (t === 'handoff') return { verb: 'handoff' };
  if (t === 'close') return { verb: 'close' };
  const m = /^transfer:(\d{1,9})$/.exec(t);
  return m ? { verb: 'transfer', queueId: Number(m[1]) } : null;
}
