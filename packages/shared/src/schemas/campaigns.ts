import { z } from 'zod';
import { intId, msg, nameField, pageQuery } from './common.js';

/** Spec part 2 §8; a new campaign starts INATIVA, or PROGRAMADA when it has a `scheduledAt`. */
export const campaignStatuses = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];
export const campaignStatusLabels: Record<CampaignStatus, string> = {
  INATIVA: 'Inativa',
  PROGRAMADA: 'Programada',
  EM_ANDAMENTO: 'Em Andamento',
  CANCELADA: 'Cancelada',
  FINALIZADA: 'Finalizada',
};

/** The five message tabs (spec part 2 §9). */
export const CAMPAIGN_MESSAGES = [1, 2, 3, 4, 5] as const;
export const campaignMessageKeys = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const campaignConfirmationKeys = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

/** An edit is allowed while INATIVA, or PROGRAMADA more than this ahead (spec part 2 §8). */
export const CAMPAIGN_EDIT_LEAD_MS = 3_600_000;

/**
 * One recipient's state (DOMAIN §8): pending → sending → sent → delivered → read, or failed/skipped
 * (terminal). `confirming`: the confirmation message left, the main one waits for a "sim".
 */
export const shippingStatuses = [
  'pending',
  'sending',
  'confirming',
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped',
] as const;
export type ShippingStatus = (typeof shippingStatuses)[number];
/** Why a recipient was skipped. */
export const shippingSkipReasons = ['invalid', 'opted_out', 'duplicate', 'window_closed', 'unconfirmed'] as const;

export const campaignCountsSchema = z.object({
  /** Recipients prepared (one per number). */
  total: z.number(),
  pending: z.number(),
  sending: z.number(),
  confirming: z.number(),
  sent: z.number(),
  delivered: z.number(),
  read: z.number(),
  failed: z.number(),
  skipped: z.number(),
  optedOut: z.number(),
  /** Confirmation messages sent / positive answers (confirmation mode). */
  confirmationRequested: z.number(),
  confirmed: z.number(),
  /** Valid numbers of the contact list (isWhatsappValid not false): the report's "valid contacts". */
  validContacts: z.number(),
});
export type CampaignCounts = z.infer<typeof campaignCountsSchema>;

const nullableText = z.string().nullable();

export const campaignSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(campaignStatuses),
  confirmation: z.boolean(),
  message1: nullableText,
  message2: nullableText,
  message3: nullableText,
  message4: nullableText,
  message5: nullableText,
  confirmationMessage1: nullableText,
  confirmationMessage2: nullableText,
  confirmationMessage3: nullableText,
  confirmationMessage4: nullableText,
  confirmationMessage5: nullableText,
  /** ISO instant. */
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string(), provider: z.string(), status: z.string() }).nullable(),
  contactListId: z.number().nullable(),
  contactList: z.object({ id: z.number(), name: z.string(), contactsCount: z.number() }).nullable(),
  tagListId: z.number().nullable(),
  fileListId: z.number().nullable(),
  companyId: z.number(),
  /** `/media/…` URL of the campaign's own attachment. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** Cloud API connections: an approved template for recipients outside the 24-hour window. */
  templateName: nullableText,
  templateLanguage: nullableText,
  templateVariables: z.array(z.string()),
  counts: campaignCountsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** Empty strings and 'Nenhuma' (the tag select's "none") arrive as "no value" (spec part 2 §7). */
const blankAsNull = (v: unknown) => (v === '' || v === 'Nenhuma' || v === undefined ? null : v);
const optionalId = z.preprocess(blankAsNull, intId().nullable());
const requiredId = z.preprocess(blankAsNull, intId(msg.required).nullable()).refine((v) => v !== null, msg.required);
const messageField = z.preprocess(blankAsNull, z.string().trim().max(4096, msg.tooLong).nullable());

/**
 * `YYYY-MM-DD HH:mm[:ss]` in the company's time zone (spec part 2 §7), or an ISO instant with its
 * offset.
 */
export const campaignScheduledAt = z.preprocess(
  blankAsNull,
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/, 'Data inválida')
    .nullable(),
);

