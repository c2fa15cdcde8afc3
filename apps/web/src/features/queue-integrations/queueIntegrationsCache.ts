import type { QueueIntegration, QueueIntegrationsPage } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';

/** Payload of `company-{id}-queueIntegration`. Events reach every member: they never carry `signingSecret`. */
export type QueueIntegrationEvent =
  | { action: 'create' | 'update'; queueIntegration: QueueIntegration }
  | { action: 'delete'; integrationId: number };

export type QueueIntegrationsData = InfiniteData<QueueIntegrationsPage, number>;

/** The event's record over the listed one: the admin's signing secret stays, the event has none. */
const merged = (old: QueueIntegration, record: QueueIntegration): QueueIntegration => ({
  ...old,
  ...record,
  signingSecret: record.signingSecret ?? old.signingSecret,
});

function mapPages(
  data: QueueIntegrationsData,
  change: (rows: QueueIntegration[]) => QueueIntegration[],
  countDelta: number,
): QueueIntegrationsData {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      queueIntegrations: change(page.queueIntegrations),
      count: page.count + countDelta,
    })),
  };
}

/**
 * An integrations page after a live event (spec part 2 §4): `create` prepends (unless a search is
 * shown, which it may not match), `update` replaces in place, `delete` removes; the count follows.
 */
export function applyQueueIntegrationEvent(
  data: QueueIntegrationsData | undefined,
  event: QueueIntegrationEvent,
  searchParam = '',
): QueueIntegrationsData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.queueIntegrations.some((r) => r.id === id));
  if (event.action === 'delete') {
    const id = event.integrationId;
    return listed(id) ? mapPages(data, (rows) => rows.filter((r) => r.id !== id), -1) : data;
  }
  const record = event.queueIntegration;
  if (listed(record.id)) {
    return mapPages(data, (rows) => rows.map((r) => (r.id === record.id ? merged(r, record) : r)), 0);
  }
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      queueIntegrations: index === 0 ? [record, ...page.queueIntegrations] : page.queueIntegrations,
      count: page.count + 1,
    })),
  };
}

/** The pickers' plain list after a live event: a new integration goes last. */
export function applyQueueIntegrationOptionEvent(
  list: QueueIntegration[] | undefined,
  event: QueueIntegrationEvent,
): QueueIntegration[] | undefined {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((r) => r.id !== event.integrationId);
  const record = event.queueIntegration;
  return list.some((r) => r.id === record.id)
    ? list.map((r) => (r.id === record.id ? merged(r, record) : r))
    : [...list, record];
}
