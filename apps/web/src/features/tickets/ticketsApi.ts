import type {
  Contact,
  ContactInput,
  Tag,
  Ticket,
  TicketCreate,
  TicketNote,
  TicketStatus,
  TicketUpdate,
  User,
  Whatsapp,
} from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export interface TicketsPage {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
}

/**
 * What one ticket list shows: the query of GET /tickets without the page. Also the list's query
 * key, so the live handlers know which tickets each cached list may hold (spec §4).
 */
export interface TicketListFilter {
  status?: TicketStatus;
  showAll: boolean;
  queueIds: number[];
  searchParam?: string;
  tags?: number[];
  users?: number[];
}

export type UserOption = Pick<User, 'id' | 'name' | 'profile' | 'online'> & { queueIds: number[] };

function listQuery(filter: TicketListFilter, pageNumber: number) {
  return {
    pageNumber,
    status: filter.status,
    showAll: filter.showAll,
    searchParam: filter.searchParam || undefined,
    queueIds: JSON.stringify(filter.queueIds),
    tags: filter.tags?.length ? JSON.stringify(filter.tags) : undefined,
    users: filter.users?.length ? JSON.stringify(filter.users) : undefined,
  };
}

export const ticketsApi = {
  list: (filter: TicketListFilter, pageNumber: number) =>
    http.get<TicketsPage>('/tickets', listQuery(filter, pageNumber)),
  /** The notifications list: pending tickets with unread messages, newest first. */
  notifications: (pageNumber: number) =>
    http.get<TicketsPage>('/tickets', { pageNumber, status: 'pending', withUnreadMessages: true }),
  showByUuid: (uuid: string) => http.get<Ticket>(`/tickets/u/${uuid}`),
  create: (body: TicketCreate) => http.post<Ticket>('/tickets', body),
  update: (id: number, body: TicketUpdate) => http.put<Ticket>(`/tickets/${id}`, body),
  remove: (id: number) => http.delete(`/tickets/${id}`),
  syncTags: (ticketId: number, tags: Pick<Tag, 'id'>[]) =>
    http.post<unknown>('/tags/sync', { ticketId, tags: tags.map(({ id }) => ({ id })) }),
};

export const contactsApi = {
  search: (name: string) => http.get<Contact[]>('/contacts/list', { name }),
  show: (id: number) => http.get<Contact>(`/contacts/${id}`),
  create: (body: ContactInput) => http.post<Contact>('/contacts', body),
  update: (id: number, body: Partial<ContactInput>) => http.put<Contact>(`/contacts/${id}`, body),
};

export const notesApi = {
  list: (contactId: number, ticketId: number) => http.get<TicketNote[]>('/ticket-notes/list', { contactId, ticketId }),
  create: (body: { note: string; ticketId: number; contactId: number }) => http.post<TicketNote>('/ticket-notes', body),
  remove: (id: number) => http.delete(`/ticket-notes/${id}`),
};

/** GET /tags/list, for the tags filter and the ticket's tags editor. */
export function useTagOptions(enabled = true) {
  return useQuery({ queryKey: queryKeys.tickets.tagOptions, queryFn: () => http.get<Tag[]>('/tags/list'), enabled });
}

/** GET /users/list, for the users filter and the transfer dialog. */
export function useUserOptions(enabled = true) {
  return useQuery({
    queryKey: queryKeys.tickets.userOptions,
    queryFn: () => http.get<UserOption[]>('/users/list'),
    enabled,
  });
}

/** GET /whatsapp, for the connection pickers. */
export function useWhatsappOptions(enabled = true) {
  return useQuery({
    queryKey: queryKeys.tickets.whatsappOptions,
    queryFn: () => http.get<Whatsapp[]>('/whatsapp'),
    enabled,
  });
}
