import { can } from '@balcao/shared';
import { useCallback, useMemo, useState } from 'react';
import { useSessionUser } from '../../app/AuthContext';
import { useQueues } from '../queues/queuesApi';

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

const storageKey = (userId: number) => `selectedQueueIds:${userId}`;

export function readSelectedQueues(userId: number): number[] | null {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null');
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : null;
  } catch {
    return null;
  }
}

export function storeSelectedQueues(userId: number, ids: number[]): void {
  localStorage.setItem(storageKey(userId), JSON.stringify(ids));
}

/**
 * The queues the ticket lists filter by: the session user's queues (admins: every queue of the
 * company), all of them until the user picks some; the choice is kept in browser storage.
 */
export function useSelectedQueues() {
  const me = useSessionUser();
  const admin = can(me.profile, 'tickets-manager:showall');
  const companyQueues = useQueues(admin);
  const [stored, setStored] = useState(() => readSelectedQueues(me.id));

  const options: QueueOption[] = useMemo(
    () => (admin ? (companyQueues.data ?? []).map(({ id, name, color }) => ({ id, name, color })) : me.queues),
    [admin, companyQueues.data, me.queues],
  );
  const ready = !admin || companyQueues.isSuccess || companyQueues.isError;
  const selected = useMemo(() => {
    const ids = options.map((q) => q.id);
    return stored === null ? ids : stored.filter((id) => ids.includes(id));
  }, [options, stored]);

  const setSelected = useCallback(
    (ids: number[]) => {
      storeSelectedQueues(me.id, ids);
      setStored(ids);
    },
    [me.id],
  );

  return { options, selected, setSelected, ready };
}
