import type { Message } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { MessagesPage } from './messagesApi';

/** Page 1 holds the newest messages; every page is in chronological order. */
export type MessagesData = InfiniteData<MessagesPage>;

function contains(data: MessagesData, id: number): boolean {
  return data.pages.some((page) => page.messages.some((m) => m.id === id));
}

/**
 * Adds new messages at the end of the conversation (page 1), once each. A message already loaded
 * is kept as it is: it may be newer than the one given (the POST reply of a message whose live
 * ack update arrived first).
 */
export function appendMessages(data: MessagesData | undefined, messages: Message[]): MessagesData | undefined {
  if (!data || data.pages.length === 0) return data;
  const fresh = messages.filter((m, i) => !contains(data, m.id) && messages.findIndex((o) => o.id === m.id) === i);
  if (fresh.length === 0) return data;
  const [newest, ...older] = data.pages;
  return {
    ...data,
    pages: [{ ...newest, messages: [...newest.messages, ...fresh], count: newest.count + fresh.length }, ...older],
  };
}

/** Replaces messages that are loaded (acks, deletions, edits). */
export function replaceMessages(data: MessagesData | undefined, messages: Message[]): MessagesData | undefined {
  if (!data || !messages.some((m) => contains(data, m.id))) return data;
  const byId = new Map(messages.map((m) => [m.id, m]));
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, messages: page.messages.map((m) => byId.get(m.id) ?? m) })),
  };
}

/** The loaded conversation, oldest first, each message once. */
export function conversationOf(data: MessagesData | undefined): Message[] {
  const seen = new Set<number>();
  const out: Message[] = [];
  for (const page of [...(data?.pages ?? [])].reverse()) {
    for (const message of page.messages) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}
