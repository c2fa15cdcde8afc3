import {
  INTEGRATION_DEFAULTS,
  INTEGRATION_LIMITS,
  type IntegrationType,
  integrationIssues,
  msg,
  projectNameOf,
  type QueueIntegration,
  queueIntegrationInput,
} from '@balcao/shared';
import { z } from 'zod';
import type { IntegrationTestBody, QueueIntegrationBody } from './queueIntegrationsApi';

/** The shared message of an address that is not http(s) (the API's `urlN8N` rule). */
export const INVALID_URL = 'URL inválida';
/** The API's message of a `jsonContent` that is not a service account's JSON. */
export const INVALID_CREDENTIALS = 'JSON de conta de serviço inválido';

/** Types that sign their deliveries with the integration's secret (DOMAIN §17). */
export const SIGNED_TYPES: readonly IntegrationType[] = ['n8n', 'webhook'];

const shared = queueIntegrationInput.shape;

/** A whole number in the dialog (NaN while its input is empty). */
const count = (limits: { min: number; max: number }) =>
  z.number({ error: msg.required }).int(msg.required).min(limits.min, msg.tooShort).max(limits.max, msg.tooLong);

/**
 * The integration dialog (spec part 2 §5): the shared fields and, per type, the shared rules
 * (url; typebot's slug; Dialogflow's project and credentials). `storedCredentials`: editing a
 * Dialogflow integration whose service-account JSON is saved, so a blank one keeps it.
 */
export const integrationFormSchema = (storedCredentials: boolean) =>
  z
    .object({
      type: shared.type,
      name: shared.name,
      projectName: shared.projectName.removeDefault(),
      jsonContent: shared.jsonContent.removeDefault(),
      language: shared.language.removeDefault(),
      urlN8N: shared.urlN8N.removeDefault(),
      typebotDelayMessage: count(INTEGRATION_LIMITS.delayMs),
      typebotExpires: count(INTEGRATION_LIMITS.expiresHours),
      typebotKeywordFinish: shared.typebotKeywordFinish.removeDefault(),
      typebotKeywordRestart: shared.typebotKeywordRestart.removeDefault(),
      typebotRestartMessage: shared.typebotRestartMessage.removeDefault(),
      typebotSlug: shared.typebotSlug.removeDefault(),
      typebotUnknownMessage: shared.typebotUnknownMessage.removeDefault(),
    })
    .superRefine((v, ctx) => {
      const hasCredentials = v.jsonContent !== '' || storedCredentials;
      for (const issue of integrationIssues({ ...v, hasCredentials })) {
        ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
      }
    });

export type IntegrationFormValues = z.infer<ReturnType<typeof integrationFormSchema>>;

export function emptyIntegrationForm(): IntegrationFormValues {
  return {
    type: 'typebot',
    name: '',
    projectName: '',
    jsonContent: '',
    language: INTEGRATION_DEFAULTS.language,
    urlN8N: '',
    typebotDelayMessage: INTEGRATION_DEFAULTS.typebotDelayMessage,
    typebotExpires: INTEGRATION_DEFAULTS.typebotExpires,
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotRestartMessage: '',
    typebotSlug: '',
    typebotUnknownMessage: '',
  };
}

const isLanguage = (v: string): v is IntegrationFormValues['language'] =>
  (shared.language.removeDefault().options as readonly string[]).includes(v);

/** The form of a saved integration: its credentials are write-only, so that field starts blank. */
export function integrationToForm(r: QueueIntegration): IntegrationFormValues {
  return {
    type: r.type,
    name: r.name,
    projectName: r.projectName,
    jsonContent: '',
    language: isLanguage(r.language) ? r.language : INTEGRATION_DEFAULTS.language,
    urlN8N: r.urlN8N,
    typebotDelayMessage: r.typebotDelayMessage,
    typebotExpires: r.typebotExpires,
    typebotKeywordFinish: r.typebotKeywordFinish,
    typebotKeywordRestart: r.typebotKeywordRestart,
    typebotRestartMessage: r.typebotRestartMessage,
    typebotSlug: r.typebotSlug,
    typebotUnknownMessage: r.typebotUnknownMessage,
  };
}

/**
 * POST/PUT /queueIntegration body. For typebot, n8n and webhook the project name is the name
 * (spec part 2 §5). A blank `jsonContent` is not sent: editing keeps the stored credentials.
 */
export function integrationBody(v: IntegrationFormValues): QueueIntegrationBody {
  const { jsonContent, ...rest } = v;
  const body = { ...rest, projectName: projectNameOf(v.type, v.name, v.projectName) };
  return jsonContent ? { ...body, jsonContent } : body;
}

/** The testSession body: the dialog's fields over the saved integration (`id`), and the contact's text. */
export function integrationTestBody(
  v: IntegrationFormValues,
  id: number | undefined,
  text: string,
): IntegrationTestBody {
  return { ...(id === undefined ? {} : { id }), ...integrationBody(v), text };
}
