import { companyEvent, type SessionUser, type Ticket, type TicketEvent } from '@balcao/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { queryKeys } from '../../api/queryKeys';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { useInfiniteList } from '../../components/useInfiniteList';
import { plainText } from '../messages/content';
import { showDesktopNotice } from '../notifications/desktop';
import { playBeep } from '../notifications/sound';
import { ticketsApi } from './ticketsApi';
import { type AppMessagePayload, findTicket, placeTicket, type TicketsData, ticketOfPayload } from './ticketsCache';

/** The ticket on screen: its contact messages do not call for attention while the page is visible. */
function createViewingStore() {
  let viewing: number | null = null;
  return {
    setViewing(ticketId: number | null) {
      viewing = ticketId;
    },
    viewing: () => viewing,
  };
}

export const ticketNotifications = createViewingStore();

/** Whose bell it is: the queues they serve and whether they see tickets without a queue (spec §3 allTicket). */
export interface BellViewer {
  userId: number;
  admin: boolean;
  queueIds: number[];
  seesNoQueue: boolean;
}

export function bellViewerOf(user: Pick<SessionUser, 'id' | 'profile' | 'queues' | 'allTicket'>): BellViewer {
  const admin = user.profile === 'admin';
  return {
    userId: user.id,
    admin,
    queueIds: user.queues.map((q) => q.id),
    seesNoQueue: admin || user.allTicket === 'enable',
  };
}

/**
 * The bell lists what the server lists for it (pending tickets with unread messages the user may
 * see, tickets.access on the server): a pending ticket in one of the user's queues, assigned to
 * them, or without a queue for those who see such tickets.
 */
export function inBell(ticket: Ticket, viewer: BellViewer): boolean {
  if (ticket.status !== 'pending' || ticket.unreadMessages <= 0) return false;
  if (viewer.admin || ticket.userId === viewer.userId) return true;
  return ticket.queueId === null ? viewer.seesNoQueue : viewer.queueIds.includes(ticket.queueId);
}

/** A ticket calls for attention when it enters the bell or brings more unread messages to it. */
export function isNews(previous: Ticket | undefined, next: Ticket, viewer: BellViewer): boolean {
  return inBell(next, viewer) && (!previous || next.unreadMessages > previous.unreadMessages);
}

/** Another user handed this ticket to `userId` (the server names the receiver of a transfer). */
export function isTransferredTo(event: TicketEvent, userId: number): boolean {
  return event.action === 'update' && event.transferredTo === userId;
}

/**
 * A contact message outside the bell (an open ticket) calls for attention when its ticket is the
 * user's and is not the one on screen, or the page is hidden.
 */
export function shouldNotify(
  payload: AppMessagePayload,
  userId: number,
  viewing: number | null,
  visible: boolean,
): boolean {
  if (payload.action !== 'create' || payload.message.fromMe) return false;
  const ticket = ticketOfPayload(payload);
  if (ticket?.userId != null && ticket.userId !== userId) return false;
  return payload.message.ticketId !== viewing || !visible;
}

/** The bell's list (GET /tickets pending with unread), shared by its badge, the title and the popover. */
export function useBellList() {
  return useInfiniteList(queryKeys.tickets.notifications, ticketsApi.notifications);
}

/** The number of tickets in the bell's list: its badge and the tab title's count. */
export function useNotificationCount(): number {
  return useBellList().data?.pages[0]?.count ?? 0;
}

function bellTicket(queryClient: QueryClient, id: number): Ticket | undefined {
  return findTicket(queryClient.getQueryData<TicketsData>(queryKeys.tickets.notifications), id);
}

function patchBell(queryClient: QueryClient, change: (data: TicketsData) => TicketsData): void {
  queryClient.setQueryData<TicketsData>(queryKeys.tickets.notifications, (data) => data && change(data));
}

/**
 * Keeps the bell in step with the live channel and alerts (beep at the chosen volume and an OS
 * notice that opens the ticket) for a ticket reaching the user — routed by the bot, transferred
 * or written to directly — and for new contact messages (spec §2 notifications). Mounted once.
 */
export function useTicketNotifications(user: SessionUser): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewer = bellViewerOf(user);

  const alert = (ticket: Pick<Ticket, 'id' | 'uuid' | 'contact' | 'lastMessage'>) => {
    playBeep();
    showDesktopNotice({
      tag: `ticket-${ticket.id}`,
      title: ticket.contact.name,
      body: plainText(ticket.lastMessage),
      onClick: () => navigate(`/tickets/${ticket.uuid}`),
    });
  };

  const receive = (ticket: Ticket) => {
    const previous = bellTicket(queryClient, ticket.id);
    patchBell(queryClient, (data) => placeTicket(data, ticket, inBell(ticket, viewer)));
    if (isNews(previous, ticket, viewer)) alert(ticket);
  };

  const remove = (ticketId: number) => {
    const listed = bellTicket(queryClient, ticketId);
    if (listed) patchBell(queryClient, (data) => placeTicket(data, listed, false));
  };

  useSocketEvent<TicketEvent>(companyEvent.ticket(user.companyId), (event) => {
    if (event.action === 'update' && event.ticket) receive(event.ticket);
    // Handed straight to this user (open or not yet unread): not in the bell, yet news to them.
    if (event.ticket && isTransferredTo(event, user.id) && !inBell(event.ticket, viewer)) alert(event.ticket);
    const id = event.ticketId ?? event.ticket?.id;
    if ((event.action === 'delete' || event.action === 'updateUnread') && id !== undefined) remove(id);
  });

  useSocketEvent<AppMessagePayload>(companyEvent.appMessage(user.companyId), (payload) => {
    if (payload.action !== 'create' || payload.message.fromMe) return;
    const ticket = ticketOfPayload(payload);
    if (ticket?.status === 'pending') return receive(ticket);
    const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden';
    if (ticket && shouldNotify(payload, user.id, ticketNotifications.viewing(), visible)) alert(ticket);
  });
}
