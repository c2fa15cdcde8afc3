import { companyEvent, type ScheduleEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyScheduleEvent, type SchedulesData } from './schedulesCache';

/** Keeps the schedules lists in step with `company-{id}-schedule`. */
export function useSchedulesLive(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<ScheduleEvent>(companyEvent.schedule(me.companyId), (event) => {
    for (const [key, data] of queryClient.getQueriesData<SchedulesData>({ queryKey: queryKeys.schedules.lists })) {
      const searchParam = typeof key[2] === 'string' ? key[2] : '';
      queryClient.setQueryData(key, applyScheduleEvent(data, event, searchParam));
    }
  });
}
