import type { ContactList, ContactListItem } from '@balcao/shared';
import { http } from '../../api/client';

export interface ContactListsPage {
  records: ContactList[];
  count: number;
  hasMore: boolean;
}

export interface ContactListItemsPage {
  contacts: ContactListItem[];
  count: number;
  hasMore: boolean;
}

export interface ContactListItemBody {
  name: string;
  number: string;
  email: string;
}

/** Spec part 2 §7 "Contact lists". */
export const contactListsApi = {
  list: (searchParam: string, pageNumber: number) =>
    http.get<ContactListsPage>('/contact-lists', { searchParam, pageNumber }),
  show: (id: number) => http.get<ContactList>(`/contact-lists/${id}`),
  create: (body: { name: string }) => http.post<ContactList>('/contact-lists', body),
  update: (id: number, body: { name: string }) => http.put<ContactList>(`/contact-lists/${id}`, body),
  remove: (id: number) => http.delete(`/contact-lists/${id}`),
  uploadPath: (id: number) => `/contact-lists/${id}/upload`,
};

export const contactListItemsApi = {
  list: (contactListId: number, searchParam: string, pageNumber: number) =>
    http.get<ContactListItemsPage>('/contact-list-items', { contactListId, searchParam, pageNumber }),
  create: (contactListId: number, body: ContactListItemBody) =>
    http.post<ContactListItem>('/contact-list-items', { ...body, contactListId }),
  update: (id: number, body: ContactListItemBody) => http.put<ContactListItem>(`/contact-list-items/${id}`, body),
  remove: (id: number) => http.delete(`/contact-list-items/${id}`),
};
