import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  addItem,
  loadEntries,
  newItemId,
  ownItems,
  removeItem,
  saveEntries,
  setItemStatus,
  TODO_STORAGE_KEY,
  type TodoItem,
  type TodoOwner,
  type TodoStatus,
} from './todoStorage';

/**
 * The owner's items of the browser's `tasks` list. Every change re-reads the storage first, so an
 * edit in another tab (or another user's items) is never overwritten with a stale copy; changes
 * made in other tabs show up through the `storage` event.
 */
export function useTodoList(owner: TodoOwner) {
  const { companyId, userId } = owner;
  const [entries, setEntries] = useState<unknown[]>(() => loadEntries());

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TODO_STORAGE_KEY || event.key === null) setEntries(loadEntries());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const items: TodoItem[] = useMemo(() => ownItems(entries, { companyId, userId }), [entries, companyId, userId]);

  /** Applies `change` to the stored list and saves it; throws when the browser refuses to store. */
  const update = useCallback((change: (current: unknown[]) => unknown[]) => {
    const next = change(loadEntries());
    saveEntries(next);
    setEntries(next);
  }, []);

  const add = useCallback(
    (text: string, status: TodoStatus) =>
      update((current) =>
        addItem(current, { companyId, userId }, { text, status, id: newItemId(), now: new Date().toISOString() }),
      ),
    [update, companyId, userId],
  );
  const changeStatus = useCallback(
    (id: string, status: TodoStatus) =>
      update((current) => setItemStatus(current, { companyId, userId }, id, status, new Date().toISOString())),
    [update, companyId, userId],
  );
  const remove = useCallback(
    (id: string) => update((current) => removeItem(current, { companyId, userId }, id)),
    [update, companyId, userId],
  );

  return { items, add, changeStatus, remove };
}
