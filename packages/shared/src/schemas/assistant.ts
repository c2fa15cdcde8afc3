import { z } from 'zod';
import { intId } from './common.js';

/** Spec part 1 §5, §8 and §9: the chat-assistant widget's Portuguese messages. */
export const assistantMsg = {
  fillAll: 'Por favor, preencha todos os campos',
  wrongCredentials: 'Usuário ou senha incorretos',
  loginFailed: 'Erro ao fazer login. Tente novamente.',
  emptyToken: 'Por favor, insira um token válido',
  tokenSaveFailed: 'Erro ao salvar token. Tente novamente.',
  tokenSaved: 'Token salvo com sucesso!',
  overQuota: 'Você atingiu seu limite diário de mensagens (20). Volte amanhã para continuar usando o chatbot.',
  providerFailure: 'Desculpe, ocorreu um erro ao processar sua mensagem.',
  noToken: 'Token não configurado',
} as const;

/** Spec part 1 §7 and §9 (DOMAIN §19): the chat-completion call and the daily quota. */
export const ASSISTANT_DEFAULTS = {
  model: 'gpt-3.5-turbo',
  temperature: 0.7,
  dailyLimit: 20,
} as const;

export const ASSISTANT_LIMITS = {
  /** A message the user types. */
  message: 4000,
  /** The personal provider token. */
  token: 500,
  /** A draft to rephrase. */
  draft: 4000,
} as const;

/** Today's quota, in the company's time zone: shown as remaining/limit. */
export const assistantUsageSchema = z.object({
  remaining: z.number(),
  limit: z.number(),
});
export type AssistantUsage = z.infer<typeof assistantUsageSchema>;

export const assistantEntrySchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  timestamp: z.string(),
});
export type AssistantEntry = z.infer<typeof assistantEntrySchema>;

/**
 * What the widget knows of its user: signed in or not, whether a personal token is stored (the token
 * itself is never returned), today's quota and, when signed in, the history.
 */
export const assistantStateSchema = z.object({
  signedIn: z.boolean(),
  hasToken: z.boolean(),
  usage: assistantUsageSchema,
  history: z.array(assistantEntrySchema),
});
export type AssistantState = z.infer<typeof assistantStateSchema>;

/** The widget's "auth" step: the user's own e-mail and password. */
export const assistantAuthInput = z.object({
  username: z.string({ error: assistantMsg.fillAll }).trim().min(1, assistantMsg.fillAll).max(250),
  password: z.string({ error: assistantMsg.fillAll }).min(1, assistantMsg.fillAll).max(250),
});
export type AssistantAuthInput = z.infer<typeof assistantAuthInput>;

export const assistantTokenInput = z.object({
  token: z
    .string({ error: assistantMsg.emptyToken })
    .trim()
    .min(1, assistantMsg.emptyToken)
    .max(ASSISTANT_LIMITS.token, assistantMsg.emptyToken),
});
export type AssistantTokenInput = z.infer<typeof assistantTokenInput>;

export const assistantTokenReply = z.object({ hasToken: z.boolean() });

export const assistantMessageInput = z.object({
  content: z.string().trim().min(1).max(ASSISTANT_LIMITS.message),
});
export type AssistantMessageInput = z.infer<typeof assistantMessageInput>;

/** One exchange: the user's message and the answer as stored, and the quota left. */
export const assistantMessageReply = z.object({
  message: assistantEntrySchema,
  reply: assistantEntrySchema,
  usage: assistantUsageSchema,
});
export type AssistantMessageReply = z.infer<typeof assistantMessageReply>;

/** Beyond the spec (DOMAIN §19): help on an open ticket. The result is returned, never sent. */
export const assistantTicketParams = z.object({ ticketId: intId() });
export const assistantRephraseInput = z.object({
  draft: z.string().trim().min(1).max(ASSISTANT_LIMITS.draft),
});
export const assistantSuggestionReply = z.object({
  text: z.string(),
  usage: assistantUsageSchema,
});
export type AssistantSuggestionReply = z.infer<typeof assistantSuggestionReply>;
