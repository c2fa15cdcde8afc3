import type { ContactList, ContactListItem } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { ContactListItemsPage, ContactListsPage } from './contactListsApi';

/** Payload of `company-{id}-contactList` and `company-{id}-contactListItem` (spec part 2 §4). */
export type CrudEvent<T> = { action: 'create' | 'update'; record: T } | { action: 'delete'; id: number };
export type ContactListEvent = CrudEvent<ContactList>;
export type ContactListItemEvent = CrudEvent<ContactListItem>;

export type ContactListsData = InfiniteData<ContactListsPage, number>;
export type ContactListItemsData = InfiniteData<ContactListItemsPage, number>;

/**
 * A paginated list after a live event: `create`/`update` replace in place or prepend (not while a
 * search is shown, which the record may not match), `delete` removes; `count` follows.
 */
function applyEvent<P extends { count: number }, T extends { id: number }>(
  data: InfiniteData<P, number> | undefined,
  event: CrudEvent<T>,
  rowsOf: (page: P) => T[],
  withRows: (page: P, rows: T[], count: number) => P,
  searchParam: string,
): InfiniteData<P, number> | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => rowsOf(page).some((r) => r.id === id));
  const map = (change: (rows: T[]) => T[], delta: number) => ({
    ...data,
    pages: data.pages.map((page) => withRows(page, change(rowsOf(page)), page.count + delta)),
  });
  if (event.action === 'delete') {
    return listed(event.id) ? map((rows) => rows.filter((r) => r.id !== event.id), -1) : data;
  }
  const { record } = event;
  if (listed(record.id)) return map((rows) => rows.map((r) => (r.id === record.id ? record : r)), 0);
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) =>
      withRows(page, index === 0 ? [record, ...rowsOf(page)] : rowsOf(page), page.count + 1),
    ),
  };
}

export const applyContactListEvent = (data: ContactListsData | undefined, event: ContactListEvent, searchParam = '') =>
  applyEvent(
    data,
    event,
    (p) => p.records,
    (p, records, count) => ({ ...p, records, count }),
    searchParam,
  );

/** Items of list `contactListId`: a created item of another list is left out. */
export function applyContactListItemEvent(
  data: ContactListItemsData | undefined,
  event: ContactListItemEvent,
  contactListId: number,
  searchParam = '',
): ContactListItemsData | undefined {
  if (event.action !== 'delete' && event.record.contactListId !== contactListId) return data;
  return applyEvent(
    data,
    event,
    (p) => p.contacts,
    (p, contacts, count) => ({ ...p, contacts, count }),
    searchParam,
  );
}
