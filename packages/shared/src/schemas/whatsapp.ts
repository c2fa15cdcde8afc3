import { z } from 'zod';
import { int4, intId, isoDate, nameField, updateOf } from './common.js';
import { queueRef } from './users.js';

export const CONNECTION_STATUSES = ['CONNECTED', 'DISCONNECTED', 'OPENING', 'qrcode', 'PAIRING', 'TIMEOUT'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
/** Statuses that light the connections menu's warning badge (spec §2). */
export const WARNING_STATUSES: readonly ConnectionStatus[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];
export const PROVIDERS = ['beta', 'cloud', 'sandbox'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A connection as the API returns it: never session data, tokens or provider secrets. */
export const whatsappSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  qrcode: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  provider: z.enum(PROVIDERS),
  number: z.string().nullable(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeSendQueue: z.number(),
  sendIdQueue: z.number().nullable(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  queueHolidayMessage: z.string(),
  queueHolidayDate: z.string().nullable(),
  queueHolidayEnd: z.string().nullable(),
  promptId: z.number().nullable(),
  /** The connection-level queue integration (DOMAIN §1.7). */
  integrationId: z.number().nullable(),
  hasToken: z.boolean(),
  queues: z.array(queueRef),
  updatedAt: z.string(),
});
export type Whatsapp = z.infer<typeof whatsappSchema>;

const minutes = int4({ min: 0, max: 525_600 });
const text = z.string().max(4000);

export const whatsappInput = z.object({
  name: nameField(),
  provider: z.enum(PROVIDERS).default('beta'),
  isDefault: z.boolean().default(false),
  greetingMessage: text.default(''),
  complationMessage: text.default(''),
  outOfHoursMessage: text.default(''),
  ratingMessage: text.default(''),
  expiresInactiveMessage: text.default(''),
  expiresTicket: minutes.default(0),
  timeSendQueue: minutes.default(0),
  sendIdQueue: intId().nullable().default(null),
  timeUseBotQueues: minutes.default(0),
  maxUseBotQueues: int4({ min: 0, max: 100 }).default(3),
  queueHolidayMessage: text.default(''),
  queueHolidayDate: z.preprocess((v) => (v === '' ? null : v), isoDate.nullable()).default(null),
  queueHolidayEnd: z.preprocess((v) => (v === '' ? null : v), isoDate.nullable()).default(null),
  promptId: intId().nullable().default(null),
  integrationId: intId().nullable().default(null),
  queueIds: z.array(intId()).max(200).default([]),
  /** Provider settings (Cloud API: phoneNumberId, accessToken, appSecret, verifyToken). Write-only. */
  providerConfig: z.record(z.string(), z.string().max(2000)).optional(),
});
export type WhatsappInput = z.infer<typeof whatsappInput>;
export const whatsappUpdate = updateOf(whatsappInput);
export type WhatsappUpdate = z.infer<typeof whatsappUpdate>;

export const whatsappListQuery = z.object({ session: int4().optional() });

/** `company-{id}-whatsappSession` and `company-{id}-whatsapp` payloads. */
export interface WhatsappEvent {
  action: 'update' | 'delete';
  session?: Whatsapp;
  whatsapp?: Whatsapp;
  whatsappId?: number;
}

/** Reply of token (re)generation: the only time the clear token is shown. */
export const whatsappTokenReply = z.object({ token: z.string() });
