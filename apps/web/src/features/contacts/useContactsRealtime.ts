import { companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyContactEvent, type ContactEvent, type ContactsData } from './contactsCache';

/** Keeps the contacts lists in step with `company-{id}-contact`. */
export function useContactsRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<ContactEvent>(companyEvent.contact(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<ContactsData>({ queryKey: queryKeys.contacts.lists })) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyContactEvent(data, event, searchParam));
    }
    if (event.contact) void queryClient.invalidateQueries({ queryKey: queryKeys.contacts.detail(event.contact.id) });
    if (event.action === 'delete' && event.contactId !== undefined) {
      queryClient.removeQueries({ queryKey: queryKeys.contacts.detail(event.contactId) });
    }
  });
}
