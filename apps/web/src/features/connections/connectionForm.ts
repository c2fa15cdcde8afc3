import {
  MAX_USE_BOT_QUEUES_DEFAULT,
  msg,
  nameField,
  PROVIDERS,
  type Provider,
  type Whatsapp,
  type WhatsappInput,
} from '@balcao/shared';
import { z } from 'zod';

/** Write-only settings of the Cloud API provider, sent as `providerConfig`. */
export const CLOUD_FIELDS = ['phoneNumberId', 'accessToken', 'appSecret', 'verifyToken'] as const;
export type CloudField = (typeof CLOUD_FIELDS)[number];

/** The i18n key of the error of a holiday that ends before it starts. */
export const HOLIDAY_END_BEFORE_START = 'connectionModal.holidayEndBeforeStart';

const text = z.string().max(4000, msg.tooLong);
const minutes = z.number({ error: msg.required }).int().min(0).max(525_600);

/** A `type="date"` input: '' or 'yyyy-mm-dd'. */
const day = z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/);

/**
 * The connection dialog's form (spec §5: name 2 to 50; maxUseBotQueues defaults to 3). A wait
 * (`timeSendQueue`) needs its queue; a holiday end needs a start on or before it.
 */
export const connectionFormSchema = z
  .object({
    name: nameField(),
    provider: z.enum(PROVIDERS),
    isDefault: z.boolean(),
    greetingMessage: text,
    complationMessage: text,
    outOfHoursMessage: text,
    ratingMessage: text,
    expiresInactiveMessage: text,
    expiresTicket: minutes,
    timeUseBotQueues: minutes,
    timeSendQueue: minutes,
    sendIdQueue: z.number().nullable(),
    queueHolidayMessage: text,
    queueHolidayDate: day,
    queueHolidayEnd: day,
    maxUseBotQueues: z.number({ error: msg.required }).int().min(0).max(100),
    queueIds: z.array(z.number()),
    /** The AI prompt that answers tickets without a queue (DOMAIN §1.7), or none. */
    promptId: z.number().nullable(),
    /** The queue integration that answers tickets without a queue (DOMAIN §1.7, §17), or none. */
    integrationId: z.number().nullable(),
    phoneNumberId: z.string().max(2000, msg.tooLong),
    accessToken: z.string().max(2000, msg.tooLong),
    appSecret: z.string().max(2000, msg.tooLong),
    verifyToken: z.string().max(2000, msg.tooLong),
    /** beta: link by pairing code with this phone (digits with country code) instead of a QR code. */
    pairingNumber: z
      .string()
      .max(20, msg.tooLong)
      .transform((v) => v.replace(/\D/g, ''))
      .refine((v) => v === '' || v.length >= 10, msg.tooShort),
  })
  .refine((v) => v.timeSendQueue === 0 || v.sendIdQueue !== null, { path: ['sendIdQueue'], message: msg.required })
  .refine((v) => v.queueHolidayEnd === '' || v.queueHolidayDate !== '', {
    path: ['queueHolidayDate'],
    message: msg.required,
  })
  .refine((v) => v.queueHolidayEnd === '' || v.queueHolidayEnd >= v.queueHolidayDate, {
    path: ['queueHolidayEnd'],
    message: HOLIDAY_END_BEFORE_START,
  });

export type ConnectionFormValues = z.infer<typeof connectionFormSchema>;

export function emptyConnectionForm(provider: Provider = 'beta'): ConnectionFormValues {
  return {
    name: '',
    provider,
    isDefault: false,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    expiresInactiveMessage: '',
    expiresTicket: 0,
    timeUseBotQueues: 0,
    timeSendQueue: 0,
    sendIdQueue: null,
    queueHolidayMessage: '',
    queueHolidayDate: '',
    queueHolidayEnd: '',
    maxUseBotQueues: MAX_USE_BOT_QUEUES_DEFAULT,
    queueIds: [],
    promptId: null,
    integrationId: null,
    phoneNumberId: '',
    accessToken: '',
    appSecret: '',
    verifyToken: '',
    pairingNumber: '',
  };
}

export function connectionToForm(w: Whatsapp): ConnectionFormValues {
  return {
    ...emptyConnectionForm(w.provider),
    name: w.name,
    isDefault: w.isDefault,
    greetingMessage: w.greetingMessage,
    complationMessage: w.complationMessage,
    outOfHoursMessage: w.outOfHoursMessage,
    ratingMessage: w.ratingMessage,
    expiresInactiveMessage: w.expiresInactiveMessage,
    expiresTicket: w.expiresTicket,
    timeUseBotQueues: w.timeUseBotQueues,
    timeSendQueue: w.timeSendQueue,
    sendIdQueue: w.sendIdQueue,
    queueHolidayMessage: w.queueHolidayMessage,
    queueHolidayDate: w.queueHolidayDate?.slice(0, 10) ?? '',
    queueHolidayEnd: w.queueHolidayEnd?.slice(0, 10) ?? '',
    maxUseBotQueues: w.maxUseBotQueues,
    queueIds: w.queues.map((q) => q.id),
    promptId: w.promptId,
    integrationId: w.integrationId,
  };
}

/**
 * POST/PUT /whatsapp body. The prompt and the integration are the form's (kept as they were when the
 * plan hides their selects).
 * The Cloud API secrets are write-only: blank ones are not sent, and nothing is sent
 * for them when all are blank (editing keeps the stored configuration). The beta provider's pairing
 * number is sent only when filled in.
 */
export function connectionBody(values: ConnectionFormValues): WhatsappInput {
  const { phoneNumberId, accessToken, appSecret, verifyToken, pairingNumber, ...fields } = values;
  const secrets = { phoneNumberId, accessToken, appSecret, verifyToken };
  const filled = Object.fromEntries(Object.entries(secrets).filter(([, v]) => v.trim() !== ''));
  const body: WhatsappInput = {
    ...fields,
    name: fields.name.trim(),
    // An empty date input is no date.
    queueHolidayDate: fields.queueHolidayDate || null,
    queueHolidayEnd: fields.queueHolidayEnd || null,
  };
  if (values.provider === 'cloud' && Object.keys(filled).length > 0) body.providerConfig = filled;
  if (values.provider === 'beta' && pairingNumber !== '') body.providerConfig = { pairingNumber };
  return body;
}
