import { act } from '@testing-library/react';
import { useEffect, useRef } from 'react';

/**
 * A stand-in for `app/RealtimeProvider` in tests: `vi.mock('…/app/RealtimeProvider', () =>
 * import('…/test/fakeSocket'))`, then `emitSocket(event, payload)` reaches every component
 * subscribed to `event` (several may listen to the same one).
 */
const listeners = new Map<string, Set<(payload: unknown) => void>>();

export function useSocketEvent<T>(event: string, handler: (payload: T) => void): void {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  }, [handler]);
  useEffect(() => {
    const listener = (payload: unknown) => handlerRef.current(payload as T);
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => {
      set.delete(listener);
    };
  }, [event]);
}

export function emitSocket(event: string, payload: unknown): void {
  act(() => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  });
}

export function socketListenerCount(event: string): number {
  return listeners.get(event)?.size ?? 0;
}
