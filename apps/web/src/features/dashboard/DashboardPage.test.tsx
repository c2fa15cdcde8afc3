import { companyEvent, type DashboardAttendant, type DashboardReply } from '@balcao/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { sessionUser, user } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import DashboardPage from './DashboardPage';
import { isoDay } from './dashboardFormat';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();

function attendant(overrides: Partial<DashboardAttendant>): DashboardAttendant {
  return {
    id: 1,
    name: 'Ana',
    avatar: null,
    rating: null,
    ratings: 0,
    avgSupportTime: null,
    supportFinished: 0,
    online: false,
    ...overrides,
  };
}

function reply(overrides: Partial<DashboardReply> = {}): DashboardReply {
  return {
    counters: {
      supportPending: 3,
      supportHappening: 2,
      supportFinished: 14,
      leads: 5,
      avgSupportTime: 135,
      medianSupportTime: 40.2,
      avgWaitTime: 7.5,
      medianWaitTime: 5,
      firstResponseTime: null,
      medianFirstResponseTime: null,
    },
    attendants: [
      attendant({
        id: 7,
        name: 'Bruno',
        rating: 4.46,
        ratings: 3,
        avgSupportTime: 135,
        supportFinished: 9,
        online: true,
      }),
      attendant({ id: 8, name: 'Carla' }),
    ],
    hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, count: hour === 9 ? 4 : hour === 14 ? 1 : 0 })),
    period: { from: '2026-11-01', to: '2026-11-24', timezone: 'America/Sao_Paulo' },
    ...overrides,
  };
}

/** Recharts measures its container; jsdom has no ResizeObserver. */
class NoResize {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', NoResize);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function renderPage(answer: (url: URL) => DashboardReply = () => reply()) {
  const api = mockApi({ 'GET /dashboard': (_body, url) => answer(url) });
  const queries: URLSearchParams[] = [];
  const original = api.fetch.getMockImplementation();
  api.fetch.mockImplementation(async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === '/dashboard') queries.push(url.searchParams);
    return (original as typeof fetch)(input, init);
  });
  const me = sessionUser({ id: 1, companyId: 4, profile: 'admin' }, { dueDate: '2027-03-15' });
  renderWithProviders(<DashboardPage />, { auth: authValue({ user: me }) });
  return { queries };
}

