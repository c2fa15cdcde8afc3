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

const text = z.string().max(4000, msg.tooLong);
const minutes = z.number({ error: msg.required }).int().min(0).max(525_600);

/** The connection dialog's form (spec §5: name 2 to 50; maxUseBotQueues defaults to 3). */
export const connectionFormSchema = z.object({
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
  maxUseBotQueues: z.number({ error: msg.required }).int().min(0).max(100),
  queueIds: z.array(z.number()),
  phoneNumberId: z.string().max(2000, msg.tooLong),
  accessToken: z.string().max(2000, msg.tooLong),
  appSecret: z.string().max(2000, msg.tooLong),
  verifyToken: z.string().max(2000, msg.tooLong),
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
    maxUseBotQueues: MAX_USE_BOT_QUEUES_DEFAULT,
    queueIds: [],
    phoneNumberId: '',
    accessToken: '',
    appSecret: '',
    verifyToken: '',
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
    maxUseBotQueues: w.maxUseBotQueues,
    queueIds: w.queues.map((q) => q.id),
  };
}

/**
 * POST/PUT /whatsapp body. Fields the dialog does not show keep the values of the edited
 * connection. The Cloud API secrets are write-only: blank ones are not sent, and nothing is sent
 * for them when all are blank (editing keeps the stored configuration).
 */
export function connectionBody(values: ConnectionFormValues, existing?: Whatsapp): WhatsappInput {
  const { phoneNumberId, accessToken, appSecret, verifyToken, ...fields } = values;
  const secrets = { phoneNumberId, accessToken, appSecret, verifyToken };
  const filled = Object.fromEntries(Object.entries(secrets).filter(([, v]) => v.trim() !== ''));
  const body: WhatsappInput = {
    timeSendQueue: existing?.timeSendQueue ?? 0,
    sendIdQueue: existing?.sendIdQueue ?? null,
    queueHolidayMessage: existing?.queueHolidayMessage ?? '',
    queueHolidayDate: existing?.queueHolidayDate?.slice(0, 10) ?? null,
    queueHolidayEnd: existing?.queueHolidayEnd?.slice(0, 10) ?? null,
    promptId: existing?.promptId ?? null,
    ...fields,
    name: fields.name.trim(),
  };
  if (values.provider === 'cloud' && Object.keys(filled).length > 0) body.providerConfig = filled;
  return body;
}
