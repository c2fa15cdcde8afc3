import { createHash } from 'node:crypto';

/**
 * A provider message id derived from what the message is (`seed`), the same on every attempt: a
 * send repeated after a crash is the same message to WhatsApp, which shows it once. The shape is
 * WhatsApp Web's (3EB0 + upper-case hex), which Baileys and the sandbox accept as given.
 */
export const stableMessageId = (seed: string) =>
  `3EB0${createHash('sha256').update(`balcao:${seed}`).digest('hex').slice(0, 18).toUpperCase()}`;
