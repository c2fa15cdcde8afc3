import { z } from 'zod';
import { int4, intId, msg, requiredString, updateOf } from './common.js';

/** Spec part 2 §5: the prompt's validation messages. */
export const promptMsg = {
  prompt: 'Descreva o treinamento para Inteligência Artificial',
  queue: 'Informe o setor',
} as const;

/** Spec part 3: defaults of a new prompt. */
export const PROMPT_DEFAULTS = {
  voice: 'texto',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  model: 'gpt-4o-mini',
} as const;

export const PROMPT_LIMITS = {
  name: { min: 5, max: 100 },
  prompt: { min: 50, max: 20_000 },
  maxTokens: { min: 1, max: 4096 },
  temperature: { min: 0, max: 2 },
  maxMessages: { min: 1, max: 50 },
} as const;

/**
 * A prompt as the API shows it. The OpenAI key (and the voice service key) are write-only: stored
 * encrypted, shown only by their last 4 characters (DOMAIN §16).
 */
export const promptSchema = z.object({
  id: z.number(),
  name: z.string(),
  prompt: z.string(),
  voice: z.string(),
  voiceRegion: z.string(),
  maxTokens: z.number(),
  temperature: z.number(),
  maxMessages: z.number(),
  model: z.string(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** The last 4 characters of the stored OpenAI key. */
  apiKeyLast4: z.string(),
  /** The last 4 characters of the stored voice service key, '' when none. */
  voiceKeyLast4: z.string(),
  updatedAt: z.string(),
});
export type Prompt = z.infer<typeof promptSchema>;

/** A model name as OpenAI-compatible APIs spell them: letters, digits, `.-_:/`. */
const modelField = z
  .string()
  .trim()
  .min(1, msg.required)
  .max(100, msg.tooLong)
  .regex(/^[\w.:/-]+$/, msg.required);

export const promptInput = z.object({
  name: requiredString().min(PROMPT_LIMITS.name.min, msg.tooShort).max(PROMPT_LIMITS.name.max, msg.tooLong),
  prompt: z
    .string({ error: promptMsg.prompt })
    .trim()
    .min(PROMPT_LIMITS.prompt.min, promptMsg.prompt)
    .max(PROMPT_LIMITS.prompt.max, msg.tooLong),
  /** The OpenAI key: required on create; on update sent only to replace it. */
  apiKey: requiredString().max(500, msg.tooLong),
  queueId: intId(promptMsg.queue),
  voice: z.string().trim().min(1, msg.required).max(100, msg.tooLong).default(PROMPT_DEFAULTS.voice),
  voiceKey: z.string().trim().max(500, msg.tooLong).default(''),
  voiceRegion: z.string().trim().max(100, msg.tooLong).default(''),
  maxTokens: int4({ ...PROMPT_LIMITS.maxTokens }).default(PROMPT_DEFAULTS.maxTokens),
  temperature: z
    .number()
    .min(PROMPT_LIMITS.temperature.min)
    .max(PROMPT_LIMITS.temperature.max)
    .default(PROMPT_DEFAULTS.temperature),
  maxMessages: int4({ ...PROMPT_LIMITS.maxMessages }).default(PROMPT_DEFAULTS.maxMessages),
  model: modelField.default(PROMPT_DEFAULTS.model),
});
export type PromptInput = z.infer<typeof promptInput>;
export const promptUpdate = updateOf(promptInput);
export type PromptUpdate = z.infer<typeof promptUpdate>;

export const promptsListReply = z.object({ prompts: z.array(promptSchema) });
export type PromptsList = z.infer<typeof promptsListReply>;
