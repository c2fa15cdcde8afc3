import type { QuickMessage } from '@balcao/shared';
import { http } from '../../api/client';

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
  uploadMedia: (id: number, file: File) => {
    const form = new FormData();
    form.append('typeArch', 'quickMessage');
    form.append('file', file, file.name);
    return http.postForm<QuickMessage>(`/quick-messages/${id}/media-upload`, form);
  },
  removeMedia: (id: number) => http.delete<QuickMessage>(`/quick-messages/${id}/media-upload`),
};
