import { INFINITE_SCROLL_THRESHOLD_PX } from '@balcao/shared';
import type { UIEvent } from 'react';

/** True when a scrolled element is within the threshold (100 px) of its bottom. */
export function nearBottom(
  { scrollTop, scrollHeight, clientHeight }: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>,
  threshold: number = INFINITE_SCROLL_THRESHOLD_PX,
): boolean {
  return scrollHeight - (scrollTop + clientHeight) < threshold;
}

/** onScroll handler of an infinite list: loads the next page near the bottom when there is one. */
export function onScrollLoadMore(hasMore: boolean, loading: boolean, loadMore: () => void) {
  return (event: UIEvent<HTMLElement>) => {
    if (hasMore && !loading && nearBottom(event.currentTarget)) loadMore();
  };
}
