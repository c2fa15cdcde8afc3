import type { Message } from '@balcao/shared';
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

interface ReplyState {
  replyingTo: Message | null;
  setReplyingTo: (message: Message | null) => void;
}

const ReplyContext = createContext<ReplyState | null>(null);

/** The message being answered, shared by the message list (menu "reply") and the input. */
export function ReplyProvider({ children }: { children: ReactNode }) {
  const [replyingTo, setReplyingTo] = useState<Message | null>(null);
  const value = useMemo(() => ({ replyingTo, setReplyingTo }), [replyingTo]);
  return <ReplyContext value={value}>{children}</ReplyContext>;
}

/** The reply state; without a provider, replying is unavailable (read-only views). */
export function useReply(): ReplyState | null {
  return useContext(ReplyContext);
}
