/**
 * Socket.IO event names `company-{id}-<topic>`. Spec part 1 §7 names user, auth, whatsapp,
 * whatsappSession, ticket, appMessage and contact; part 2 §7 names user, contact, queue, contact
 * list, list item, quick message, payment, ticketTag, campaign, file and queueIntegration. `settings`
 * and `tag` are additions of ours (README, "Live events"). Lists follow spec part 2 §4: `create`,
 * `update`, `delete`.
 */
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
  quickMessage: (companyId: number) => `company-${companyId}-quickmessage`,
  /**
   * Spec part 2 §7's "'user' channel" of schedules, `{action, schedules, scheduleId}`. Its own name:
   * on `company-{id}-user` the users' lists would read schedules as users (README, "Live events").
   */
  schedule: (companyId: number) => `company-${companyId}-schedule`,
  file: (companyId: number) => `company-${companyId}-file`,
  contactList: (companyId: number) => `company-${companyId}-contactList`,
  contactListItem: (companyId: number) => `company-${companyId}-contactListItem`,
  /** Ours: an import's progress, to its uploader only (DOMAIN §12). */
  contactImport: (companyId: number) => `company-${companyId}-contactImport`,
  /**
   * Internal chat (DOMAIN §14), emitted to the members' user rooms only: a chat as one member sees
   * it (create, update with unreads, delete), and a chat's new messages. `chat` is spec part 1 §7's
   * `company-{id}-chat` (`new-message`, `update`): the same pushes under one name per company, for
   * clients that listen to it, still to the members alone (never company-wide).
   */
  chat: (companyId: number) => `company-${companyId}-chat`,
  chatUser: (companyId: number, userId: number) => `company-${companyId}-chat-user-${userId}`,
  chatRoom: (companyId: number, chatId: number) => `company-${companyId}-chat-${chatId}`,
  /** Kanban moves, `TicketTagEvent` (schemas/kanban.ts), to the ticket's audience (DOMAIN §13). */
  ticketTag: (companyId: number) => `company-${companyId}-ticketTag`,
  // Of modules still to be built; named here so that they emit what the client will listen to.
  payment: (companyId: number) => `company-${companyId}-payment`,
  campaign: (companyId: number) => `company-${companyId}-campaign`,
  queueIntegration: (companyId: number) => `company-${companyId}-queueIntegration`,
} as const;

/** The `companyEvent` names that take the company id alone (the chat's also name a user or a chat). */
export type CompanyTopic = {
  [K in keyof typeof companyEvent]: (typeof companyEvent)[K] extends (companyId: number) => string ? K : never;
}[keyof typeof companyEvent];

/** Spec part 2 §7: announcements are platform-wide, so the name carries no company id. */
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
