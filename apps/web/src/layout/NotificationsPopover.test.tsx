import { companyEvent, type Ticket } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ticketNotifications } from '../features/tickets/notifications';
import TicketsPage from '../features/tickets/TicketsPage';
import { LocationProbe, message, ticket } from '../features/tickets/testing';
import { emitSocket } from '../test/fakeSocket';
import { mockApi } from '../test/mockApi';
import { renderWithProviders } from '../test/render';
import { AppLayout } from './AppLayout';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warn: vi.fn() } }));
vi.mock('../app/RealtimeProvider', () => import('../test/fakeSocket'));

/** Counts the tones the notification beep starts (one beep is two tones). */
const tones = vi.fn();

class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  createGain() {
    return {
      connect: vi.fn(),
      gain: { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() },
    };
  }
  createOscillator() {
    return {
      type: 'sine',
      frequency: { setValueAtTime: vi.fn() },
      connect: vi.fn(),
      start: tones,
      stop: vi.fn(),
    };
  }
  resume() {
    return Promise.resolve();
  }
}

const pending = (id: number, name: string, lastMessage: string): Ticket =>
  ticket({
    id,
    status: 'pending',
    userId: null,
    user: null,
    unreadMessages: 1,
    lastMessage,
    updatedAt: new Date().toISOString(),
    contact: { ...ticket({ id }).contact, name },
  });

const FIRST_PAGE = [pending(11, 'Carla Contato', 'Olá, preciso de ajuda'), pending(12, 'Bruno', '*Pedido* 123')];
const SECOND_PAGE = [pending(13, 'Diana', 'Ainda aguardo')];

function api() {
  return mockApi({
    'GET /queue': () => [{ id: 1, name: 'Vendas', color: '#7C3AED' }],
    'GET /tickets': (_body, url) => {
      if (url.searchParams.get('withUnreadMessages') === 'true') {
        const page = Number(url.searchParams.get('pageNumber'));
        return page === 1
          ? { tickets: FIRST_PAGE, count: 3, hasMore: true }
          : { tickets: SECOND_PAGE, count: 3, hasMore: false };
      }
      return { tickets: [], count: 0, hasMore: false };
    },
  });
}

function renderShell(path: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
          <Route path="/users" element={<span>users page</span>} />
        </Route>
      </Routes>
      <LocationProbe />
    </>,
    { path },
  );
}

/** A contact writes on a pending ticket (not the one on screen). */
function contactWrites(ticketId: number) {
  emitSocket(companyEvent.appMessage(1), {
    action: 'create',
    message: message({ id: 100 + ticketId, ticketId, fromMe: false, body: 'Oi' }),
    ticket: pending(ticketId, 'Carla Contato', 'Oi'),
  });
}

const count = () => screen.getByTestId('notifications-count').textContent;

describe('notifications in the top bar', () => {
  beforeEach(() => {
    ticketNotifications.reset();
    vi.stubGlobal('AudioContext', FakeAudioContext);
  });
  afterEach(() => ticketNotifications.reset());

  it('counts and beeps once per contact message on any screen, the tickets page included', async () => {
    api();
    renderShell('/users');
    expect(screen.getByTestId('notifications-button')).toBeTruthy();

    contactWrites(11);
    await waitFor(() => expect(count()).toBe('1'));
    expect(tones).toHaveBeenCalledTimes(2);

    // The tickets page listens to the same event for its lists, but does not notify a second time.
    await userEvent.click(screen.getByTestId('menu-item-tickets'));
    expect(await screen.findByTestId('tickets-page')).toBeTruthy();
    tones.mockClear();
    contactWrites(12);
    await waitFor(() => expect(count()).toBe('2'));
    expect(tones).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('notifications-button').dataset.count).toBe('2');
    expect(within(screen.getByTestId('notification-badge')).getByText('2')).toBeTruthy();
  });

  it('lists the pending tickets with unread messages, loads more near the bottom and opens one', async () => {
    const { fetch } = api();
    renderShell('/users');

    await userEvent.click(screen.getByTestId('notifications-button'));
    const list = await screen.findByTestId('notifications-list');
    const first = await within(list).findByTestId('notification-item-11');
    expect(within(first).getByText('Carla Contato')).toBeTruthy();
    expect(within(first).getByText('Olá, preciso de ajuda')).toBeTruthy();
    expect(within(first).getByText(/^\d{2}:\d{2}$/)).toBeTruthy();
    // Formatting marks are not shown in the preview.
    expect(within(screen.getByTestId('notification-item-12')).getByText('Pedido 123')).toBeTruthy();
    const [input] = fetch.mock.calls.find(([url]) => String(url).includes('withUnreadMessages')) ?? [];
    const query = new URL(String(input)).searchParams;
    expect(query.get('status')).toBe('pending');
    expect(query.get('pageNumber')).toBe('1');
    expect(screen.queryByTestId('notification-item-13')).toBeNull();

    Object.defineProperties(list, {
      scrollHeight: { configurable: true, value: 1000 },
      clientHeight: { configurable: true, value: 400 },
      scrollTop: { configurable: true, value: 550 },
    });
    fireEvent.scroll(list);
    expect(await within(list).findByTestId('notification-item-13')).toBeTruthy();

    await userEvent.click(screen.getByTestId('notification-item-12'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/tickets/${FIRST_PAGE[1].uuid}`));
    await waitFor(() => expect(screen.queryByTestId('notifications-list')).toBeNull());
  });

  it('says so when nothing is waiting', async () => {
    mockApi({ 'GET /tickets': () => ({ tickets: [], count: 0, hasMore: false }) });
    renderShell('/users');
    await userEvent.click(screen.getByTestId('notifications-button'));
    expect((await screen.findByTestId('notifications-empty')).textContent).toBe('Nenhuma notificação');
  });
});
