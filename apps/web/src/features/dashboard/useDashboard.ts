import {
  companyEvent,
  DASHBOARD_FIRST_LOAD_MS,
  DASHBOARD_LIVE_DEBOUNCE_MS,
  type DashboardQuery,
  type DashboardReply,
  type User,
} from '@balcao/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { dashboardApi } from './dashboardApi';

interface UserEvent {
  action: 'create' | 'update' | 'delete';
  user?: User;
}

/** An attendant's name, picture and presence as a live user event gives them. */
export function withUser(data: DashboardReply | undefined, user: User): DashboardReply | undefined {
  if (!data?.attendants.some((a) => a.id === user.id)) return data;
  return {
    ...data,
    attendants: data.attendants.map((a) =>
      a.id === user.id ? { ...a, name: user.name, avatar: user.avatar, online: user.online } : a,
    ),
  };
}

/**
 * The dashboard of the applied period: first read after the spec's 1 s, then again whenever tickets
 * move (accepted, closed, new…), at most once per `DASHBOARD_LIVE_DEBOUNCE_MS` however busy the
 * company is. Attendants go online and offline from the user events, without a new read.
 */
export function useDashboard(query: DashboardQuery) {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const [started, setStarted] = useState(false);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => setStarted(true), DASHBOARD_FIRST_LOAD_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(pending.current);
    };
  }, []);

  const refetchSoon = () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard.all });
    }, DASHBOARD_LIVE_DEBOUNCE_MS);
  };

  useSocketEvent(companyEvent.ticket(me.companyId), refetchSoon);
  useSocketEvent<UserEvent>(companyEvent.user(me.companyId), (event) => {
    const { user } = event;
    if (event.action === 'update' && user) {
      queryClient.setQueriesData<DashboardReply>({ queryKey: queryKeys.dashboard.all }, (data) => withUser(data, user));
    } else refetchSoon();
  });

  return useQuery({
    queryKey: queryKeys.dashboard.period(query),
    queryFn: () => dashboardApi.get(query),
    enabled: started,
    // A new period keeps the previous figures on screen until its own arrive.
    placeholderData: keepPreviousData,
    // Spec part 2 §8: a dashboard load error is logged, not toasted (the page says it in place).
    meta: { silent: true },
  });
}
