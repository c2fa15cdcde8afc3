import { companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyQuickMessageEvent, type QuickMessageEvent, type QuickMessagesData } from './quickMessagesCache';

/** Keeps the quick messages lists in step with `company-{id}-quickmessage`. */
export function useQuickMessagesRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<QuickMessageEvent>(companyEvent.quickMessage(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<QuickMessagesData>({
      queryKey: queryKeys.quickMessages.lists,
    })) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyQuickMessageEvent(data, event, me.id, searchParam));
    }
  });
}
