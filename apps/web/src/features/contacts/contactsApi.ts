import type { Contact, ContactInput, Ticket } from '@balcao/shared';
import { http } from '../../api/client';

export interface ContactsPage {
  contacts: Contact[];
  count: number;
  hasMore: boolean;
}

export interface NewTicket {
  contactId: number;
  queueId: number | null;
  status: 'open';
}

export const contactsApi = {
  list: (searchParam: string, pageNumber: number) => http.get<ContactsPage>('/contacts', { searchParam, pageNumber }),
  show: (id: number) => http.get<Contact>(`/contacts/${id}`),
  create: (body: ContactInput) => http.post<Contact>('/contacts', body),
  update: (id: number, body: ContactInput) => http.put<Contact>(`/contacts/${id}`, body),
  remove: (id: number) => http.delete(`/contacts/${id}`),
  /** Starts a ticket with the contact (409 ERR_OTHER_OPEN_TICKET when one is open). */
  startTicket: (body: NewTicket) => http.post<Ticket>('/tickets', body),
};
