import { z } from 'zod';
import { intId, pageQuery, updateOf } from './common.js';

/** Spec part 2 §5: the chat dialog's title message. */
export const CHAT_TITLE_REQUIRED = 'Por favor, preencha o título da conversa.';
/** Spec part 2 §5: at least one user must be selected. */
export const CHAT_USERS_REQUIRED = 'Selecione ao menos um usuário';
/** Messages page by 20 from the newest (DOMAIN §14). */
export const CHAT_MESSAGES_PAGE = 20;
export const CHAT_MESSAGE_MAX = 4096;

export const chatMemberSchema = z.object({
  userId: z.number(),
  unreads: z.number(),
  user: z.object({ id: z.number(), name: z.string() }),
});
export type ChatMember = z.infer<typeof chatMemberSchema>;

export const chatSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().nullable(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  users: z.array(chatMemberSchema),
});
export type Chat = z.infer<typeof chatSchema>;

export const chatMessageSchema = z.object({
  id: z.number(),
  chatId: z.number(),
  senderId: z.number().nullable(),
  sender: z.object({ id: z.number(), name: z.string() }).nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatInput = z.object({
  title: z.string({ error: CHAT_TITLE_REQUIRED }).trim().min(1, CHAT_TITLE_REQUIRED).max(255, 'Muito longo!'),
  /** The other members; the owner is always one. Users of the caller's company only. */
  users: z
    .array(z.object({ id: intId() }), { error: CHAT_USERS_REQUIRED })
    .min(1, CHAT_USERS_REQUIRED)
    .max(500),
});
export type ChatInput = z.input<typeof chatInput>;
export const chatUpdate = updateOf(chatInput);

/** `GET /chats` (searchParam in the title, pageNumber). */
export const chatsListQuery = pageQuery;
export const chatsListReply = z.object({ records: z.array(chatSchema), count: z.number(), hasMore: z.boolean() });

/** `GET /chats/:id`: the numeric id or the uuid of the page's route `/chats/{uuid}`. */
export const chatRefParam = z.object({ id: z.union([intId(), z.uuid()]) });

export const chatMessagesQuery = pageQuery.pick({ pageNumber: true });
/** One page, oldest first: the newest 20 on page 1, the 20 before them on page 2… */
export const chatMessagesReply = z.object({
  records: z.array(chatMessageSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export const chatMessageInput = z.object({
  message: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(CHAT_MESSAGE_MAX, 'Muito longo!'),
});

/** `company-{id}-chat-user-{userId}`: a chat as that member sees it appears, changes (unreads too) or goes. */
export type ChatUserEvent = { action: 'create' | 'update'; record: Chat } | { action: 'delete'; id: number };
/** `company-{id}-chat-{chatId}`: a new message of that chat, with the chat's new summary. */
export type ChatRoomEvent = { action: 'new-message'; message: ChatMessage; record: Chat };
