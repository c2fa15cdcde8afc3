import { companyEvent, type QueueIntegration } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import {
  applyQueueIntegrationEvent,
  applyQueueIntegrationOptionEvent,
  type QueueIntegrationEvent,
  type QueueIntegrationsData,
} from './queueIntegrationsCache';

/** Keeps the integrations lists (and the pickers' list) in step with `company-{id}-queueIntegration`. */
export function useQueueIntegrationsRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<QueueIntegrationEvent>(companyEvent.queueIntegration(me.companyId), (event) => {
    const lists = queryClient.getQueriesData<QueueIntegrationsData>({ queryKey: queryKeys.queueIntegrations.lists });
    for (const [key, data] of lists) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyQueueIntegrationEvent(data, event, searchParam));
    }
    queryClient.setQueryData<QueueIntegration[]>(queryKeys.queueIntegrations.options, (list) =>
      applyQueueIntegrationOptionEvent(list, event),
    );
  });
}
