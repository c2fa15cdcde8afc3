import type { Contact, Message, Ticket, TicketEvent } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { TicketListFilter, TicketsPage } from './ticketsApi';

export type TicketsData = InfiniteData<TicketsPage>;

/** Who looks at the lists: the rules of spec §4 differ for admins and plain users. */
export interface Viewer {
  userId: number;
  admin: boolean;
  /** Admins and users with `allTicket` enabled see tickets without a queue (the server's rule). */
  seesNoQueue: boolean;
}

/** `company-{id}-appMessage` payload. */
export interface AppMessagePayload {
  action: 'create' | 'update';
  message: Message;
  ticket?: unknown;
  contact?: unknown;
}

/** `company-{id}-contact` payload. */
export interface ContactEvent {
  action: 'update' | 'delete' | 'create';
  contact?: Partial<Contact> & { id: number };
  contactId?: number;
}

type Fit = 'yes' | 'no' | 'unknown';

/**
 * Whether a ticket belongs in a list, by the rules of spec §4: its status must be the list's, its
 * queue among the selected ones (a ticket without a queue only for a viewer who sees those), and an open
 * ticket of another user shows only with show-all (admins). A text search cannot be judged here:
 * such a list only refreshes the tickets it already holds.
 */
export function ticketFits(ticket: Ticket, filter: TicketListFilter, viewer: Viewer): Fit {
  if (filter.status && ticket.status !== filter.status) return 'no';
  if (ticket.queueId === null) {
    if (!viewer.seesNoQueue) return 'no';
  } else if (!filter.queueIds.includes(ticket.queueId)) return 'no';
  if (ticket.status === 'open' && !(filter.showAll && viewer.admin) && ticket.userId !== viewer.userId) return 'no';
  if (filter.users?.length && (ticket.userId === null || !filter.users.includes(ticket.userId))) return 'no';
  if (filter.tags?.length && !ticket.tags.some((tag) => filter.tags?.includes(tag.id))) return 'no';
  if (filter.searchParam) return 'unknown';
  return 'yes';
}

export function findTicket(data: TicketsData | undefined, id: number): Ticket | undefined {
  for (const page of data?.pages ?? []) {
    const found = page.tickets.find((t) => t.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The pages without the ticket, optionally with `top` first; counts move by `countDelta`. */
function rebuild(data: TicketsData, removeId: number, top: Ticket | null, countDelta: number): TicketsData {
  return {
    ...data,
    pages: data.pages.map((page, index) => {
      const rest = page.tickets.filter((t) => t.id !== removeId);
      return {
        ...page,
        tickets: index === 0 && top ? [top, ...rest] : rest,
        count: Math.max(0, page.count + countDelta),
      };
    }),
  };
}

function mapTickets(data: TicketsData, change: (ticket: Ticket) => Ticket): TicketsData {
  return { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.map(change) })) };
}

/**
 * A list after a ticket changed: replaced and moved to the top when it fits the list, added at
 * the top when it is new to it, removed when it no longer fits. `count` follows.
 */
export function applyTicketUpdate(
  data: TicketsData | undefined,
  ticket: Ticket,
  filter: TicketListFilter,
  viewer: Viewer,
): TicketsData | undefined {
  if (!data) return data;
  const fit = ticketFits(ticket, filter, viewer);
  if (fit === 'unknown' && !findTicket(data, ticket.id)) return data;
  return placeTicket(data, ticket, fit !== 'no');
}

/** A list with the ticket at the top when `keep`, without it otherwise; `count` follows. */
export function placeTicket(data: TicketsData, ticket: Ticket, keep: boolean): TicketsData {
  const listed = findTicket(data, ticket.id) !== undefined;
  if (!keep) return listed ? rebuild(data, ticket.id, null, -1) : data;
  return rebuild(data, ticket.id, ticket, listed ? 0 : 1);
}

