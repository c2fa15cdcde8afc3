import { describe, expect, it } from 'vitest';
import { type AnnouncementsData, applyAnnouncementEvent } from './announcementsCache';
import { announcement } from './testing';

/** Pages of ids, newest first; every page carries the total. */
function data(pages: number[][], lastHasMore = false, count = pages.flat().length): AnnouncementsData {
  return {
    pageParams: pages.map((_, i) => i + 1),
    pages: pages.map((ids, i) => ({
      records: ids.map((id) => announcement({ id })),
      count,
      hasMore: i < pages.length - 1 || lastHasMore,
    })),
  };
}
const ids = (d: AnnouncementsData | undefined) => d?.pages.map((p) => p.records.map((r) => r.id));
const counts = (d: AnnouncementsData | undefined) => d?.pages.map((p) => p.count);
const active = { activeOnly: true };
const all = { activeOnly: false };

describe('applyAnnouncementEvent', () => {
  it('puts a new one first and counts it', () => {
    const next = applyAnnouncementEvent(
      data([[5, 4], [2]]),
      { action: 'create', record: announcement({ id: 9 }) },
      all,
    );
    expect(ids(next)).toEqual([[9, 5, 4], [2]]);
    expect(counts(next)).toEqual([4, 4]);
  });

  it('replaces an update in place and removes a delete', () => {
    const edited = applyAnnouncementEvent(
      data([[5, 4]]),
      { action: 'update', record: announcement({ id: 4, title: 'Novo título' }) },
      all,
    );
    expect(edited?.pages[0].records[1].title).toBe('Novo título');
    const deleted = applyAnnouncementEvent(edited, { action: 'delete', id: 5 }, all);
    expect(ids(deleted)).toEqual([[4]]);
    expect(counts(deleted)).toEqual([1]);
    expect(applyAnnouncementEvent(deleted, { action: 'delete', id: 77 }, all)).toBe(deleted);
  });

  it('drops one turned inactive from the active list, but keeps it in the super user’s list', () => {
    const event = { action: 'update', record: announcement({ id: 4, status: false }) } as const;
    expect(ids(applyAnnouncementEvent(data([[5, 4]]), event, active))).toEqual([[5]]);
    expect(applyAnnouncementEvent(data([[5, 4]]), event, all)?.pages[0].records[1].status).toBe(false);
    const created = { action: 'create', record: announcement({ id: 9, status: false }) } as const;
    expect(ids(applyAnnouncementEvent(data([[5]]), created, active))).toEqual([[5]]);
  });

  it('puts one made active again at its place by id; an older one than every loaded page only counts', () => {
    const back = { action: 'update', record: announcement({ id: 3 }) } as const;
    expect(ids(applyAnnouncementEvent(data([[5, 4], [2]]), back, active))).toEqual([
      [5, 4],
      [3, 2],
    ]);
    const old = { action: 'update', record: announcement({ id: 1 }) } as const;
    const unseen = applyAnnouncementEvent(data([[5, 4]], true, 10), old, active);
    expect(ids(unseen)).toEqual([[5, 4]]);
    expect(counts(unseen)).toEqual([11]);
    expect(ids(applyAnnouncementEvent(data([[5, 4]]), old, active))).toEqual([[5, 4, 1]]);
  });

  it('a searched list takes no record it did not have', () => {
    const searched = data([[5]]);
    const event = { action: 'create', record: announcement({ id: 9 }) } as const;
    expect(applyAnnouncementEvent(searched, event, { activeOnly: false, searchParam: 'x' })).toBe(searched);
    expect(applyAnnouncementEvent(undefined, event, all)).toBeUndefined();
  });
});
