import { keepPreviousData, type QueryKey, useInfiniteQuery } from '@tanstack/react-query';

/** A page of a paginated list endpoint (`pageNumber` in, `hasMore` out). */
export interface ListPage {
  hasMore: boolean;
}

/**
 * A list fetched page by page from `pageNumber` 1 while `hasMore`; the previous result stays on
 * screen while a new search loads.
 */
export function useInfiniteList<TPage extends ListPage>(
  queryKey: QueryKey,
  fetchPage: (pageNumber: number) => Promise<TPage>,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: TPage, pages) => (last.hasMore ? pages.length + 1 : undefined),
    placeholderData: keepPreviousData,
  });
}
