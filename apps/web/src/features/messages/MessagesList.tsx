import type { Message, Ticket } from '@balcao/shared';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, type UIEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { toastError } from '../../components/toastError';
import { formatDate, sameDay } from '../tickets/format';
import { MessageItem } from './MessageItem';
import { type MessagesPage, messagesApi } from './messagesApi';
import { conversationOf, type MessagesData, replaceMessages } from './messagesCache';
import { useReply } from './ReplyContext';

/** Older messages load when the list is scrolled within 50 px of its top (spec §9). */
export const LOAD_OLDER_THRESHOLD_PX = 50;
/** Within this distance of the bottom, new messages keep the list scrolled to the end. */
const PINNED_THRESHOLD_PX = 80;
const HIGHLIGHT_MS = 1_500;

function Marker({ label, testId }: { label: string; testId: string }) {
  return (
    <Divider sx={{ my: 1.5, px: 2 }} data-testid={testId}>
      <Chip size="small" label={label} />
    </Divider>
  );
}

function DateSeparator({ date }: { date: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', my: 1 }} data-testid="date-separator">
      <Chip size="small" variant="outlined" label={formatDate(date)} sx={{ bgcolor: 'background.paper' }} />
    </Box>
  );
}

interface MessagesListProps {
  ticket: Ticket;
  /** No menus: the admins' peek at a pending ticket. */
  readOnly?: boolean;
  testId?: string;
}

/**
 * A ticket's conversation: newest page first from the API, shown oldest first, with date
 * separators, start/end markers, quoted replies and media. Older pages load near the top while
 * the scroll position is kept.
 */
export function MessagesList({ ticket, readOnly = false, testId = 'message-list' }: MessagesListProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const reply = useReply();
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);

  const query = useInfiniteQuery({
    queryKey: queryKeys.messages.list(ticket.id),
    queryFn: ({ pageParam }) => messagesApi.list(ticket.id, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: MessagesPage, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const messages = conversationOf(query.data);
  const firstId = messages[0]?.id;
  const last = messages.at(-1);

  const remove = useMutation({
    mutationFn: (message: Message) => messagesApi.remove(message.id),
    onSuccess: (deleted, message) => {
      const replacement = deleted && typeof deleted === 'object' ? deleted : { ...message, isDeleted: true };
      queryClient.setQueryData<MessagesData>(queryKeys.messages.list(ticket.id), (data) =>
        replaceMessages(data, [replacement]),
      );
    },
    onError: toastError,
  });
  const retry = useMutation({
    mutationFn: (message: Message) => messagesApi.retry(message.id),
    onSuccess: (pending) =>
      queryClient.setQueryData<MessagesData>(queryKeys.messages.list(ticket.id), (data) =>
        replaceMessages(data, [pending]),
      ),
    onError: toastError,
  });

  // Older page prepended: keep what the user was looking at in place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the oldest message changes
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !anchor.current) return;
    el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
    anchor.current = null;
  }, [firstId]);

  // New last message: follow it when the list was at the bottom or the message is ours.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest message changes
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || last === undefined) return;
    if (pinned.current || last.fromMe) {
      el.scrollTop = el.scrollHeight;
      pinned.current = true;
    }
  }, [last?.id]);

  // Media that finishes loading grows the content: stay at the bottom if we were there.
  useEffect(() => {
    const el = scrollRef.current;
    const content = contentRef.current;
    if (!el || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (pinned.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  // A first page too short to scroll: fetch older pages until it scrolls or there are none.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checked whenever the content changes
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !hasNextPage || isFetchingNextPage || el.scrollHeight === 0) return;
    if (el.scrollHeight <= el.clientHeight) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, messages.length]);

  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  function onScroll(event: UIEvent<HTMLDivElement>) {
    const el = event.currentTarget;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_THRESHOLD_PX;
    if (el.scrollTop < LOAD_OLDER_THRESHOLD_PX && hasNextPage && !isFetchingNextPage) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void fetchNextPage();
    }
  }

  function scrollToQuoted(id: number) {
    const target = scrollRef.current?.querySelector<HTMLElement>(`[data-message-id="${id}"]`);
    if (!target) return;
    target.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
    setHighlighted(id);
  }

  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      data-testid={testId}
      sx={(theme) => ({
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        bgcolor: theme.palette.mode === 'light' ? '#F3F0F8' : '#15121C',
        py: 1,
      })}
    >
      <Box ref={contentRef}>
        {(query.isPending || isFetchingNextPage) && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
        {query.isSuccess && !hasNextPage && (
          <Marker label={t('messages.conversationStart')} testId="conversation-start" />
        )}
        {messages.map((message, index) => {
          const previous = messages[index - 1];
          const newDay = !previous || !sameDay(new Date(previous.createdAt), new Date(message.createdAt));
          return (
            <Fragment key={message.id}>
              {newDay && <DateSeparator date={message.createdAt} />}
              {message.mediaType === 'transfer' ? (
                <Marker label={t('messages.transferred', { to: message.body })} testId="transfer-line" />
              ) : (
                <MessageItem
                  message={message}
                  showSender={ticket.isGroup}
                  readOnly={readOnly}
                  highlighted={highlighted === message.id}
                  onReply={(m) => reply?.setReplyingTo(m)}
                  onDelete={setDeleting}
                  onRetry={(m) => retry.mutate(m)}
                  onQuotedClick={scrollToQuoted}
                />
              )}
            </Fragment>
          );
        })}
        {ticket.status === 'closed' && query.isSuccess && (
          <Marker label={t('messages.conversationEnd')} testId="conversation-end" />
        )}
      </Box>
      <ConfirmationModal
        open={deleting !== null}
        title={t('messages.deleteTitle')}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t('messages.deleteMessage')}
      </ConfirmationModal>
    </Box>
  );
}
