import { companyEvent, type Ticket, type TicketEvent } from '@balcao/shared';
import { type QueryClient, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { type TicketListFilter, type TicketsPage, ticketsApi } from './ticketsApi';
import {
  type AppMessagePayload,
  applyContactUpdate,
  applyMessageCreate,
  applyTicketEvent,
  applyTicketUpdate,
  type ContactEvent,
  entersView,
  findTicket,
  type TicketsData,
  ticketOfPayload,
  type Viewer,
  withContact,
} from './ticketsCache';

/** One ticket list, page by page (GET /tickets). */
export function useTicketsList(filter: TicketListFilter, enabled = true) {
  return useInfiniteQuery({
    queryKey: queryKeys.tickets.list(filter),
    queryFn: ({ pageParam }) => ticketsApi.list(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: TicketsPage, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

/** The tickets of a list's loaded pages, once each (pages may overlap after live changes). */
export function listedTickets(data: TicketsData | undefined): Ticket[] {
  const seen = new Set<number>();
  const out: Ticket[] = [];
  for (const page of data?.pages ?? []) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      out.push(ticket);
    }
  }
  return out;
}

/** What the chat caches for a ticket: the ticket, or why it cannot be shown. */
export type TicketLookup = Ticket | { unavailable: 'denied' | 'missing' };

export function isTicket(lookup: TicketLookup | undefined): lookup is Ticket {
  return lookup !== undefined && 'uuid' in lookup;
}

/**
 * GET /tickets/u/:uuid; 403 and 404 become a lookup result instead of an error toast. A 400 is a
 * link whose uuid is malformed: no ticket has it either.
 */
export async function lookupTicket(uuid: string): Promise<TicketLookup> {
  try {
    return await ticketsApi.showByUuid(uuid);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return { unavailable: 'denied' };
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return { unavailable: 'missing' };
    throw err;
  }
}

/** Applies `change` to every cached ticket list, with the filter each one was fetched with. */
export function patchTicketLists(
  queryClient: QueryClient,
  change: (data: TicketsData, filter: TicketListFilter) => TicketsData | undefined,
): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: queryKeys.tickets.lists })) {
    const key = query.queryKey;
    // A list on its way from the server was read before this change: applied to it now, the change
    // would be overwritten by that answer. Fetched again, after the change.
    if (query.state.fetchStatus === 'fetching')
      void queryClient
        .cancelQueries({ queryKey: key, exact: true })
        .then(() => queryClient.invalidateQueries({ queryKey: key, exact: true }));
    const data = query.state.data as TicketsData | undefined;
    const filter = key[2] as TicketListFilter | undefined;
    if (!data || !filter) continue;
    const next = change(data, filter);
    if (next !== data) queryClient.setQueryData(key, next);
  }
}

/** Applies `change` to the cached chat ticket(s) with this id. */
export function patchTicketDetails(queryClient: QueryClient, id: number, change: (ticket: Ticket) => Ticket): void {
  queryClient.setQueriesData<TicketLookup>({ queryKey: queryKeys.tickets.details }, (lookup) =>
    isTicket(lookup) && lookup.id === id ? change(lookup) : lookup,
  );
}

/** The ticket as this client last knew it: the open chat's copy, else a list's. */
export function cachedTicket(queryClient: QueryClient, id: number): Ticket | undefined {
  for (const [, lookup] of queryClient.getQueriesData<TicketLookup>({ queryKey: queryKeys.tickets.details }))
    if (isTicket(lookup) && lookup.id === id) return lookup;
  for (const [, data] of queryClient.getQueriesData<TicketsData>({ queryKey: queryKeys.tickets.lists })) {
    const found = findTicket(data, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Fetches a ticket's conversation again from the server, and the lists when the ticket moved
 * between them: what happened while it was out of this user's view (e.g. the queue menu's
 * exchange) was never sent here. A ticket new to this client needs no list refetch: the event
 * carries all of it.
 */
export function resyncTicket(queryClient: QueryClient, id: number, moved: boolean): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.messages.list(id) });
  if (moved) void queryClient.invalidateQueries({ queryKey: queryKeys.tickets.lists });
}

