import type { Chat, ChatMessage } from '@balcao/shared';
import { http } from '../../api/client';

export interface ChatsPage {
  records: Chat[];
  count: number;
  hasMore: boolean;
}
export interface ChatMessagesPage {
  records: ChatMessage[];
  count: number;
  hasMore: boolean;
}
export interface ChatBody {
  title: string;
  users: { id: number }[];
}

export const chatKeys = {
  all: ['chats'] as const,
  list: ['chats', 'list'] as const,
  detail: (ref: string) => ['chats', 'detail', ref] as const,
  messages: (id: number) => ['chats', 'messages', id] as const,
};

/** Spec part 2 §7's internal chat calls. */
export const chatsApi = {
  list: (pageNumber: number) => http.get<ChatsPage>('/chats', { pageNumber }),
  /** By id or uuid (the page's route). */
  show: (ref: string | number) => http.get<Chat>(`/chats/${ref}`),
  create: (body: ChatBody) => http.post<Chat>('/chats', body),
  update: (id: number, body: ChatBody) => http.put<Chat>(`/chats/${id}`, body),
  remove: (id: number) => http.delete(`/chats/${id}`),
  messages: (id: number, pageNumber: number) => http.get<ChatMessagesPage>(`/chats/${id}/messages`, { pageNumber }),
  send: (id: number, message: string) => http.post<ChatMessage>(`/chats/${id}/messages`, { message }),
  read: (id: number, userId: number) => http.post<Chat>(`/chats/${id}/read`, { userId }),
};

/** The caller's unread count in a chat. */
export const unreadsOf = (chat: Chat, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
