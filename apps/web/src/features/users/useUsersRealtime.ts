import { companyEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useAuth, useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyUserEvent, type UserEvent, type UsersData } from './usersCache';

/** Keeps the users lists (and the session user) in step with `company-{id}-user`. */
export function useUsersRealtime(): void {
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const queryClient = useQueryClient();

  useSocketEvent<UserEvent>(companyEvent.user(me.companyId), (event) => {
    queryClient.setQueriesData<UsersData>({ queryKey: queryKeys.users.lists }, (data) => applyUserEvent(data, event));
    if (event.user) queryClient.setQueryData(queryKeys.users.detail(event.user.id), event.user);
    if (event.action === 'update' && event.user?.id === me.id) updateUser(event.user);
  });
}
