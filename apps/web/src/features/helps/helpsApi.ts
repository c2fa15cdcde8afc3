import type { Help, HelpUpdate, helpInput } from '@balcao/shared';
import type { z } from 'zod';
import { http } from '../../api/client';

export type HelpBody = z.input<typeof helpInput>;

/** Help videos (spec part 2 §7 "Help"): everyone reads the list, the super user edits it. */
export const helpsApi = {
  list: () => http.get<Help[]>('/helps/list'),
  create: (body: HelpBody) => http.post<Help>('/helps', body),
  update: (id: number, body: HelpUpdate) => http.put<Help>(`/helps/${id}`, body),
  remove: (id: number) => http.delete(`/helps/${id}`),
};
