import { ANNOUNCEMENT_EVENT, type AnnouncementEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { type AnnouncementsData, applyAnnouncementEvent } from './announcementsCache';

/**
 * Patches cached announcement lists from `company-announcement`: the top bar's list of active ones
 * (`active`, mounted for every user) or the super user's page lists (`lists`).
 */
export function useAnnouncementsLive(scope: 'active' | 'lists'): void {
  const queryClient = useQueryClient();
  useSocketEvent<AnnouncementEvent>(ANNOUNCEMENT_EVENT, (event) => {
    if (scope === 'active') {
      queryClient.setQueryData<AnnouncementsData>(queryKeys.announcements.active, (data) =>
        applyAnnouncementEvent(data, event, { activeOnly: true }),
      );
      return;
    }
    for (const [key, data] of queryClient.getQueriesData<AnnouncementsData>({
      queryKey: queryKeys.announcements.lists,
    })) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyAnnouncementEvent(data, event, { activeOnly: false, searchParam }));
    }
  });
}
