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
};
