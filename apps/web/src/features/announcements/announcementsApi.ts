import type { Announcement, AnnouncementsPage } from '@balcao/shared';
import { http } from '../../api/client';

export interface AnnouncementBody {
  title: string;
  text: string;
  priority: number;
  status: boolean;
}

export const announcementsApi = {
  /** The super user's list (spec part 2 §7). */
  list: (searchParam: string, pageNumber: number) =>
    http.get<AnnouncementsPage>('/announcements', { searchParam, pageNumber }),
  /** The active ones, for everyone (the top bar). */
  active: (pageNumber: number) => http.get<AnnouncementsPage>('/announcements/active', { pageNumber }),
  create: (body: AnnouncementBody) => http.post<Announcement>('/announcements', body),
  update: (id: number, body: AnnouncementBody) => http.put<Announcement>(`/announcements/${id}`, body),
  remove: (id: number) => http.delete(`/announcements/${id}`),
  /** Multipart, field `file`. */
  uploadMedia: (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return http.postForm<Announcement>(`/announcements/${id}/media-upload`, form);
  },
  removeMedia: (id: number) => http.delete<Announcement>(`/announcements/${id}/media-upload`),
};
