import type { CrudAction, User } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { UsersPage } from './usersApi';

/** Payload of `company-{id}-user`. */
export interface UserEvent {
  action: CrudAction;
  user?: User;
  userId?: number;
}

export type UsersData = InfiniteData<UsersPage, number>;

function mapPages(data: UsersData, change: (users: User[]) => User[], countDelta: number): UsersData {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, users: change(page.users), count: page.count + countDelta })),
  };
}

/**
 * The users list after a live event: a created or updated user replaces its row or is added at
 * the top; a deleted one is removed. The total count follows.
 */
export function applyUserEvent(data: UsersData | undefined, event: UserEvent): UsersData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.users.some((u) => u.id === id));

  if (event.action === 'delete') {
    const id = event.userId ?? event.user?.id;
    if (id === undefined || !listed(id)) return data;
    return mapPages(data, (users) => users.filter((u) => u.id !== id), -1);
  }

  const { user } = event;
  if (!user) return data;
  if (listed(user.id)) return mapPages(data, (users) => users.map((u) => (u.id === user.id ? user : u)), 0);
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      users: index === 0 ? [user, ...page.users] : page.users,
      count: page.count + 1,
    })),
  };
}
