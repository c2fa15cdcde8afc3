import { useEffect } from 'react';

const COUNT_PREFIX = /^\(\d+\)\s*/;

/** The title with "(n) " in front when n > 0 ("(3) Balcão"), any former count replaced. */
export function titleWithCount(title: string, count: number): string {
  const bare = title.replace(COUNT_PREFIX, '');
  // Trimmed as the browser trims titles, so that reading it back finds the same text (no loop).
  return count > 0 ? `(${count}) ${bare}`.trim() : bare;
}

/**
 * Keeps the count in the tab title. Pages set their own titles (and lazy pages do it late), so
 * the count is put back whenever the title changes.
 */
export function useTitleCount(count: number): void {
  useEffect(() => {
    const apply = () => {
      const next = titleWithCount(document.title, count);
      if (next !== document.title) document.title = next;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = titleWithCount(document.title, 0);
    };
  }, [count]);
}
