import type { Tag } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { TagsPage } from './tagsApi';

/** Payload of `company-{id}-tag`. */
export interface TagEvent {
  action: 'create' | 'update' | 'delete';
  tag?: Tag;
  tagId?: number;
}

export type TagsData = InfiniteData<TagsPage, number>;

function mapPages(data: TagsData, change: (tags: Tag[]) => Tag[], countDelta: number): TagsData {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, tags: change(page.tags), count: page.count + countDelta })),
  };
}

/**
 * The tags list after a live event: an updated tag replaces its row (keeping its tickets count
 * when the event has none); a new one is added at the top of the unfiltered list; a deleted one
 * is removed.
 */
export function applyTagEvent(data: TagsData | undefined, event: TagEvent, searchParam = ''): TagsData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.tags.some((tag) => tag.id === id));
  if (event.action === 'delete') {
    const id = event.tagId ?? event.tag?.id;
    if (id === undefined || !listed(id)) return data;
    return mapPages(data, (tags) => tags.filter((tag) => tag.id !== id), -1);
  }
  const { tag } = event;
  if (!tag) return data;
  if (listed(tag.id)) {
    return mapPages(
      data,
      (tags) =>
        tags.map((old) =>
          old.id === tag.id ? { ...old, ...tag, ticketsCount: tag.ticketsCount ?? old.ticketsCount } : old,
        ),
      0,
    );
  }
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      tags: index === 0 ? [{ ticketsCount: 0, ...tag }, ...page.tags] : page.tags,
      count: page.count + 1,
    })),
  };
}
