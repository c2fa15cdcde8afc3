import type { Tag } from '@balcao/shared';
import { http } from '../../api/client';

export interface TagsPage {
  tags: Tag[];
  count: number;
  hasMore: boolean;
}

export interface TagBody {
  name: string;
  color: string;
  kanban: number;
}

export const tagsApi = {
  list: (searchParam: string, pageNumber: number) => http.get<TagsPage>('/tags', { searchParam, pageNumber }),
  show: (id: number) => http.get<Tag>(`/tags/${id}`),
  create: (body: TagBody) => http.post<Tag>('/tags', body),
  update: (id: number, body: TagBody) => http.put<Tag>(`/tags/${id}`, body),
  remove: (id: number) => http.delete(`/tags/${id}`),
};
