import { companyEvent } from '@balcao/shared';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { testQueryClient } from '../../test/render';
import { emitSocket, message, ticket } from './testing';
import type { TicketListFilter } from './ticketsApi';
import { useTicketsRealtime } from './ticketsQueries';

vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const pendingList: TicketListFilter = { status: 'pending', showAll: false, queueIds: [1] };

/** The agent's screen: the chat of ticket 5 (closed) with its messages, and the pending list. */
function screenWithChat() {
  const queryClient = testQueryClient();
  const closed = ticket({ id: 5, status: 'closed', queueId: 1, userId: 7 });
  queryClient.setQueryData(queryKeys.tickets.detail(closed.uuid), closed);
  queryClient.setQueryData(queryKeys.messages.list(5), { pages: [{ messages: [message({ ticketId: 5 })] }] });
  queryClient.setQueryData(queryKeys.tickets.list(pendingList), {
    pages: [{ tickets: [], count: 0, hasMore: false }],
    pageParams: [1],
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  renderHook(() => useTicketsRealtime(1, { userId: 7, admin: false, seesNoQueue: false }), { wrapper });
  const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
  return { queryClient, closed, invalidated };
}

describe('useTicketsRealtime: resync when a ticket comes back into view', () => {
  it('fetches the conversation and the lists again when the ticket reaches the user’s queue', () => {
    const { closed, invalidated } = screenWithChat();
    // Reopened by the contact, routed by the menu: the messages meanwhile were never sent here.
    const routed = { ...closed, status: 'pending' as const, userId: null, user: null, unreadMessages: 2 };
    emitSocket(companyEvent.ticket(1), { action: 'update', ticket: routed });
    expect(invalidated(queryKeys.messages.list(5))).toBe(true);
    expect(invalidated(queryKeys.tickets.list(pendingList))).toBe(true);
  });

  it('does the same for a ticket this client did not know (a transfer into the user’s queue)', () => {
    const { invalidated, queryClient } = screenWithChat();
    queryClient.setQueryData(queryKeys.messages.list(8), { pages: [] });
    emitSocket(companyEvent.ticket(1), {
      action: 'update',
      ticket: ticket({ id: 8, status: 'pending', userId: null }),
    });
    expect(invalidated(queryKeys.messages.list(8))).toBe(true);
  });

  it('keeps the caches when only the content changed (its messages arrived live)', () => {
    const { closed, invalidated } = screenWithChat();
    emitSocket(companyEvent.ticket(1), { action: 'update', ticket: { ...closed, lastMessage: 'novo' } });
    expect(invalidated(queryKeys.messages.list(5))).toBe(false);
    expect(invalidated(queryKeys.tickets.list(pendingList))).toBe(false);
  });
});

describe('useTicketsRealtime: an event while a list loads', () => {
  it('fetches the list again: the answer on its way was read before the event', async () => {
    const queryClient = testQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    renderHook(() => useTicketsRealtime(1, { userId: 7, admin: false, seesNoQueue: false }), { wrapper });
    const arrived = ticket({ id: 9, status: 'pending', queueId: 1, userId: null });
    const page = (tickets: unknown[]) => ({
      pages: [{ tickets, count: tickets.length, hasMore: false }],
      pageParams: [1],
    });
    let answerFirst: (data: unknown) => void = () => undefined;
    const queryFn = vi
      .fn()
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValue(page([arrived]));
    // The pending tab's list, shown and loading when the contact's ticket arrives.
    const list = renderHook(() => useQuery({ queryKey: queryKeys.tickets.list(pendingList), queryFn }), { wrapper });
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(1));
    emitSocket(companyEvent.ticket(1), { action: 'update', ticket: arrived });
    answerFirst(page([]));
    await vi.waitFor(() => expect(list.result.current.data).toEqual(page([arrived])));
    expect(queryFn).toHaveBeenCalledTimes(2);
  });
});
