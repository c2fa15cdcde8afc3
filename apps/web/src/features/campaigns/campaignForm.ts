import {
  type Campaign,
  campaignConfirmationKeys,
  campaignInput,
  campaignMessageKeys,
  campaignUpdate,
  msg,
} from '@balcao/shared';
import { z } from 'zod';
import { scheduleInputToBody, toScheduleInput } from './format';

/** The ten message boxes: `message1..5` and, in confirmation mode, `confirmationMessage1..5`. */
export const MESSAGE_FIELDS = [...campaignMessageKeys, ...campaignConfirmationKeys] as const;
export type MessageField = (typeof MESSAGE_FIELDS)[number];

/** The template's body variables, one a line (spec: at most 20). */
const TEMPLATE_VARIABLES_MAX = 20;
const TEMPLATE_VARIABLE_LENGTH = 1024;

const choice = z.union([z.number(), z.literal('')]);
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The dialog's fields as typed: selects hold an id or '' (none), the date a `datetime-local` value. */
const campaignFormFields = z.object({
  name: z.string(),
  confirmation: z.boolean(),
  contactListId: choice,
  tagListId: choice,
  whatsappId: choice,
  scheduledAt: z.string(),
  fileListId: choice,
  templateName: z.string(),
  templateLanguage: z.string(),
  templateVariables: z.string().refine((text) => {
    const variables = lines(text);
    return variables.length <= TEMPLATE_VARIABLES_MAX && variables.every((v) => v.length <= TEMPLATE_VARIABLE_LENGTH);
  }, msg.tooLong),
  ...(Object.fromEntries(MESSAGE_FIELDS.map((key) => [key, z.string()])) as Record<MessageField, z.ZodString>),
});
export type CampaignFormValues = z.infer<typeof campaignFormFields>;

/** The API's body (spec part 2 §7): empty strings go as they are and the shared schema makes them null. */
function toBody(values: CampaignFormValues) {
  return {
    ...values,
    scheduledAt: scheduleInputToBody(values.scheduledAt),
    templateVariables: lines(values.templateVariables),
  };
}

const pickMessages = (values: CampaignFormValues) =>
  Object.fromEntries(MESSAGE_FIELDS.map((key) => [key, values[key]])) as Record<MessageField, string>;

/** `pipe` wants its target to take what the transform gives; the shared preprocessors say `unknown`. */
const taking = <In, S extends z.ZodType>(schema: S) => schema as unknown as z.ZodType<z.output<S>, In>;

/** Every field, checked by the API's own rules (spec part 2 §5: 'Muito curto!', 'Obrigatório'…). */
export const campaignFormSchema = campaignFormFields
  .transform(toBody)
  .pipe(taking<ReturnType<typeof toBody>, typeof campaignInput>(campaignInput));

const messagesUpdate = campaignUpdate.pick(
  Object.fromEntries(MESSAGE_FIELDS.map((key) => [key, true])) as Record<MessageField, true>,
);

/** A cancelled campaign: only its messages are sent (spec part 2 §4). */
export const campaignMessagesFormSchema = campaignFormFields
  .transform(pickMessages)
  .pipe(taking<Record<MessageField, string>, typeof messagesUpdate>(messagesUpdate));

export function campaignFormDefaults(record: Campaign | null, timeZone: string): CampaignFormValues {
  return {
    name: record?.name ?? '',
    confirmation: record?.confirmation ?? false,
    contactListId: record?.contactListId ?? '',
    tagListId: record?.tagListId ?? '',
    whatsappId: record?.whatsappId ?? '',
    scheduledAt: toScheduleInput(record?.scheduledAt ?? null, timeZone),
    fileListId: record?.fileListId ?? '',
    templateName: record?.templateName ?? '',
    templateLanguage: record?.templateLanguage ?? '',
    templateVariables: (record?.templateVariables ?? []).join('\n'),
    ...(Object.fromEntries(MESSAGE_FIELDS.map((key) => [key, record?.[key] ?? ''])) as Record<MessageField, string>),
  };
}
