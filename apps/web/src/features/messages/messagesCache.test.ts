import type { Message } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { message } from '../tickets/testing';
import { appendMessages, conversationOf, type MessagesData, replaceMessages } from './messagesCache';

const at = (minute: number) => new Date(Date.UTC(2024, 4, 1, 10, minute)).toISOString();

function data(...pages: Message[][]): MessagesData {
  return {
    pages: pages.map((messages, i) => ({ messages, count: 0, hasMore: i < pages.length - 1 })),
    pageParams: pages.map((_, i) => i + 1),
  };
}

describe('messages cache', () => {
  const m1 = message({ id: 1, createdAt: at(1) });
  const m2 = message({ id: 2, createdAt: at(2) });
  const m3 = message({ id: 3, createdAt: at(3) });

  it('shows older pages first, oldest message first, each message once', () => {
    expect(conversationOf(data([m2, m3], [m1, m2])).map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('appends a new message to the newest page once', () => {
    const m4 = message({ id: 4, createdAt: at(4) });
    const once = appendMessages(data([m2, m3], [m1]), [m4]);
    expect(conversationOf(once).map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(appendMessages(once, [m4])?.pages[0].messages).toHaveLength(3);
  });

  it('keeps a loaded message when it is appended again (a POST reply older than its live ack)', () => {
    const sent = { ...m2, ack: 1 };
    const before = data([m1, sent]);
    const next = appendMessages(before, [{ ...m2, ack: 0 }]);
    expect(next).toBe(before);
    expect(next?.pages[0].messages[1].ack).toBe(1);
  });

  it('replaces a loaded message (ack, deletion)', () => {
    const next = replaceMessages(data([m1, m2]), [{ ...m2, ack: 3 }]);
    expect(next?.pages[0].messages[1].ack).toBe(3);
    const before = data([m1]);
    expect(replaceMessages(before, [m3])).toBe(before);
  });
});
