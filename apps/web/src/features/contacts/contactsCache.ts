import type { Contact } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { ContactsPage } from './contactsApi';

/** Payload of `company-{id}-contact`. */
export interface ContactEvent {
  action: 'create' | 'update' | 'delete';
  contact?: Contact;
  contactId?: number;
}

export type ContactsData = InfiniteData<ContactsPage, number>;

function mapPages(data: ContactsData, change: (contacts: Contact[]) => Contact[], countDelta: number): ContactsData {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, contacts: change(page.contacts), count: page.count + countDelta })),
  };
}

/**
 * The contacts list after a live event: an updated contact replaces its row, a new one is added
 * at the top (only to the unfiltered list, `searchParam` empty); a deleted one is removed.
 */
export function applyContactEvent(
  data: ContactsData | undefined,
  event: ContactEvent,
  searchParam = '',
): ContactsData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.contacts.some((c) => c.id === id));

  if (event.action === 'delete') {
    const id = event.contactId ?? event.contact?.id;
    if (id === undefined || !listed(id)) return data;
    return mapPages(data, (contacts) => contacts.filter((c) => c.id !== id), -1);
  }

  const { contact } = event;
  if (!contact) return data;
  if (listed(contact.id)) {
    return mapPages(data, (contacts) => contacts.map((c) => (c.id === contact.id ? { ...c, ...contact } : c)), 0);
  }
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      contacts: index === 0 ? [contact, ...page.contacts] : page.contacts,
      count: page.count + 1,
    })),
  };
}
