import type { Message, QuickMessage } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { backendUrl } from '../../api/config';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { getToken } from '../../api/session';

export interface MessagesPage {
  messages: Message[];
  count: number;
  hasMore: boolean;
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: Record<string, unknown> = { message: text };
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: keep the text
  }
  return new ApiError(response.status, body);
}

async function isTokenRefusal(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return body?.error === undefined || body.error === 'ERR_INVALID_TOKEN';
  } catch {
    return true;
  }
}

/**
 * A request the JSON client cannot make (multipart uploads, files as blobs), with the same auth
 * rules: bearer token, one refresh and retry on a token 403, the session ends on a 401.
 */
export async function authFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const send = () => {
    const headers = new Headers(init.headers);
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return globalThis.fetch(`${backendUrl()}${path}`, { ...init, headers, credentials: 'include' });
  };
  let response = await send();
  if (response.status === 403 && (await isTokenRefusal(response))) {
    try {
      await http.refreshSession();
    } catch {
      const denied = await errorOf(response);
      http.endSession();
      throw denied;
    }
    response = await send();
  }
  if (response.status === 401) {
    const unauthorized = await errorOf(response);
    http.endSession();
    throw unauthorized;
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

export interface SendInput {
  body: string;
  quotedMsg?: { id: number } | null;
}

export const messagesApi = {
  list: (ticketId: number, pageNumber: number) => http.get<MessagesPage>(`/messages/${ticketId}`, { pageNumber }),
  send: (ticketId: number, { body, quotedMsg }: SendInput) =>
    http.post<Message[]>(`/messages/${ticketId}`, quotedMsg ? { body, quotedMsg } : { body }),
  /** Multipart: the files as `medias`, the caption as `body`, the quoted message as JSON. */
  sendMedia: async (ticketId: number, files: File[], { body, quotedMsg }: SendInput): Promise<Message[]> => {
    const form = new FormData();
    for (const file of files) form.append('medias', file, file.name);
    form.append('body', body);
    if (quotedMsg) form.append('quotedMsg', JSON.stringify({ id: quotedMsg.id }));
    const response = await authFetch(`/messages/${ticketId}`, { method: 'POST', body: form });
    return (await response.json()) as Message[];
  },
  remove: (id: number) => http.delete<Message | undefined>(`/messages/${id}`),
  /** A media file of a message (not public): fetched with the token. */
  media: async (url: string): Promise<Blob> => (await authFetch(url)).blob(),
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
