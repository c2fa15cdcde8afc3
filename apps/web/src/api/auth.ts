import type { SessionReply, SessionUser } from '@balcao/shared';
import { http } from './client';

export const authApi = {
  login: (email: string, password: string) =>
    http.post<SessionReply>('/auth/login', { email, password }, { auth: false }),
  logout: () => http.delete('/auth/logout'),
  me: () => http.get<SessionUser>('/auth/me'),
  refresh: () => http.refreshSession(),
};
