import {
  msg,
  PROMPT_DEFAULTS,
  PROMPT_LIMITS,
  type Prompt,
  type PromptInput,
  type PromptUpdate,
  promptMsg,
} from '@balcao/shared';
import { z } from 'zod';

/** Spec part 3 "Prompt voices": 'texto' plus 16 Brazilian-Portuguese neural voices. */
export const PROMPT_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
  'pt-BR-ThalitaNeural',
] as const;

const count = (limits: { min: number; max: number }) =>
  z.number({ error: msg.required }).int(msg.required).min(limits.min, msg.tooShort).max(limits.max, msg.tooLong);

/**
 * The prompt dialog (spec part 2 §5): name 5 to 100, a training of at least 50 characters, a queue
 * ('Informe o setor'). The key is required for a new prompt; editing keeps the stored one when blank.
 */
export const promptFormSchema = (editing: boolean) =>
  z.object({
    name: z
      .string()
      .trim()
      .min(1, msg.required)
      .min(PROMPT_LIMITS.name.min, msg.tooShort)
      .max(PROMPT_LIMITS.name.max, msg.tooLong),
    prompt: z
      .string()
      .trim()
      .min(PROMPT_LIMITS.prompt.min, promptMsg.prompt)
      .max(PROMPT_LIMITS.prompt.max, msg.tooLong),
    apiKey: editing ? z.string().trim().max(500, msg.tooLong) : z.string().trim().min(1, msg.required).max(500),
    queueId: z
      .number()
      .nullable()
      .superRefine((v, ctx) => {
        if (v === null) ctx.addIssue({ code: 'custom', message: promptMsg.queue });
      }),
    model: z
      .string()
      .trim()
      .min(1, msg.required)
      .max(100, msg.tooLong)
      .regex(/^[\w.:/-]+$/, msg.required),
    maxTokens: count(PROMPT_LIMITS.maxTokens),
    temperature: z
      .number({ error: msg.required })
      .min(PROMPT_LIMITS.temperature.min, msg.tooShort)
      .max(PROMPT_LIMITS.temperature.max, msg.tooLong),
    maxMessages: count(PROMPT_LIMITS.maxMessages),
    voice: z.string().min(1, msg.required),
    voiceKey: z.string().trim().max(500, msg.tooLong),
    voiceRegion: z.string().trim().max(100, msg.tooLong),
  });

export type PromptFormValues = z.infer<ReturnType<typeof promptFormSchema>>;

export function emptyPromptForm(): PromptFormValues {
  return {
    name: '',
    prompt: '',
    apiKey: '',
    queueId: null,
    model: PROMPT_DEFAULTS.model,
    maxTokens: PROMPT_DEFAULTS.maxTokens,
    temperature: PROMPT_DEFAULTS.temperature,
    maxMessages: PROMPT_DEFAULTS.maxMessages,
    voice: PROMPT_DEFAULTS.voice,
    voiceKey: '',
    voiceRegion: '',
  };
}

/** The form of a saved prompt: its keys are write-only, so their fields start blank. */
export function promptToForm(p: Prompt): PromptFormValues {
  return {
    name: p.name,
    prompt: p.prompt,
    apiKey: '',
    queueId: p.queueId,
    model: p.model,
    maxTokens: p.maxTokens,
    temperature: p.temperature,
    maxMessages: p.maxMessages,
    voice: p.voice,
    voiceKey: '',
    voiceRegion: p.voiceRegion,
  };
}

/** POST /prompt body. */
export function createBody(v: PromptFormValues): PromptInput {
  return { ...v, name: v.name.trim(), queueId: v.queueId as number };
}

/** PUT /prompt body: a blank key (or voice key) keeps the stored one. */
export function updateBody(v: PromptFormValues): PromptUpdate {
  const { apiKey, voiceKey, ...rest } = createBody(v);
  return { ...rest, ...(apiKey ? { apiKey } : {}), ...(voiceKey ? { voiceKey } : {}) };
}
