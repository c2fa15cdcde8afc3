import { companyEvent, type Ticket } from '@balcao/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
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

/** The server's bell: two pages, read at each request. */
function api(bell: { first: Ticket[]; second: Ticket[] } = { first: FIRST_PAGE, second: SECOND_PAGE }) {
  const count = () => bell.first.length + bell.second.length;
  return mockApi({
    'GET /queue': () => [{ id: 1, name: 'Vendas', color: '#7C3AED' }],
    'GET /tickets': (_body, url) => {
      if (url.searchParams.get('withUnreadMessages') === 'true') {
        const page = Number(url.searchParams.get('pageNumber'));
        return page === 1
          ? { tickets: bell.first, count: count(), hasMore: bell.second.length > 0 }
          : { tickets: bell.second, count: count(), hasMore: false };
      }
      return { tickets: [], count: 0, hasMore: false };
    },
  });
}

/** Records the OS notifications shown (the permission is granted). */
class FakeNotification {
  static permission = 'granted';
  static requestPermission = vi.fn(() => Promise.resolve('granted'));
  static shown: FakeNotification[] = [];
  onclick: (() => void) | null = null;
  close = vi.fn();
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
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

/** The queue menu routes a pending ticket to queue 1 (the admin's bell holds every queue). */
function botRoutes(id: number, name: string, server: Ticket[]) {
  const routed = { ...pending(id, name, 'Quero pagar'), unreadMessages: 2 };
  server.push(routed);
  emitSocket(companyEvent.ticket(1), { action: 'update', ticket: routed });
}

/** A contact writes on a pending ticket (not the one on screen). */
function contactWrites(ticketId: number, unreadMessages: number) {
  emitSocket(companyEvent.appMessage(1), {
    action: 'create',
    message: message({ id: 100 + ticketId, ticketId, fromMe: false, body: 'Oi' }),
    ticket: { ...pending(ticketId, 'Carla Contato', 'Oi'), unreadMessages },
  });
}

const count = () => screen.getByTestId('notifications-count').textContent;

describe('notifications in the top bar', () => {
  beforeEach(() => {
    vi.stubGlobal('AudioContext', FakeAudioContext);
    vi.stubGlobal('Notification', FakeNotification);
    vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    FakeNotification.shown = [];
    tones.mockClear();
  });
  afterEach(() => {
    ticketNotifications.setViewing(null);
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a ticket reaching the queue: bell count, tab title, beep and an OS notice that opens it', async () => {
    const server = { first: [] as Ticket[], second: [] };
    api(server);
    renderShell('/users');
    await waitFor(() => expect(screen.getByTestId('notifications-button').dataset.count).toBe('0'));

    botRoutes(21, 'Igor Pagamento', server.first);
    await waitFor(() => expect(count()).toBe('1'));
    expect(document.title).toMatch(/^\(1\)/);
    expect(tones).toHaveBeenCalledTimes(2);
    expect(FakeNotification.shown.map((n) => [n.title, n.options.body])).toEqual([['Igor Pagamento', 'Quero pagar']]);

    // The same ticket again (its message event) is not news; more unread messages are.
    contactWrites(21, 2);
    contactWrites(21, 3);
    expect(tones).toHaveBeenCalledTimes(4);
    expect(count()).toBe('1');

    // The tickets page listens to the same events for its lists, but does not notify a second time.
    await userEvent.click(screen.getByTestId('menu-item-tickets'));
    expect(await screen.findByTestId('tickets-page')).toBeTruthy();
    tones.mockClear();
    botRoutes(22, 'Bruno', server.first);
    await waitFor(() => expect(count()).toBe('2'));
    expect(tones).toHaveBeenCalledTimes(2);
    expect(document.title).toMatch(/^\(2\)/);
    expect(within(screen.getByTestId('notification-badge')).getByText('2')).toBeTruthy();

    act(() => FakeNotification.shown[0].onclick?.());
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(`/tickets/${pending(21, '', '').uuid}`),
    );

    // Accepted (open) or read elsewhere: it leaves the bell and the title.
    server.first = [];
    emitSocket(companyEvent.ticket(1), {
      action: 'update',
      ticket: { ...pending(22, 'Bruno', ''), status: 'open', userId: 7 },
    });
    emitSocket(companyEvent.ticket(1), { action: 'updateUnread', ticketId: 21 });
    await waitFor(() => expect(screen.getByTestId('notifications-button').dataset.count).toBe('0'));
    expect(document.title).not.toMatch(/^\(/);
  });

  it('the badge counts the items of its list', async () => {
    api();
    renderShell('/users');
    await waitFor(() => expect(count()).toBe('3'));
    await userEvent.click(screen.getByTestId('notifications-button'));
    const list = await screen.findByTestId('notifications-list');
    Object.defineProperties(list, {
      scrollHeight: { configurable: true, value: 1000 },
      clientHeight: { configurable: true, value: 400 },
      scrollTop: { configurable: true, value: 550 },
    });
    fireEvent.scroll(list);
    await within(list).findByTestId('notification-item-13');
    expect(within(list).getAllByTestId(/^notification-item-/)).toHaveLength(3);
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
