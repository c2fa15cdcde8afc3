import type { Schedule, ScheduleEvent } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { SchedulesPage } from './schedulesApi';

export type SchedulesData = InfiniteData<SchedulesPage, number>;

function withCount(data: SchedulesData, pages: SchedulesPage[], delta: number): SchedulesData {
  return { ...data, pages: pages.map((page) => ({ ...page, count: page.count + delta })) };
}

/** The server's order: latest sendAt first, then the higher id. */
function before(a: Schedule, b: Schedule): boolean {
  const diff = Date.parse(a.sendAt) - Date.parse(b.sendAt);
  return diff > 0 || (diff === 0 && a.id > b.id);
}

/**
 * A schedules list after a `company-{id}-schedule` event: create or update replaces or inserts
 * (at its place by sendAt), delete removes. A searched list only takes records it already has.
 */
export function applyScheduleEvent(
  data: SchedulesData | undefined,
  event: ScheduleEvent,
  searchParam = '',
): SchedulesData | undefined {
  if (!data) return data;
  const id = event.action === 'delete' ? event.scheduleId : event.schedules.id;
  const listed = data.pages.some((page) => page.schedules.some((s) => s.id === id));
  if (event.action === 'delete') {
    if (!listed) return data;
    return withCount(
      data,
      data.pages.map((page) => ({ ...page, schedules: page.schedules.filter((s) => s.id !== id) })),
      -1,
    );
  }
  const record = event.schedules;
  if (listed) {
    return withCount(
      data,
      data.pages.map((page) => ({ ...page, schedules: page.schedules.map((s) => (s.id === id ? record : s)) })),
      0,
    );
  }
  if (searchParam) return data;
  const pageIndex = data.pages.findIndex((page) => page.schedules.some((s) => before(record, s)));
  const last = data.pages.length - 1;
  const target = pageIndex === -1 ? (data.pages[last]?.hasMore ? -1 : last) : pageIndex;
  return withCount(
    data,
    data.pages.map((page, index) => {
      if (index !== target) return page;
      const at = page.schedules.findIndex((s) => before(record, s));
      const schedules = [...page.schedules];
      schedules.splice(at === -1 ? schedules.length : at, 0, record);
      return { ...page, schedules };
    }),
    1,
  );
}
