import { companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyTagEvent, type TagEvent, type TagsData } from './tagsCache';

/** Keeps the tags lists in step with `company-{id}-tag`. */
export function useTagsRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<TagEvent>(companyEvent.tag(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<TagsData>({ queryKey: queryKeys.tags.lists })) {
      queryClient.setQueryData(key, applyTagEvent(data, event, typeof key[2] === 'string' ? key[2] : ''));
    }
  });
}
