import type { Queue, QueueInput, QueueOption } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** The company's queues (GET /queue). */
export function useQueues(enabled = true) {
  return useQuery({ queryKey: queryKeys.queues, queryFn: () => http.get<Queue[]>('/queue'), enabled });
}

export interface QueueOptionInput {
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
}

export const queuesApi = {
  list: () => http.get<Queue[]>('/queue'),
  show: (id: number) => http.get<Queue>(`/queue/${id}`),
  create: (body: QueueInput) => http.post<Queue>('/queue', body),
  update: (id: number, body: QueueInput) => http.put<Queue>(`/queue/${id}`, body),
  remove: (id: number) => http.delete(`/queue/${id}`),
};

/** The options tree of a queue's chatbot, one level at a time (GET /queue-options). */
export const queueOptionsApi = {
  list: (queueId: number, parentId: number | null) =>
    http.get<QueueOption[]>('/queue-options', { queueId, parentId: parentId ?? undefined }),
  create: (body: QueueOptionInput) => http.post<QueueOption>('/queue-options', body),
  update: (id: number, body: { title: string; message: string }) => http.put<QueueOption>(`/queue-options/${id}`, body),
  /** The server renumbers the siblings after the deleted option. */
  remove: (id: number) => http.delete(`/queue-options/${id}`),
};
