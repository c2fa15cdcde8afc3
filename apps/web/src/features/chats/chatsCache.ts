import type { Chat, ChatMessage } from '@balcao/shared';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { type ChatMessagesPage, type ChatsPage, chatKeys } from './chatsApi';

type ListData = InfiniteData<ChatsPage, unknown>;
type MessagesData = InfiniteData<ChatMessagesPage, unknown>;

const byActivity = (x: Chat, y: Chat) => Date.parse(y.updatedAt) - Date.parse(x.updatedAt) || y.id - x.id;

/** Puts a chat in the list (replacing its old copy), kept in order of last activity. */
export function upsertChat(queryClient: QueryClient, chat: Chat): void {
  queryClient.setQueryData<ListData>(chatKeys.list, (data) => {
    if (!data) return data;
    const all = [chat, ...data.pages.flatMap((p) => p.records).filter((c) => c.id !== chat.id)].sort(byActivity);
    let start = 0;
    const pages = data.pages.map((page, i) => {
      // Every page keeps its size; the last one takes what is left (a new chat grows it by one).
      const size = i === data.pages.length - 1 ? all.length - start : page.records.length;
      const records = all.slice(start, start + size);
      start += size;
      return { ...page, records };
    });
    return { ...data, pages };
  });
  for (const ref of [chat.uuid, String(chat.id)]) {
    if (queryClient.getQueryData(chatKeys.detail(ref))) queryClient.setQueryData(chatKeys.detail(ref), chat);
  }
}

export function removeChat(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<ListData>(chatKeys.list, (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== id) })) } : data,
  );
  queryClient.removeQueries({ queryKey: chatKeys.messages(id) });
}

/** Appends a message to the newest page of its chat, once. */
export function appendMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<MessagesData>(chatKeys.messages(message.chatId), (data) => {
    if (!data || data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
    const [newest, ...older] = data.pages;
    return { ...data, pages: [{ ...newest, records: [...newest.records, message] }, ...older] };
  });
}

export function chatsOf(data: InfiniteData<ChatsPage, unknown> | undefined): Chat[] {
  return data?.pages.flatMap((p) => p.records) ?? [];
}
