import { companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSocketEvent } from '../../app/RealtimeProvider';
import type { AppMessagePayload } from '../tickets/ticketsCache';
import { appendMessages, type MessagesData, replaceMessages } from './messagesCache';

/** Keeps loaded conversations in step with `company-{id}-appMessage` (create appends, update replaces). */
export function useMessagesRealtime(companyId: number): void {
  const queryClient = useQueryClient();
  useSocketEvent<AppMessagePayload>(companyEvent.appMessage(companyId), ({ action, message }) => {
    if (!message) return;
    queryClient.setQueryData<MessagesData>(queryKeys.messages.list(message.ticketId), (data) =>
      action === 'create' ? appendMessages(data, [message]) : replaceMessages(data, [message]),
    );
  });
}
