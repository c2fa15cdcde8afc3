import type { Announcement } from '@balcao/shared';
import { useCallback, useEffect, useState } from 'react';

/**
 * When the user last opened the announcements popover, as the newest `createdAt` they saw (server
 * time, so a wrong clock in the browser cannot hide or repeat one). Kept in this browser per user id:
 * a shared reception PC keeps each user's own mark, and nothing needs the server.
 */
const keyOf = (userId: number) => `announcementsSeenAt:${userId}`;

export function readSeenAt(userId: number): number {
  const value = Number(localStorage.getItem(keyOf(userId)));
  return Number.isFinite(value) ? value : 0;
}

/** The announcements created after the mark: all of them for a user who never opened the popover. */
export function unreadCount(records: readonly Announcement[], seenAt: number): number {
  return records.filter((record) => Date.parse(record.createdAt) > seenAt).length;
}

const newestOf = (records: readonly Announcement[]) =>
  records.reduce((newest, record) => Math.max(newest, Date.parse(record.createdAt)), 0);

/** The mark and how to move it past the given records; other tabs of the same user follow. */
export function useSeenAt(userId: number) {
  const [seenAt, setSeenAt] = useState(() => readSeenAt(userId));
  useEffect(() => {
    setSeenAt(readSeenAt(userId));
    const onStorage = (event: StorageEvent) => {
      if (event.key === keyOf(userId)) setSeenAt(readSeenAt(userId));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);
  const markSeen = useCallback(
    (records: readonly Announcement[]) => {
      const next = Math.max(readSeenAt(userId), newestOf(records));
      localStorage.setItem(keyOf(userId), String(next));
      setSeenAt(next);
    },
    [userId],
  );
  return { seenAt, markSeen };
}
