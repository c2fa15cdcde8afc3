import type { Queue } from '@balcao/shared';

/** Payload of `company-{id}-queue`. */
export interface QueueEvent {
  action: 'create' | 'update' | 'delete';
  queue?: Queue;
  queueId?: number;
}

/** The queues list after a live event: replace or append an updated queue, remove a deleted one. */
export function applyQueueEvent(list: Queue[] | undefined, event: QueueEvent): Queue[] | undefined {
  if (!list) return list;
  if (event.action === 'delete') {
    const id = event.queueId ?? event.queue?.id;
    return id === undefined ? list : list.filter((q) => q.id !== id);
  }
  const { queue } = event;
  if (!queue) return list;
  return list.some((q) => q.id === queue.id) ? list.map((q) => (q.id === queue.id ? queue : q)) : [...list, queue];
}
