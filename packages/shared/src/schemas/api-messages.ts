import { z } from 'zod';
import { NUMBER_LENGTH } from '../constants.js';
import { normalizeNumber } from '../phone.js';

/**
 * The external message API (DOMAIN §10): `POST /api/messages/send` and `GET /api/messages/{id}`,
 * authenticated by a connection's token (`Authorization: Bearer <token>`).
 */

/** Sends per connection token and minute; past it the API answers 429 ERR_TOO_MANY_REQUESTS. */
export const API_SEND_LIMIT_PER_MINUTE = 120;
/** State reads (`GET /api/messages/{id}`) per connection token and minute. */
export const API_STATUS_LIMIT_PER_MINUTE = 600;
/** How long an `Idempotency-Key` is remembered. */
export const API_IDEMPOTENCY_TTL_HOURS = 24;
/** The longest `Idempotency-Key` accepted. */
export const API_IDEMPOTENCY_KEY_MAX = 200;

/** What a caller may know of a message it sent. */
export const API_MESSAGE_STATES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type ApiMessageState = (typeof API_MESSAGE_STATES)[number];

/** Characters a phone number may be written with: digits and the usual separators, which are dropped. */
const NUMBER_CHARS = /^[\d\s+().-]+$/;
export const API_NUMBER_MESSAGE = 'Use only digits: country code, area code and number';

/**
 * The number to send to: digits only (country code, area code, number), normalised by the one
 * number rule of DOMAIN §12. Whether WhatsApp knows it is the connection's answer, not this schema's.
 */
export const apiNumberField = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .pipe(
    z
      .string()
      .trim()
      .min(1, API_NUMBER_MESSAGE)
      .max(NUMBER_LENGTH.max, API_NUMBER_MESSAGE)
      .regex(NUMBER_CHARS, API_NUMBER_MESSAGE)
      .transform(normalizeNumber)
      .pipe(z.string().min(1, API_NUMBER_MESSAGE)),
  );

/**
 * `POST /api/messages/send`: JSON `{number, body}`, or multipart/form-data with the same text fields and
 * the files under `medias` (several, sent in order; `body` goes with the first as its caption).
 */
export const apiMessageSendBody = z.object({
  number: apiNumberField.meta({
    description: 'Digits only: country code, area code and number',
    example: '5511999998888',
  }),
  body: z.string().max(65_536).default('').meta({ description: 'The text; with medias, the caption of the first' }),
  medias: z
    .array(z.string().meta({ format: 'binary' }))
    .optional()
    .meta({ description: 'multipart/form-data only: the files, sent in the order given' }),
});
export type ApiMessageSendBody = z.infer<typeof apiMessageSendBody>;

export const apiIdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .trim()
    .min(1)
    .max(API_IDEMPOTENCY_KEY_MAX)
    .optional()
    .meta({
      description: `A retried call with the same key returns the first result (kept ${API_IDEMPOTENCY_TTL_HOURS} h)`,
    }),
});

export const apiMessageSendReply = z.object({
  message: z.string(),
  /** The stored message (the first, with several medias). */
  id: z.number(),
  /** Every stored message, in the order sent. */
  ids: z.array(z.number()),
  ticketId: z.number(),
  contactId: z.number(),
  /** The number as stored, after normalisation (and WhatsApp's ninth-digit answer). */
  number: z.string(),
  status: z.enum(API_MESSAGE_STATES),
});
export type ApiMessageSendReply = z.infer<typeof apiMessageSendReply>;

export const apiMessageStatusReply = z.object({
  id: z.number(),
  ticketId: z.number(),
  status: z.enum(API_MESSAGE_STATES),
  /** WhatsApp's ticks: 0 none yet, 1 sent, 2 delivered, 3 read. */
  ack: z.number(),
  /** Why a failed message could not be sent (an ERR_* code). */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ApiMessageStatusReply = z.infer<typeof apiMessageStatusReply>;

/** The id of a stored message (a bigserial): digits, up to JavaScript's safe integers. */
export const apiMessageIdParam = z.object({
  id: z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v),
    z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  ),
});

/** The state shown for a stored outbound message. */
export function apiMessageState(m: { sendStatus: string; ack: number }): ApiMessageState {
  if (m.sendStatus === 'failed') return 'failed';
  if (m.sendStatus === 'pending' || m.sendStatus === 'sending') return 'pending';
  if (m.ack >= 3) return 'read';
  if (m.ack === 2) return 'delivered';
  return 'sent';
}

/** Spec part 2 §5: the test form sends media file names with their spaces replaced by underscores. */
export const apiMediaFileName = (name: string) => name.replace(/\s/g, '_');
