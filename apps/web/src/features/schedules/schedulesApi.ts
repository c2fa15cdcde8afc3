import type { Contact, Schedule, ScheduleRecurrence } from '@balcao/shared';
import { http } from '../../api/client';

export interface SchedulesPage {
  schedules: Schedule[];
  count: number;
  hasMore: boolean;
}

export interface ScheduleBody {
  body: string;
  contactId: number;
  /** An ISO instant. */
  sendAt: string;
  whatsappId: number | null;
  recurrence: ScheduleRecurrence;
  cancelIfReplied: boolean;
}

/** Spec part 2 §7, the schedules calls. */
export const schedulesApi = {
  list: (search: string, page: number) => http.get<SchedulesPage>('/schedules', { search, page }),
  show: (id: number) => http.get<Schedule>(`/schedules/${id}`),
  create: (body: ScheduleBody) => http.post<Schedule>('/schedules', body),
  update: (id: number, body: ScheduleBody) => http.put<Schedule>(`/schedules/${id}`, body),
  remove: (id: number) => http.delete(`/schedules/${id}`),
  /** Multipart, field `file`. */
  uploadMedia: (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return http.postForm<Schedule>(`/schedules/${id}/media-upload`, form);
  },
  removeMedia: (id: number) => http.delete<Schedule>(`/schedules/${id}/media-upload`),
  /** The contact a `?contactId=` link names. */
  contact: (id: number) => http.get<Contact>(`/contacts/${id}`),
};
