import type { Queue } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** The company's queues (GET /queue). */
export function useQueues(enabled = true) {
  return useQuery({ queryKey: queryKeys.queues, queryFn: () => http.get<Queue[]>('/queue'), enabled });
}
