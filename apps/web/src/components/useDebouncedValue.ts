import { SEARCH_DEBOUNCE_MS } from '@balcao/shared';
import { useEffect, useState } from 'react';

/** `value`, updated only after it has stayed unchanged for `delay` ms. */
export function useDebouncedValue<T>(value: T, delay: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
