import type { User, UserInput, UserUpdate } from '@balcao/shared';
import { http } from '../../api/client';

export interface UsersPage {
  users: User[];
  count: number;
  hasMore: boolean;
}

export const usersApi = {
  list: (searchParam: string, pageNumber: number) => http.get<UsersPage>('/users', { searchParam, pageNumber }),
  show: (id: number) => http.get<User>(`/users/${id}`),
  create: (body: UserInput) => http.post<User>('/users', body),
  update: (id: number, body: UserUpdate) => http.put<User>(`/users/${id}`, body),
  remove: (id: number) => http.delete(`/users/${id}`),
  /** Beyond the spec: the picture of the profile dialog (PNG or JPEG, squared by the server). */
  uploadAvatar: (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return http.postForm<User>(`/users/${id}/avatar`, form);
  },
  removeAvatar: (id: number) => http.delete<User>(`/users/${id}/avatar`),
};
