import type { QuickMessage } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { QuickMessagesPage } from './quickMessagesApi';

/** Payload of `company-{id}-quickmessage`. */
export interface QuickMessageEvent {
  action: 'create' | 'update' | 'delete';
  record?: QuickMessage;
  id?: number;
}

export type QuickMessagesData = InfiniteData<QuickMessagesPage, number>;

function mapPages(
  data: QuickMessagesData,
  change: (records: QuickMessage[]) => QuickMessage[],
  countDelta: number,
): QuickMessagesData {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, records: change(page.records), count: page.count + countDelta })),
  };
}

/**
 * The quick messages list after a live event. Events go to the whole company, so a private
 * message (geral off) of another user is never added (and is removed if it was listed).
 */
export function applyQuickMessageEvent(
  data: QuickMessagesData | undefined,
  event: QuickMessageEvent,
  meId: number,
  searchParam = '',
): QuickMessagesData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.records.some((r) => r.id === id));
  const record = event.record;
  const id = event.id ?? record?.id;
  const visible = record ? record.geral || record.userId === meId : false;

  if (event.action === 'delete' || (record && !visible)) {
    if (id === undefined || !listed(id)) return data;
    return mapPages(data, (records) => records.filter((r) => r.id !== id), -1);
  }
  if (!record) return data;
  if (listed(record.id)) return mapPages(data, (records) => records.map((r) => (r.id === record.id ? record : r)), 0);
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      records: index === 0 ? [record, ...page.records] : page.records,
      count: page.count + 1,
    })),
  };
}
