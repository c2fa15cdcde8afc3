import { z } from 'zod';
import { int4, msg, optionalFields, pageQuery, requiredString, updateOf } from './common.js';

/** Spec part 2 §3: the four kinds of queue integration. */
export const INTEGRATION_TYPES = ['typebot', 'n8n', 'webhook', 'dialogflow'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** Spec part 2 §9: the languages an integration may speak. */
export const INTEGRATION_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** Spec part 2 §3 / §9: defaults of a new integration (`typebotExpires` in hours, DOMAIN §17). */
export const INTEGRATION_DEFAULTS = {
  language: 'pt-BR',
  typebotDelayMessage: 1000,
  typebotExpires: 1,
} as const;

export const INTEGRATION_LIMITS = {
  name: { min: 2, max: 50 },
  url: 500,
  /** Dialogflow's service-account JSON. */
  jsonContent: 20_000,
  text: 1000,
  keyword: 50,
  slug: 200,
  delayMs: { min: 0, max: 60_000 },
  /** Hours; 0 = the bot session never expires. */
  expiresHours: { min: 0, max: 24 * 365 },
} as const;

/** Types whose `urlN8N` is the address called (spec part 2 §5: they require a url). */
export const URL_INTEGRATION_TYPES: readonly IntegrationType[] = ['typebot', 'n8n', 'webhook'];

/**
 * A queue integration as the API shows it. Dialogflow's credentials (`jsonContent`) are write-only:
 * stored encrypted, shown by the service account's e-mail (`jsonContentClientEmail`). `signingSecret`
 * (n8n and webhook: the HMAC key receivers verify deliveries with) is shown to admins only.
 */
export const queueIntegrationSchema = z.object({
  id: z.number(),
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string(),
  jsonContentClientEmail: z.string(),
  language: z.string(),
  urlN8N: z.string(),
  typebotDelayMessage: z.number(),
  typebotExpires: z.number(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotRestartMessage: z.string(),
  typebotSlug: z.string(),
  typebotUnknownMessage: z.string(),
  signingSecret: z.string().optional(),
  updatedAt: z.string(),
});
export type QueueIntegration = z.infer<typeof queueIntegrationSchema>;

const text = (max: number = INTEGRATION_LIMITS.text) => z.string().trim().max(max, msg.tooLong).default('');

/** An http(s) address: the server still refuses private ones unless configured (DOMAIN §11). */
const urlField = z
  .string()
  .trim()
  .max(INTEGRATION_LIMITS.url, msg.tooLong)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'URL inválida')
  .default('');

const fields = z.object({
  type: z.enum(INTEGRATION_TYPES, { error: msg.required }),
  name: requiredString().min(INTEGRATION_LIMITS.name.min, msg.tooShort).max(INTEGRATION_LIMITS.name.max, msg.tooLong),
  projectName: text(100),
  /** Dialogflow's service-account JSON: sent to set or replace it, never read back. */
  jsonContent: text(INTEGRATION_LIMITS.jsonContent),
  language: z.enum(INTEGRATION_LANGUAGES).default(INTEGRATION_DEFAULTS.language),
  urlN8N: urlField,
  typebotDelayMessage: int4({ ...INTEGRATION_LIMITS.delayMs }).default(INTEGRATION_DEFAULTS.typebotDelayMessage),
  typebotExpires: int4({ ...INTEGRATION_LIMITS.expiresHours }).default(INTEGRATION_DEFAULTS.typebotExpires),
  typebotKeywordFinish: text(INTEGRATION_LIMITS.keyword),
  typebotKeywordRestart: text(INTEGRATION_LIMITS.keyword),
  typebotRestartMessage: text(),
  typebotSlug: text(INTEGRATION_LIMITS.slug),
  typebotUnknownMessage: text(),
});

export type QueueIntegrationFields = z.output<typeof fields>;

/** What a saved integration must hold whatever the order of its edits (spec part 2 §5). */
export interface IntegrationRecord {
  type: IntegrationType;
  urlN8N: string;
  typebotSlug: string;
  /** Dialogflow: credentials stored or sent. */
  hasCredentials: boolean;
}

/** Spec part 2 §5 per type: the field path and message of each rule the record breaks. */
export function integrationIssues(r: IntegrationRecord): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (URL_INTEGRATION_TYPES.includes(r.type) && !r.urlN8N) issues.push({ path: 'urlN8N', message: msg.required });
  if (r.type === 'typebot' && !r.typebotSlug) issues.push({ path: 'typebotSlug', message: msg.required });
  // Dialogflow's project defaults to the credentials' `project_id` (the server checks it is known).
  if (r.type === 'dialogflow' && !r.hasCredentials) issues.push({ path: 'jsonContent', message: msg.required });
  return issues;
}

/** Spec part 2 §5: for typebot, n8n and webhook the project name is the name. */
export const projectNameOf = (type: IntegrationType, name: string, projectName: string) =>
  URL_INTEGRATION_TYPES.includes(type) ? name : projectName;

export const queueIntegrationInput = fields.superRefine((v, ctx) => {
  const issues = integrationIssues({ ...v, hasCredentials: v.jsonContent !== '' });
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type QueueIntegrationInput = z.output<typeof queueIntegrationInput>;
export const queueIntegrationUpdate = updateOf(fields);
export type QueueIntegrationUpdate = z.output<typeof queueIntegrationUpdate>;

/** `GET /queueIntegration/`: paged with `searchParam`/`pageNumber`; without either, the plain list. */
export const queueIntegrationsQuery = optionalFields(pageQuery);
export const queueIntegrationsPage = z.object({
  queueIntegrations: z.array(queueIntegrationSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type QueueIntegrationsPage = z.infer<typeof queueIntegrationsPage>;
export const queueIntegrationsReply = z.union([queueIntegrationsPage, z.array(queueIntegrationSchema)]);

/**
 * `POST /queueIntegration/testSession` (spec part 2 §7: projectName, jsonContent, language): the
 * integration is really called (DOMAIN §17). `id` tests a saved one with its stored secrets; the other
 * fields test what the dialog holds, over the saved values.
 */
export const integrationTestInput = optionalFields(fields).extend({
  id: int4({ min: 1 }).optional(),
  /** What the test sends as the contact's message. */
  text: z.string().trim().max(INTEGRATION_LIMITS.text, msg.tooLong).default('Olá'),
});
export type IntegrationTestInput = z.output<typeof integrationTestInput>;

export const integrationTestReply = z.object({
  ok: z.boolean(),
  /** What the integration answered, as the contact would receive it. */
  messages: z.array(z.string()),
  /** Control verbs it asked for (`transfer:{queueId}`, `handoff`, `close`). */
  actions: z.array(z.string()),
  error: z.string().optional(),
});
export type IntegrationTestReply = z.infer<typeof integrationTestReply>;
