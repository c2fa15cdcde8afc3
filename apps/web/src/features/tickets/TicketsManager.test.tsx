import { companyEvent, type Ticket } from '@balcao/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { TicketsManager } from './TicketsManager';
import { emitSocket, LocationProbe, ticket } from './testing';
import { useTicketsRealtime, viewerOf } from './ticketsQueries';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warn: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () =>
  import('./testing').then((m) => ({ useSocketEvent: m.useFakeSocketEvent })),
);

const mine1 = ticket({ id: 1, contact: { ...ticket({ id: 1 }).contact, name: 'Maria' } });
const mine2 = ticket({ id: 2 });
const waiting = ticket({ id: 3, status: 'pending', userId: null, user: null, unreadMessages: 2 });

function ticketsApi(
  lists: Record<string, Ticket[]>,
  settings: { key: string; value: string }[] = [],
  more: Parameters<typeof mockApi>[0] = {},
) {
  return mockApi({
    ...more,
    'GET /settings': () => settings,
    'PUT /tickets/1': (body) => ({ status: 200, body: { ...mine1, ...(body as object) } }),
    'GET /queue': () => [{ id: 1, name: 'Vendas', color: '#7C3AED' }],
    'GET /tickets': (_body, url) => {
      const tickets = lists[url.searchParams.get('status') ?? 'search'] ?? [];
      return { tickets, count: tickets.length, hasMore: false };
    },
    // Tickets have a `status` field: mockApi needs them wrapped as { status, body }.
    'PUT /tickets/3': (body) => ({
      status: 200,
      body: { ...waiting, ...(body as object), user: { id: 7, name: 'Ana Souza' } },
    }),
  });
}

function Screen() {
  useTicketsRealtime(1, viewerOf({ id: 7, profile: 'admin' }));
  return (
    <>
      <TicketsManager />
      <LocationProbe />
    </>
  );
}

