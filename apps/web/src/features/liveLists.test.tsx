import { companyEvent, type Queue, type Tag, type Whatsapp } from '@balcao/shared';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../api/queryKeys';
import { emitSocket } from '../test/fakeSocket';
import { user } from '../test/fixtures';
import { renderWithProviders, testQueryClient } from '../test/render';
import { whatsapp } from './connections/testing/fixtures';
import { useConnectionsRealtime } from './connections/useConnectionsRealtime';
import { contact } from './contacts/testing';
import { useContactsRealtime } from './contacts/useContactsRealtime';
import { integration } from './queue-integrations/testing';
import { useQueueIntegrationsRealtime } from './queue-integrations/useQueueIntegrationsRealtime';
import { useQueuesRealtime } from './queues/useQueuesRealtime';
import { useQuickMessagesRealtime } from './quick-messages/useQuickMessagesRealtime';
import { useTagsRealtime } from './tags/useTagsRealtime';
import { quickMessage } from './tickets/testing';
import { useUsersRealtime } from './users/useUsersRealtime';

vi.mock('../app/RealtimeProvider', () => import('../test/fakeSocket'));

/**
 * The live lists of spec part 2 §4 follow the server's events: a created item appears, an
 * updated one changes in place, a deleted one disappears. Each list listens to its own event name.
 */

type Named = { id: number; name?: string; shortcode?: string };

const queue = (id: number, name: string): Queue => ({
  id,
  name,
  color: '#123456',
  greetingMessage: '',
  outOfHoursMessage: '',
  orderQueue: null,
  schedules: [],
  integrationId: null,
  promptId: null,
});
const tag = (id: number, name: string): Tag => ({ id, name, color: '#654321', kanban: 0, ticketsCount: 2 });

const pages = <K extends string, T>(field: K, items: T[]) =>
  ({ pages: [{ [field]: items, count: items.length, hasMore: false }], pageParams: [1] }) as InfiniteData<
    Record<K, T[]> & { count: number; hasMore: boolean },
    number
  >;

interface ListCase {
  name: string;
  event: string;
  /** The payload's key of the record, and of the id of a deleted one. */
  record: string;
  deletedId: string;
  seed: (qc: QueryClient) => void;
  /** The listed items, in order, as the screen would read them from the cache. */
  read: (qc: QueryClient) => Named[];
  make: (id: number, name: string) => Named;
  /** Where a created item shows: at the top of paged lists, after the others in whole ones. */
  createdAt: 'first' | 'last';
}

function paged(
  name: string,
  event: string,
  record: string,
  field: string,
  key: readonly unknown[],
  make: (id: number, name: string) => Named,
): ListCase {
  return {
    name,
    event,
    record,
    deletedId: record === 'record' ? 'id' : `${record}Id`,
    seed: (qc) => qc.setQueryData(key, pages(field, [make(1, 'Primeiro'), make(2, 'Segundo')])),
    read: (qc) => (qc.getQueryData(key) as InfiniteData<Record<string, Named[]>>).pages.flatMap((page) => page[field]),
    make,
    createdAt: 'first',
  };
}

const cases: ListCase[] = [
  paged('users', companyEvent.user(1), 'user', 'users', queryKeys.users.list(''), (id, name) => user({ id, name })),
  paged('contacts', companyEvent.contact(1), 'contact', 'contacts', queryKeys.contacts.list(''), (id, name) =>
    contact({ id, name }),
  ),
  paged('tags', companyEvent.tag(1), 'tag', 'tags', queryKeys.tags.list(''), tag),
  paged(
    'quick messages',
    companyEvent.quickMessage(1),
    'record',
    'records',
    queryKeys.quickMessages.list(''),
    (id, name) => quickMessage({ id, shortcode: name }),
  ),
  {
    ...paged(
      'queue integrations',
      companyEvent.queueIntegration(1),
      'queueIntegration',
      'queueIntegrations',
      queryKeys.queueIntegrations.list(''),
      (id, name) => integration({ id, name }),
    ),
    deletedId: 'integrationId',
  },
  {
    name: 'queue integration pickers',
    event: companyEvent.queueIntegration(1),
    record: 'queueIntegration',
    deletedId: 'integrationId',
    seed: (qc) =>
      qc.setQueryData(queryKeys.queueIntegrations.options, [
        integration({ id: 1, name: 'Primeiro' }),
        integration({ id: 2, name: 'Segundo' }),
      ]),
    read: (qc) => qc.getQueryData<Named[]>(queryKeys.queueIntegrations.options) ?? [],
    make: (id, name) => integration({ id, name }),
    createdAt: 'last',
  },
  {
    name: 'queues',
    event: companyEvent.queue(1),
    record: 'queue',
    deletedId: 'queueId',
    seed: (qc) => qc.setQueryData(queryKeys.queues, [queue(1, 'Primeiro'), queue(2, 'Segundo')]),
    read: (qc) => qc.getQueryData<Queue[]>(queryKeys.queues) ?? [],
    make: queue,
    createdAt: 'last',
  },
  {
    name: 'connections',
    event: companyEvent.whatsapp(1),
    record: 'whatsapp',
    deletedId: 'whatsappId',
    seed: (qc) =>
      qc.setQueryData(queryKeys.whatsapps, [
        whatsapp({ id: 1, name: 'Primeiro' }),
        whatsapp({ id: 2, name: 'Segundo' }),
      ]),
    read: (qc) => qc.getQueryData<Whatsapp[]>(queryKeys.whatsapps) ?? [],
    make: (id, name) => whatsapp({ id, name }),
    createdAt: 'last',
  },
];

function Live() {
  useUsersRealtime();
  useContactsRealtime();
  useQueuesRealtime();
  useTagsRealtime();
  useQuickMessagesRealtime();
  useConnectionsRealtime();
  useQueueIntegrationsRealtime();
  return null;
}

const label = (item: Named) => item.name ?? item.shortcode;

describe('live lists: create, update, delete', () => {
  it.each(cases)('$name', (c) => {
    const queryClient = testQueryClient();
    c.seed(queryClient);
    renderWithProviders(<Live />, { queryClient });
    const labels = () => c.read(queryClient).map(label);

    emitSocket(c.event, { action: 'create', [c.record]: c.make(3, 'Novo') });
    expect(labels()).toEqual(
      c.createdAt === 'first' ? ['Novo', 'Primeiro', 'Segundo'] : ['Primeiro', 'Segundo', 'Novo'],
    );

    emitSocket(c.event, { action: 'update', [c.record]: c.make(1, 'Renomeado') });
    expect(labels()).toEqual(
      c.createdAt === 'first' ? ['Novo', 'Renomeado', 'Segundo'] : ['Renomeado', 'Segundo', 'Novo'],
    );

    emitSocket(c.event, { action: 'delete', [c.deletedId]: 2 });
    expect(labels()).toEqual(c.createdAt === 'first' ? ['Novo', 'Renomeado'] : ['Renomeado', 'Novo']);
  });
});
