import type { Announcement, AnnouncementEvent, AnnouncementsPage } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';

export type AnnouncementsData = InfiniteData<AnnouncementsPage, number>;

function withCount(data: AnnouncementsData, pages: AnnouncementsPage[], delta: number): AnnouncementsData {
  return { ...data, pages: pages.map((page) => ({ ...page, count: page.count + delta })) };
}

/**
 * A list of announcements (newest first, by id) after a `company-announcement` event (spec part 2
 * §4: create or update replaces or inserts, delete removes). `activeOnly` (the top bar) drops an
 * inactive record, whatever the event says; a searched list only takes new records it already has.
 */
export function applyAnnouncementEvent(
  data: AnnouncementsData | undefined,
  event: AnnouncementEvent,
  opts: { activeOnly: boolean; searchParam?: string },
): AnnouncementsData | undefined {
  if (!data) return data;
  const id = event.action === 'delete' ? event.id : event.record.id;
  const listed = data.pages.some((page) => page.records.some((r) => r.id === id));
  const record: Announcement | null = event.action === 'delete' ? null : event.record;

  if (!record || (opts.activeOnly && !record.status)) {
    if (!listed) return data;
    return withCount(
      data,
      data.pages.map((page) => ({ ...page, records: page.records.filter((r) => r.id !== id) })),
      -1,
    );
  }
  if (listed) {
    return withCount(
      data,
      data.pages.map((page) => ({ ...page, records: page.records.map((r) => (r.id === id ? record : r)) })),
      0,
    );
  }
  if (opts.searchParam) return data;
  // Its place by id; one older than every loaded record waits for its page, only counted.
  const pageIndex = data.pages.findIndex((page) => page.records.some((r) => r.id < id));
  const last = data.pages.length - 1;
  const target = pageIndex === -1 ? (data.pages[last]?.hasMore ? -1 : last) : pageIndex;
  return withCount(
    data,
    data.pages.map((page, index) => {
      if (index !== target) return page;
      const at = page.records.findIndex((r) => r.id < id);
      const records = [...page.records];
      records.splice(at === -1 ? records.length : at, 0, record);
      return { ...page, records };
    }),
    1,
  );
}
