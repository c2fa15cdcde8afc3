import type { Message, QuickMessage } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export interface MessagesPage {
  messages: Message[];
  count: number;
  hasMore: boolean;
}

export interface SendInput {
  body: string;
  quotedMsg?: { id: number } | null;
  /** The quick reply whose file goes along (the server renders the body's variables either way). */
  quickMessageId?: number;
}

export const messagesApi = {
  list: (ticketId: number, pageNumber: number) => http.get<MessagesPage>(`/messages/${ticketId}`, { pageNumber }),
  send: (ticketId: number, { body, quotedMsg, quickMessageId }: SendInput) =>
    http.post<Message[]>(`/messages/${ticketId}`, {
      body,
      ...(quotedMsg ? { quotedMsg } : {}),
      ...(quickMessageId ? { quickMessageId } : {}),
    }),
  /** Multipart: the files as `medias`, the caption as `body`, the quoted message as JSON. */
  sendMedia: (ticketId: number, files: File[], { body, quotedMsg, quickMessageId }: SendInput) => {
    const form = new FormData();
    for (const file of files) form.append('medias', file, file.name);
    form.append('body', body);
    if (quotedMsg) form.append('quotedMsg', JSON.stringify({ id: quotedMsg.id }));
    if (quickMessageId) form.append('quickMessageId', String(quickMessageId));
    return http.postForm<Message[]>(`/messages/${ticketId}`, form);
  },
  remove: (id: number) => http.delete<Message | undefined>(`/messages/${id}`),
  /** A file list's message and files sent into the ticket (beyond the spec, DOMAIN §15). */
  sendFileList: (ticketId: number, fileListId: number) =>
    http.post<Message[]>(`/messages/${ticketId}/file-list/${fileListId}`, {}),
  /** A failed message back to the outbox (beyond the spec). */
  retry: (id: number) => http.post<Message>(`/messages/${id}/retry`, {}),
  /** A media file of a message (not public): fetched with the token. */
  media: (url: string) => http.getBlob(url),
};

/** GET /quick-messages/list: every quick reply the user may use. */
export function useQuickReplies(enabled = true) {
  return useQuery({
    queryKey: queryKeys.messages.quickReplies,
    queryFn: () => http.get<QuickMessage[]>('/quick-messages/list'),
    enabled,
    staleTime: 60_000,
  });
}