describe('TicketsManager', () => {
  it('shows the tabs, the counts of assigned and pending, and the open list', async () => {
    ticketsApi({ open: [mine1, mine2], pending: [waiting] });
    renderWithProviders(<Screen />, { path: '/tickets' });

    for (const tab of ['tab-open', 'tab-closed', 'tab-search', 'tab-assigned', 'tab-pending', 'new-ticket-button'])
      expect(screen.getByTestId(tab)).toBeTruthy();
    expect(await screen.findByTestId('ticket-item-1')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('count-pending').textContent).toBe('1'));
    expect(screen.getByTestId('count-open').textContent).toBe('2');
    expect(screen.getByTestId('show-all-switch')).toBeTruthy();
    expect(within(screen.getByTestId('ticket-item-1')).getByText('Maria')).toBeTruthy();
  });

  it('does not open a pending ticket on click, accepts it and moves it to the assigned tab', async () => {
    const api = ticketsApi({ open: [mine1], pending: [waiting] });
    renderWithProviders(<Screen />, { path: '/tickets' });
    await userEvent.click(await screen.findByTestId('tab-pending'));
    const item = await screen.findByTestId('ticket-item-3');

    await userEvent.click(item);
    expect(screen.getByTestId('location').textContent).toBe('/tickets');

    await userEvent.click(within(item).getByTestId('accept-button'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/tickets/${waiting.uuid}`));
    expect(api.calls('PUT /tickets/3')).toEqual([{ status: 'open', userId: 7 }]);
    // Now in the assigned list, and no longer pending.
    expect(await screen.findByTestId('ticket-item-3')).toBeTruthy();
    expect(screen.getByTestId('count-open').textContent).toBe('2');
    expect(screen.getByTestId('count-pending').textContent).toBe('0');
  });

  it('asks before resolving when the company’s closeConfirmation setting is enabled', async () => {
    const api = ticketsApi({ open: [mine1] }, [{ key: 'closeConfirmation', value: 'enabled' }]);
    renderWithProviders(<Screen />, { path: '/tickets' });
    const item = await screen.findByTestId('ticket-item-1');
    await waitFor(() => expect(api.calls('GET /settings')).toHaveLength(1));

    await userEvent.click(within(item).getByTestId('resolve-button'));
    expect(await screen.findByText('O atendimento de Maria será encerrado.')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-cancel'));
    expect(api.calls('PUT /tickets/1')).toEqual([]);

    await userEvent.click(within(item).getByTestId('resolve-button'));
    await userEvent.click(await screen.findByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('PUT /tickets/1')).toMatchObject([{ status: 'closed' }]));
  });

  it('resolves at once when the setting is off (the default)', async () => {
    const api = ticketsApi({ open: [mine1] });
    renderWithProviders(<Screen />, { path: '/tickets' });
    await userEvent.click(within(await screen.findByTestId('ticket-item-1')).getByTestId('resolve-button'));
    await waitFor(() => expect(api.calls('PUT /tickets/1')).toMatchObject([{ status: 'closed' }]));
    expect(screen.queryByTestId('confirmation-modal')).toBeNull();
  });

  it('lets an agent peek at a pending ticket of their queue before accepting it', async () => {
    ticketsApi({ pending: [waiting] }, [], {
      'GET /messages/3': () => ({ messages: [], count: 0, hasMore: false, ticket: waiting }),
    });
    const agent = authValue({ user: sessionUser({ id: 7, profile: 'user' }) });
    renderWithProviders(<Screen />, { path: '/tickets', auth: agent });
    await userEvent.click(await screen.findByTestId('tab-pending'));
    await userEvent.click(within(await screen.findByTestId('ticket-item-3')).getByTestId('peek-button'));
    expect(await screen.findByTestId('ticket-peek')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/tickets');
  });

  it('opens a non-pending ticket on click', async () => {
    ticketsApi({ open: [mine1] });
    renderWithProviders(<Screen />, { path: '/tickets' });
    await userEvent.click(await screen.findByTestId('ticket-item-1'));
    expect(screen.getByTestId('location').textContent).toBe(`/tickets/${mine1.uuid}`);
  });

  it('follows live ticket events', async () => {
    ticketsApi({ open: [mine1, mine2], pending: [waiting] });
    renderWithProviders(<Screen />, { path: '/tickets' });
    await screen.findByTestId('ticket-item-2');
    const event = companyEvent.ticket(1);

    act(() => emitSocket(event, { action: 'delete', ticketId: 1 }));
    await waitFor(() => expect(screen.queryByTestId('ticket-item-1')).toBeNull());
    expect(screen.getByTestId('count-open').textContent).toBe('1');

    act(() => emitSocket(event, { action: 'update', ticket: ticket({ id: 9, lastMessage: 'Chegou agora' }) }));
    expect(await screen.findByText('Chegou agora')).toBeTruthy();

    await userEvent.click(screen.getByTestId('tab-pending'));
    expect(within(await screen.findByTestId('ticket-item-3')).getByTestId('ticket-unread').textContent).toBe('2');
    act(() => emitSocket(event, { action: 'updateUnread', ticketId: 3 }));
    await waitFor(() => expect(within(screen.getByTestId('ticket-item-3')).queryByTestId('ticket-unread')).toBeNull());
  });

  it('searches lower-cased after the debounce and goes back to the open tab when cleared', async () => {
    const api = ticketsApi({ open: [mine1], search: [mine2] });
    renderWithProviders(<Screen />, { path: '/tickets' });
    await userEvent.click(screen.getByTestId('tab-search'));
    const input = screen.getByTestId('ticket-search');
    expect(document.activeElement).toBe(input);

    await userEvent.type(input, 'MAria');
    const searched = () =>
      api.fetch.mock.calls
        .map(([url]) => new URL(String(url)).searchParams)
        .filter((params) => params.has('searchParam'));
    await waitFor(() => expect(searched().map((p) => p.get('searchParam'))).toEqual(['maria']));
    expect(searched()[0].get('showAll')).toBe('true');
    expect(await screen.findByTestId('ticket-item-2')).toBeTruthy();

    await userEvent.clear(input);
    await waitFor(() => expect(screen.queryByTestId('ticket-search')).toBeNull());
    expect(screen.getByTestId('tab-assigned')).toBeTruthy();
  });
});
