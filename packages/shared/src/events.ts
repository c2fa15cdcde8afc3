/** Socket.IO event names of spec §7: `company-{id}-<topic>`. */
export const companyEvent = {
  user: (companyId: number) => `company-${companyId}-user`,
  auth: (companyId: number) => `company-${companyId}-auth`,
  settings: (companyId: number) => `company-${companyId}-settings`,
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  queue: (companyId: number) => `company-${companyId}-queue`,
  tag: (companyId: number) => `company-${companyId}-tag`,
  ticketTag: (companyId: number) => `company-${companyId}-ticketTag`,
  quickMessage: (companyId: number) => `company-${companyId}-quickmessage`,
} as const;

export const ANNOUNCEMENT_EVENT = 'company-announcement';

/** Rooms a socket may join; the server prefixes them with the socket's own company. */
export const clientRoomEvents = {
  joinChatBox: 'joinChatBox',
  joinNotification: 'joinNotification',
  joinTickets: 'joinTickets',
  userStatus: 'userStatus',
} as const;

export type CrudAction = 'create' | 'update' | 'delete';

export interface AuthEventPayload {
  action: 'logout';
  user: { id: number };
  /** The session id that stays valid; every other socket of this user logs out. */
  sessionId: string;
}
