import { companyEvent, type Invoice, STORAGE } from '@balcao/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { toast } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import FinanceiroPage from './FinanceiroPage';
import { PAYMENT_REDIRECT_MS } from './format';
import { invoice } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const text = (testId: string) => screen.getByTestId(testId).textContent?.replace(/\s/g, ' ');

const invoices = [
  invoice({ id: 1, detail: 'Fatura paga', status: 'paid', paidAt: '2024-01-09T10:00:00.000Z', dueDate: '2024-01-10' }),
  invoice({ id: 2, detail: 'Fatura vencida', dueDate: '2024-02-10', value: 149.5 }),
  invoice({ id: 3, detail: 'Fatura em aberto', dueDate: '2099-03-10' }),
];

/** GET /invoices/all: `pages` by page number, filtered by `detail` when searched. */
function api(pages: Invoice[][] = [invoices]) {
  return mockApi({
    'GET /invoices/all': (_body, url) => {
      const search = (url.searchParams.get('searchParam') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('pageNumber') ?? 1);
      const rows = (pages[page - 1] ?? []).filter((i) => i.detail.toLowerCase().includes(search));
      return { invoices: rows, hasMore: page < pages.length && !search };
    },
    'GET /plans/list': () => [],
  });
}

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderPage() {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/financeiro" element={<FinanceiroPage />} />
        <Route path="/" element={null} />
      </Routes>
      <Location />
    </>,
    { path: '/financeiro' },
  );
}

describe('FinanceiroPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the invoices with their amount, due date and display status; overdue rows are tinted red', async () => {
    api();
    renderPage();
    await screen.findByTestId('financeiro-row-3');
    const headers = within(screen.getByTestId('financeiro-list'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Id', 'Detalhes', 'Valor', 'Data Venc.', 'Status', 'Ação']);

    expect(text('financeiro-value-2')).toBe('R$ 149,50');
    expect(text('financeiro-due-2')).toBe('10/02/2024');
    expect(text('financeiro-status-1')).toBe('Pago');
    expect(text('financeiro-status-2')).toBe('Vencido');
    expect(text('financeiro-status-3')).toBe('Em Aberto');

    const overdue = screen.getByTestId('financeiro-row-2');
    expect(overdue.dataset.status).toBe('overdue');
    expect(getComputedStyle(overdue).backgroundColor).toBe('rgba(211, 47, 47, 0.12)');
    expect(getComputedStyle(screen.getByTestId('financeiro-row-3')).backgroundColor).not.toBe(
      'rgba(211, 47, 47, 0.12)',
    );
  });

  it('shows the pay button only for unpaid invoices and opens the checkout of that invoice', async () => {
    api();
    renderPage();
    await screen.findByTestId('financeiro-row-3');
    expect(screen.queryByTestId('financeiro-pay-1')).toBeNull();
    expect(screen.getByTestId('financeiro-pay-2')).toBeTruthy();
    await userEvent.click(screen.getByTestId('financeiro-pay-3'));
    const dialog = await screen.findByTestId('checkout-dialog');
    expect(within(dialog).getByText('Pagar a fatura #3')).toBeTruthy();
    expect(screen.getByTestId('checkout-form').dataset.step).toBe('data');
  });

  it('searches after the debounce and loads the next page near the bottom', async () => {
    const calls = api([invoices, [invoice({ id: 4, detail: 'Página dois' })]]);
    renderPage();
    await screen.findByTestId('financeiro-row-3');

    const list = screen.getByTestId('financeiro-list');
    Object.defineProperty(list, 'scrollHeight', { value: 1000, configurable: true });
    Object.defineProperty(list, 'clientHeight', { value: 400, configurable: true });
    list.scrollTop = 550;
    fireEvent.scroll(list);
    expect(await screen.findByTestId('financeiro-row-4')).toBeTruthy();

    await userEvent.type(screen.getByTestId('financeiro-search'), 'vencida');
    await waitFor(() => expect(screen.queryByTestId('financeiro-row-1')).toBeNull());
    expect(screen.getByTestId('financeiro-row-2')).toBeTruthy();
    const asked = calls.fetch.mock.calls.map(([input]) => new URL(String(input)).searchParams);
    expect(asked.map((q) => q.get('searchParam'))).toContain('vencida');
    expect(asked.map((q) => q.get('searchParam'))).not.toContain('v');
    expect(asked.map((q) => q.get('pageNumber'))).toContain('2');
  });

  it('on the live CONCLUIDA shows the new due date, updates the session and goes to / after 4 s', async () => {
    const calls = api();
    const { auth } = renderPage();
    await screen.findByTestId('financeiro-row-3');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    // A payload that is not a CONCLUIDA is ignored.
    emitSocket(companyEvent.payment(1), { action: 'OTHER' });
    expect(toast.success).not.toHaveBeenCalled();

    emitSocket(companyEvent.payment(1), {
      action: 'CONCLUIDA',
      company: { id: 1, dueDate: '2099-02-10' },
      invoiceId: 3,
    });
    expect(toast.success).toHaveBeenCalledWith(
      'Pagamento confirmado! Sua licença foi renovada até 10/02/2099.',
      expect.anything(),
    );
    expect(auth.updateUser).toHaveBeenCalledWith({ company: expect.objectContaining({ dueDate: '2099-02-10' }) });
    expect(localStorage.getItem(STORAGE.companyDueDate)).toBe('2099-02-10');

    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_REDIRECT_MS - 1));
    expect(text('location')).toBe('/financeiro');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(text('location')).toBe('/');
    expect(calls.calls('GET /invoices/all').length).toBeGreaterThanOrEqual(1);
  });
});
