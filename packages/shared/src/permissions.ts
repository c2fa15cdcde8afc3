/** The permission rules table of spec §6, read by the server and by `<Can>` in the web. */
export type Profile = 'admin' | 'user';

export const rules: Record<Profile, readonly string[]> = {
  user: [],
  admin: [
    'dashboard:view',
    'drawer-admin-items:view',
    'tickets-manager:showall',
    'user-modal:editProfile',
    'user-modal:editQueues',
    'ticket-options:deleteTicket',
    'contacts-page:deleteContact',
    'connections-page:actionButtons',
    'connections-page:addConnection',
    'connections-page:editOrDeleteConnection',
    'users:manage',
    'settings:edit',
  ],
};

export function can(profile: string | undefined, action: string): boolean {
  const key = (profile ?? '').toLowerCase() as Profile;
  return rules[key]?.includes(action) ?? false;
}
