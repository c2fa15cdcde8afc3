import type { FileList, FileListEvent, FileListsPage } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';

export type FileListsData = InfiniteData<FileListsPage, number>;

const mapPages = (data: FileListsData, change: (files: FileList[]) => FileList[], countDelta: number) => ({
  ...data,
  pages: data.pages.map((page) => ({ ...page, files: change(page.files), count: page.count + countDelta })),
});

/**
 * A file lists page after `company-{id}-file` (spec part 2 §4): `create` prepends (unless a search
 * is shown, which it may not match), `update` replaces in place, `delete` removes.
 */
export function applyFileListEvent(
  data: FileListsData | undefined,
  event: FileListEvent,
  searchParam = '',
): FileListsData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.files.some((f) => f.id === id));
  if (event.action === 'delete') {
    return listed(event.id) ? mapPages(data, (files) => files.filter((f) => f.id !== event.id), -1) : data;
  }
  const { record } = event;
  if (listed(record.id)) return mapPages(data, (files) => files.map((f) => (f.id === record.id ? record : f)), 0);
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      files: index === 0 ? [record, ...page.files] : page.files,
      count: page.count + 1,
    })),
  };
}
