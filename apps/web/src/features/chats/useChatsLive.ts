import { type Chat, type ChatUserEvent, companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { playBeep } from '../notifications/sound';
import { unreadsOf } from './chatsApi';
import { removeChat, upsertChat } from './chatsCache';

/**
 * Keeps the chat list in step with `company-{id}-chat-user-{me}` (spec part 2 §4: a new chat at the
 * front, an update in place, a delete removed).
 */
export function useChatsLive(onDeleted?: (id: number) => void) {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const onDeletedRef = useRef(onDeleted);
  onDeletedRef.current = onDeleted;
  useSocketEvent<ChatUserEvent>(companyEvent.chatUser(me.companyId, me.id), (event) => {
    if (event.action === 'delete') {
      removeChat(queryClient, event.id);
      onDeletedRef.current?.(event.id);
      return;
    }
    upsertChat(queryClient, event.record);
  });
}

/**
 * A beep when someone else's message raised the caller's unread count of a chat (one's own
 * messages count for the others only: no sound for them). `chats` seeds the counts already known.
 */
export function useChatSound(chats: Chat[]) {
  const me = useSessionUser();
  const known = useRef(new Map<number, number>());
  for (const chat of chats) if (!known.current.has(chat.id)) known.current.set(chat.id, unreadsOf(chat, me.id));
  useSocketEvent<ChatUserEvent>(companyEvent.chatUser(me.companyId, me.id), (event) => {
    if (event.action === 'delete') {
      known.current.delete(event.id);
      return;
    }
    const now = unreadsOf(event.record, me.id);
    const before = known.current.get(event.record.id) ?? 0;
    known.current.set(event.record.id, now);
    if (now > before) playBeep();
  });
}