const campaignFields = {
  name: nameField(),
  confirmation: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).default(false),
  contactListId: requiredId,
  whatsappId: requiredId,
  scheduledAt: campaignScheduledAt.refine((v) => v !== null, msg.required),
  tagListId: optionalId.default(null),
  fileListId: optionalId.default(null),
  message1: messageField.default(null),
  message2: messageField.default(null),
  message3: messageField.default(null),
  message4: messageField.default(null),
  message5: messageField.default(null),
  confirmationMessage1: messageField.default(null),
  confirmationMessage2: messageField.default(null),
  confirmationMessage3: messageField.default(null),
  confirmationMessage4: messageField.default(null),
  confirmationMessage5: messageField.default(null),
  templateName: z.preprocess(blankAsNull, z.string().trim().max(512).nullable()).default(null),
  templateLanguage: z.preprocess(blankAsNull, z.string().trim().max(15).nullable()).default(null),
  templateVariables: z.array(z.string().max(1024)).max(20).default([]),
};

/** Spec: every form field; the server also wants at least one message (or a Cloud API template). */
export const campaignInput = z.object(campaignFields).superRefine((c, ctx) => {
  if (!campaignMessageKeys.some((k) => c[k]) && !c.templateName)
    ctx.addIssue({ code: 'custom', path: ['message1'], message: msg.required });
});
export type CampaignInput = z.input<typeof campaignInput>;

/** A PUT sends the whole form again (the dialog does); fields left out keep their values. */
export const campaignUpdate = z.object(campaignFields).partial();
export type CampaignUpdate = z.input<typeof campaignUpdate>;

export const campaignsQuery = pageQuery;
export const campaignsReply = z.object({ records: z.array(campaignSchema), count: z.number(), hasMore: z.boolean() });

export const shippingSchema = z.object({
  id: z.number(),
  campaignId: z.number(),
  number: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(shippingStatuses),
  /** Skip reason or error code. */
  reason: z.string().nullable(),
  attempts: z.number(),
  /** Which message tab (1–5) the recipient got. */
  messageIndex: z.number().nullable(),
  confirmationRequestedAt: z.string().nullable(),
  confirmation: z.boolean(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  readAt: z.string().nullable(),
  /** The contact answered after the campaign's message reached them. */
  repliedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Shipping = z.infer<typeof shippingSchema>;

export const shippingQuery = pageQuery.extend({
  status: z
    .enum(['all', ...shippingStatuses, 'opted_out'])
    .optional()
    .default('all'),
});
export const shippingReply = z.object({ records: z.array(shippingSchema), count: z.number(), hasMore: z.boolean() });

/** The live `company-{id}-campaign` push (spec part 2 §7). */
export type CampaignEvent =
  | { action: 'create' | 'update'; record: Campaign; id: number }
  | { action: 'delete'; id: number };

/** Spec part 2 §9: the three interval selects and their options. */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const campaignSettingDefaults = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 } as const;

/** A custom variable's shortcut: used as `{key}` by plain substitution, never as a RegExp. */
export const CAMPAIGN_VARIABLE_KEY = /^[A-Za-z0-9_]{1,30}$/;
export const RESERVED_CAMPAIGN_VARIABLES = ['nome', 'numero', 'email'] as const;
export const CAMPAIGN_VARIABLES_MAX = 50;

const oneOf = (options: readonly number[]) => z.coerce.number().refine((n) => options.includes(n), 'Valor inválido');

export const campaignVariableSchema = z.object({
  key: z.string().trim().regex(CAMPAIGN_VARIABLE_KEY, 'Use letras, números ou _ (até 30)'),
  value: z.string().max(1000, msg.tooLong),
});

export const campaignSettingsSchema = z.object({
  messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS),
  longerIntervalAfter: oneOf(LONGER_INTERVAL_OPTIONS),
  greaterInterval: oneOf(LONGER_INTERVAL_OPTIONS),
  variables: z
    .array(campaignVariableSchema)
    .max(CAMPAIGN_VARIABLES_MAX)
    .superRefine((vars, ctx) => {
      const seen = new Set<string>();
      vars.forEach((v, i) => {
        if (seen.has(v.key) || (RESERVED_CAMPAIGN_VARIABLES as readonly string[]).includes(v.key))
          ctx.addIssue({ code: 'custom', path: [i, 'key'], message: 'Atalho já usado' });
        seen.add(v.key);
      });
    }),
});
export type CampaignSettings = z.infer<typeof campaignSettingsSchema>;

/** POST /campaign-settings: `{settings: {...}}` as the spec's client sends it; any key may be left out. */
export const campaignSettingsInput = z.object({ settings: campaignSettingsSchema.partial() });
/** GET /campaign-settings: key/value records, value as JSON text (spec part 2 §7). */
export const campaignSettingsReply = z.array(z.object({ key: z.string(), value: z.string() }));