describe('DashboardPage', () => {
  it('shows skeletons, then after 1 s reads the month so far and fills the cards, chart and due date', async () => {
    const { queries } = renderPage();
    expect(screen.getByTestId('card-pending-loading')).toBeTruthy();
    expect(screen.getByTestId('dashboard-chart-loading')).toBeTruthy();
    expect(screen.getByTestId('card-dueDate-value').textContent).toBe('15/03/2027');
    await act(() => new Promise((r) => setTimeout(r, 500)));
    expect(queries).toHaveLength(0);

    expect((await screen.findByTestId('card-pending-value')).textContent).toBe('3');
    const today = new Date();
    expect(Object.fromEntries(queries[0])).toEqual({
      date_from: isoDay(new Date(today.getFullYear(), today.getMonth(), 1)),
      date_to: isoDay(today),
    });
    expect(screen.getByTestId('card-happening-value').textContent).toBe('2');
    expect(screen.getByTestId('card-finished-value').textContent).toBe('14');
    expect(screen.getByTestId('card-leads-value').textContent).toBe('5');
    expect(screen.getByTestId('card-supportTime-value').textContent).toBe('02h 15m');
    expect(screen.getByTestId('card-supportTime-caption').textContent).toBe('Mediana 00h 40m');
    expect(screen.getByTestId('card-waitTime-value').textContent).toBe('00h 08m');
    expect(screen.getByTestId('card-firstResponse-value').textContent).toBe('N/A');
    expect(screen.getByTestId('dashboard-chart-total').textContent).toBe('Tickets (5)');
    expect(screen.queryByTestId('dashboard-empty')).toBeNull();
  });

  it('lists the attendants with avatar, half-star rating, average time or N/A and presence', async () => {
    renderPage();
    const bruno = await screen.findByTestId('attendant-7');
    expect(within(bruno).getByText('Bruno')).toBeTruthy();
    expect(screen.getByTestId('attendant-time-7').textContent).toBe('2h 15m');
    expect(screen.getByTestId('attendant-time-8').textContent).toBe('N/A');
    expect(screen.getByTestId('attendant-online-7').textContent).toBe('Online');
    expect(screen.getByTestId('attendant-online-8').textContent).toBe('Offline');
    // 4.46 shows as four and a half stars.
    expect(within(bruno).getByRole('img', { name: /4.5 Stars/ })).toBeTruthy();

    await userEvent.hover(screen.getByTestId('attendant-rating-7'));
    const tip = await screen.findByRole('tooltip');
    expect(within(tip).getByText('4.5')).toBeTruthy();
    expect(within(tip).getByText('1 - Muito Insatisfeito')).toBeTruthy();
    expect(within(tip).getByText('5 - Muito Satisfeito')).toBeTruthy();
    await userEvent.unhover(screen.getByTestId('attendant-rating-7'));
    await userEvent.hover(screen.getByTestId('attendant-rating-8'));
    await waitFor(() => expect(within(screen.getByRole('tooltip')).getByText('N/A')).toBeTruthy());
  });

  it('a new company: the empty state, and no attendants table without attendants', async () => {
    renderPage(() =>
      reply({
        counters: {
          supportPending: 0,
          supportHappening: 0,
          supportFinished: 0,
          leads: 0,
          avgSupportTime: null,
          medianSupportTime: null,
          avgWaitTime: null,
          medianWaitTime: null,
          firstResponseTime: null,
          medianFirstResponseTime: null,
        },
        attendants: [],
        hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 })),
      }),
    );
    expect(await screen.findByTestId('dashboard-empty')).toBeTruthy();
    expect(screen.getByTestId('card-supportTime-value').textContent).toBe('N/A');
    expect(screen.queryByTestId('card-supportTime-caption')).toBeNull();
    expect(screen.queryByTestId('dashboard-attendants')).toBeNull();
  });

  it('filters by period with Filtrar, and asks to set the filter when nothing is chosen', async () => {
    const { queries } = renderPage();
    await screen.findByTestId('card-pending-value');
    await userEvent.click(screen.getByRole('combobox', { name: 'Tipo de filtro' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Filtro por Período' }));
    await userEvent.click(screen.getByTestId('dashboard-apply'));
    expect(toast.info).toHaveBeenCalledWith('Parametrize o filtro', expect.any(Object));
    expect(queries).toHaveLength(1);

    await userEvent.click(screen.getByRole('combobox', { name: 'Período' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Nenhum selecionado',
      'Últimos 3 dias',
      'Últimos 7 dias',
      'Últimos 15 dias',
      'Últimos 30 dias',
      'Últimos 60 dias',
      'Últimos 90 dias',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Últimos 7 dias' }));
    await userEvent.click(screen.getByTestId('dashboard-apply'));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(Object.fromEntries(queries[1])).toEqual({ days: '7' });
  });

  it('filters by dates; both dates cleared asks to set the filter', async () => {
    const { queries } = renderPage();
    await screen.findByTestId('card-pending-value');
    const from = screen.getByTestId('dashboard-from');
    const to = screen.getByTestId('dashboard-to');
    await userEvent.clear(from);
    await userEvent.clear(to);
    await userEvent.click(screen.getByTestId('dashboard-apply'));
    expect(toast.info).toHaveBeenCalledWith('Parametrize o filtro', expect.any(Object));
    await userEvent.type(from, '2026-10-05');
    await userEvent.type(to, '2026-10-20');
    await userEvent.click(screen.getByTestId('dashboard-apply'));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(Object.fromEntries(queries[1])).toEqual({ date_from: '2026-10-05', date_to: '2026-10-20' });
  });

  it('moves the cards with live ticket events (one read per burst) and presence with user events', async () => {
    let pending = 3;
    const { queries } = renderPage(() => reply({ counters: { ...reply().counters, supportPending: pending } }));
    await waitFor(() => expect(screen.getByTestId('card-pending-value').textContent).toBe('3'));
    pending = 2;
    for (let i = 0; i < 3; i++) emitSocket(companyEvent.ticket(4), { action: 'update', ticket: { id: i } });
    await waitFor(() => expect(screen.getByTestId('card-pending-value').textContent).toBe('2'));
    expect(queries).toHaveLength(2);

    emitSocket(companyEvent.user(4), { action: 'update', user: user({ id: 8, name: 'Carla', online: true }) });
    await waitFor(() => expect(screen.getByTestId('attendant-online-8').textContent).toBe('Online'));
    expect(queries).toHaveLength(2);
  });
});