/**
 * Whether a ticket update may bring a ticket back into the user's view: its status, queue or user
 * changed, or it was not known here. Events of a ticket outside the view never reached this
 * client (spec §4 rooms), so its cached conversation may miss messages.
 */
export function entersView(previous: Ticket | undefined, next: Ticket): boolean {
  return (
    !previous || previous.status !== next.status || previous.queueId !== next.queueId || previous.userId !== next.userId
  );
}

export function applyTicketDelete(data: TicketsData | undefined, ticketId: number): TicketsData | undefined {
  if (!data || !findTicket(data, ticketId)) return data;
  return rebuild(data, ticketId, null, -1);
}

export function applyUnreadReset(data: TicketsData | undefined, ticketId: number): TicketsData | undefined {
  if (!data || !findTicket(data, ticketId)) return data;
  return mapTickets(data, (t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t));
}

/** One `company-{id}-ticket` event applied to one list. */
export function applyTicketEvent(
  data: TicketsData | undefined,
  event: TicketEvent,
  filter: TicketListFilter,
  viewer: Viewer,
): TicketsData | undefined {
  if (event.action === 'update' && event.ticket) return applyTicketUpdate(data, event.ticket, filter, viewer);
  const id = event.ticketId ?? event.ticket?.id;
  if (id === undefined) return data;
  if (event.action === 'delete') return applyTicketDelete(data, id);
  if (event.action === 'updateUnread') return applyUnreadReset(data, id);
  return data;
}

/** The ticket carried by an appMessage event, when the server sent a whole one. */
export function ticketOfPayload(payload: AppMessagePayload): Ticket | undefined {
  const t = payload.ticket as Partial<Ticket> | undefined;
  if (t && typeof t === 'object' && typeof t.id === 'number' && typeof t.uuid === 'string' && t.status && t.contact)
    return t as Ticket;
  return undefined;
}

/** Text shown as a ticket's last message for a new message. */
export function previewOf(message: Pick<Message, 'body' | 'mediaName'>): string {
  return message.body || message.mediaName || '';
}

/**
 * A list after a new message: its ticket moves to the top with the new last message and unread
 * count. A whole ticket in the payload is taken as it is (it already counts the message);
 * otherwise the listed ticket is bumped here.
 */
export function applyMessageCreate(
  data: TicketsData | undefined,
  payload: AppMessagePayload,
  filter: TicketListFilter,
  viewer: Viewer,
): TicketsData | undefined {
  if (!data || payload.action !== 'create') return data;
  const ticket = ticketOfPayload(payload);
  if (ticket) {
    const merged = { ...ticket, lastMessage: ticket.lastMessage || previewOf(payload.message) };
    return applyTicketUpdate(data, merged, filter, viewer);
  }
  const listed = findTicket(data, payload.message.ticketId);
  if (!listed) return data;
  const bumped: Ticket = {
    ...listed,
    lastMessage: previewOf(payload.message),
    unreadMessages: listed.unreadMessages + (payload.message.fromMe ? 0 : 1),
    updatedAt: payload.message.createdAt,
  };
  return rebuild(data, listed.id, bumped, 0);
}

/** Refreshes the contact inside every listed ticket of that contact. */
export function applyContactUpdate(
  data: TicketsData | undefined,
  contact: Partial<Contact> & { id: number },
): TicketsData | undefined {
  if (!data?.pages.some((p) => p.tickets.some((t) => t.contactId === contact.id))) return data;
  return mapTickets(data, (t) => (t.contactId === contact.id ? withContact(t, contact) : t));
}

/** The ticket with the changed contact fields merged in. */
export function withContact(ticket: Ticket, contact: Partial<Contact>): Ticket {
  const { name, number, email, profilePicUrl, isGroup, uuid } = { ...ticket.contact, ...contact };
  return { ...ticket, contact: { ...ticket.contact, name, number, email, profilePicUrl, isGroup, uuid } };
}