/** A changed ticket (from the API or the live channel) everywhere it is cached. */
export function storeTicket(queryClient: QueryClient, ticket: Ticket, viewer: Viewer): void {
  patchTicketLists(queryClient, (data, filter) => applyTicketUpdate(data, ticket, filter, viewer));
  patchTicketDetails(queryClient, ticket.id, () => ticket);
}

/**
 * Keeps the ticket lists and the open chat in step with the live channel (spec §4): ticket
 * update/delete/updateUnread, new messages and contact changes.
 */
export function useTicketsRealtime(companyId: number, viewer: Viewer): void {
  const queryClient = useQueryClient();

  useSocketEvent<TicketEvent>(companyEvent.ticket(companyId), (event) => {
    const previous = event.action === 'update' && event.ticket ? cachedTicket(queryClient, event.ticket.id) : undefined;
    patchTicketLists(queryClient, (data, filter) => applyTicketEvent(data, event, filter, viewer));
    if (event.action === 'update' && event.ticket) {
      const { ticket } = event;
      patchTicketDetails(queryClient, ticket.id, () => ticket);
      if (entersView(previous, ticket)) resyncTicket(queryClient, ticket.id, previous !== undefined);
    }
    if (event.action === 'updateUnread' && event.ticketId !== undefined)
      patchTicketDetails(queryClient, event.ticketId, (t) => ({ ...t, unreadMessages: 0 }));
  });

  useSocketEvent<AppMessagePayload>(companyEvent.appMessage(companyId), (payload) => {
    if (payload.action !== 'create') return;
    patchTicketLists(queryClient, (data, filter) => applyMessageCreate(data, payload, filter, viewer));
    const ticket = ticketOfPayload(payload);
    if (ticket) patchTicketDetails(queryClient, ticket.id, (t) => ({ ...t, lastMessage: ticket.lastMessage }));
  });

  useSocketEvent<ContactEvent>(companyEvent.contact(companyId), (event) => {
    const { contact } = event;
    if (event.action !== 'update' || !contact) return;
    patchTicketLists(queryClient, (data) => applyContactUpdate(data, contact));
    queryClient.setQueriesData<TicketLookup>({ queryKey: queryKeys.tickets.details }, (lookup) =>
      isTicket(lookup) && lookup.contactId === contact.id ? withContact(lookup, contact) : lookup,
    );
    void queryClient.invalidateQueries({ queryKey: queryKeys.tickets.contact(contact.id) });
  });
}

/** Keeps the pickers of the screen (tags, connections, quick replies) fresh when they change elsewhere. */
export function usePickersRealtime(companyId: number): void {
  const queryClient = useQueryClient();
  const refresh = (queryKey: readonly unknown[]) => () => void queryClient.invalidateQueries({ queryKey });
  useSocketEvent(companyEvent.tag(companyId), refresh(queryKeys.tickets.tagOptions));
  useSocketEvent(companyEvent.whatsapp(companyId), refresh(queryKeys.tickets.whatsappOptions));
  useSocketEvent(companyEvent.quickMessage(companyId), refresh(queryKeys.messages.quickReplies));
}

/** The viewer of the session user. */
export function viewerOf(user: { id: number; profile: string; allTicket?: string }): Viewer {
  const admin = user.profile.toLowerCase() === 'admin';
  return { userId: user.id, admin, seesNoQueue: admin || user.allTicket === 'enable' };
}

/** Used by the list and the chat after a PUT: the reply is the new state of the ticket. */
export function useStoreTicket(viewer: Viewer) {
  const queryClient = useQueryClient();
  return (ticket: Ticket) => storeTicket(queryClient, ticket, viewer);
}
