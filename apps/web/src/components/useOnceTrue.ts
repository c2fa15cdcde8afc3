import { useState } from 'react';

/**
 * True from the first render where `value` is, on: mounts a lazily loaded dialog only once it
 * first opens, then keeps it mounted so that its closing transition still plays.
 */
export function useOnceTrue(value: boolean): boolean {
  const [once, setOnce] = useState(value);
  if (value && !once) setOnce(true);
  return once || value;
}
