import { companyEvent, type Queue } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyQueueEvent, type QueueEvent } from './queuesCache';

/** Keeps the queues list in step with `company-{id}-queue`. */
export function useQueuesRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<QueueEvent>(companyEvent.queue(me.companyId), (event) => {
    queryClient.setQueryData<Queue[]>(queryKeys.queues, (list) => applyQueueEvent(list, event));
    if (event.action === 'delete' && event.queueId !== undefined) {
      queryClient.removeQueries({ queryKey: ['queueOptions', event.queueId] });
    }
  });
}
