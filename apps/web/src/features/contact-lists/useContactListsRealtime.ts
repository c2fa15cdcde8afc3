import { companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import {
  applyContactListEvent,
  applyContactListItemEvent,
  type ContactListEvent,
  type ContactListItemEvent,
  type ContactListItemsData,
  type ContactListsData,
} from './contactListsCache';

/** Keeps the contact lists (and each list's detail) in step with `company-{id}-contactList`. */
export function useContactListsRealtime(onEvent?: (event: ContactListEvent) => void): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<ContactListEvent>(companyEvent.contactList(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<ContactListsData>({
      queryKey: queryKeys.contactLists.lists,
    })) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyContactListEvent(data, event, searchParam));
    }
    if (event.action === 'delete') queryClient.removeQueries({ queryKey: queryKeys.contactLists.detail(event.id) });
    else queryClient.setQueryData(queryKeys.contactLists.detail(event.record.id), event.record);
    onEvent?.(event);
  });
}

/** Keeps the items of the lists shown in step with `company-{id}-contactListItem`. */
export function useContactListItemsRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<ContactListItemEvent>(companyEvent.contactListItem(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<ContactListItemsData>({
      queryKey: queryKeys.contactListItems.all,
    })) {
      const contactListId = typeof key[1] === 'number' ? key[1] : Number.NaN;
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyContactListItemEvent(data, event, contactListId, searchParam));
    }
  });
}
