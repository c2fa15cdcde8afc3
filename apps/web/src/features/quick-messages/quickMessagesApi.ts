import type { QuickMessage } from '@balcao/shared';
import { http } from '../../api/client';
import { authFetch } from './authFetch';

export interface QuickMessagesPage {
  records: QuickMessage[];
  count: number;
  hasMore: boolean;
}

export interface QuickMessageBody {
  shortcode: string;
  message: string;
  geral: boolean;
}

export const quickMessagesApi = {
  list: (searchParam: string, pageNumber: number) =>
    http.get<QuickMessagesPage>('/quick-messages', { searchParam, pageNumber }),
  show: (id: number) => http.get<QuickMessage>(`/quick-messages/${id}`),
  create: (body: QuickMessageBody) => http.post<QuickMessage>('/quick-messages', body),
  update: (id: number, body: QuickMessageBody) => http.put<QuickMessage>(`/quick-messages/${id}`, body),
  remove: (id: number) => http.delete(`/quick-messages/${id}`),
  /** Multipart, field `file` (with `typeArch` as the original client sends). */
  uploadMedia: async (id: number, file: File): Promise<QuickMessage> => {
    const form = new FormData();
    form.append('typeArch', 'quickMessage');
    form.append('file', file, file.name);
    const response = await authFetch(`/quick-messages/${id}/media-upload`, { method: 'POST', body: form });
    return (await response.json()) as QuickMessage;
  },
  removeMedia: (id: number) => http.delete<QuickMessage>(`/quick-messages/${id}/media-upload`),
};
