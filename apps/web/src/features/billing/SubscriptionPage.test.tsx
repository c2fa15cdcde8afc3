import type { Company } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import { todayIn, trialDaysLeft } from './format';
import SubscriptionPage from './SubscriptionPage';

const userEvent = fastUser();

function company(overrides: Partial<Company> = {}): Company {
  return {
    id: 1,
    name: 'Acme',
    email: 'financeiro@acme.test',
    phone: null,
    status: true,
    planId: 1,
    plan: { id: 1, name: 'Plano' },
    dueDate: '2026-02-10',
    recurrence: 'MENSAL',
    trialExpiration: null,
    campaignsEnabled: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    schedules: [],
    ...overrides,
  };
}

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderPage(reply: Company) {
  // Wrapped: a company's own `status` field would pass for mockApi's reply status.
  mockApi({ 'GET /companies/1': () => ({ status: 200, body: reply }) });
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/subscription" element={<SubscriptionPage />} />
        <Route path="/financeiro" element={null} />
      </Routes>
      <Location />
    </>,
    { path: '/subscription' },
  );
}

describe('trialDaysLeft', () => {
  it('counts the days to the trial expiration rounded up, null without a trial or once it has ended', () => {
    const now = new Date(2026, 0, 10, 15, 0);
    expect(trialDaysLeft('2026-01-13', now)).toBe(3);
    expect(trialDaysLeft('2026-01-11', now)).toBe(1);
    expect(trialDaysLeft('2026-01-10', now)).toBeNull();
    expect(trialDaysLeft('2025-12-31', now)).toBeNull();
    expect(trialDaysLeft(null, now)).toBeNull();
    expect(trialDaysLeft('2026-01-11', new Date(2026, 0, 10, 0, 0))).toBe(1);
  });

  it("takes today's date in the company's time zone", () => {
    const instant = new Date('2026-01-10T02:00:00.000Z');
    expect(todayIn('America/Sao_Paulo', instant)).toBe('2026-01-09');
    expect(todayIn('UTC', instant)).toBe('2026-01-10');
  });
});

describe('SubscriptionPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the trial message with the days rounded up and the billing e-mail', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 0, 10, 15, 0));
    renderPage(company({ trialExpiration: '2026-01-13' }));
    expect((await screen.findByTestId('subscription-trial')).textContent).toBe(
      'Seu período de teste termina em 3 dias!',
    );
    expect(screen.getByTestId('subscription-email').textContent).toBe('financeiro@acme.test');
    expect(screen.getByTestId('subscription-due-date').textContent).toBe('10/02/2026');
  });

  it('says "1 dia" on the last day, and hides the message without a trial or after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 0, 10, 15, 0));
    const { unmount } = renderPage(company({ trialExpiration: '2026-01-11' }));
    expect((await screen.findByTestId('subscription-trial')).textContent).toBe(
      'Seu período de teste termina em 1 dia!',
    );
    unmount();
    renderPage(company({ trialExpiration: '2026-01-09' }));
    await screen.findByText('financeiro@acme.test');
    expect(screen.queryByTestId('subscription-trial')).toBeNull();
  });

  it("falls back to the session's company when the company cannot be read", async () => {
    const calls = mockApi({ 'GET /companies/1': () => ({ status: 500, body: { error: 'ERR_INTERNAL' } }) });
    renderWithProviders(<SubscriptionPage />, {
      auth: authValue({ user: sessionUser({}, { email: 'billing@acme.test', trialExpiration: null }) }),
    });
    await waitFor(() => expect(calls.calls('GET /companies/1')).toHaveLength(1));
    expect(screen.getByTestId('subscription-email').textContent).toBe('billing@acme.test');
    expect(screen.queryByTestId('subscription-trial')).toBeNull();
  });

  it('"Assine Agora!" opens the contact dialog, which leads to Financeiro', async () => {
    renderPage(company());
    await screen.findByText('financeiro@acme.test');
    const subscribe = screen.getByTestId('subscription-subscribe');
    expect(subscribe.textContent).toBe('Assine Agora!');
    await userEvent.click(subscribe);
    const dialog = await screen.findByTestId('subscription-contact-dialog');
    expect(within(dialog).getByTestId('subscription-contact-email').textContent).toBe(
      'As cobranças são enviadas para financeiro@acme.test.',
    );
    await userEvent.click(within(dialog).getByTestId('subscription-contact-close'));
    await waitFor(() => expect(screen.queryByTestId('subscription-contact-dialog')).toBeNull());

    await userEvent.click(subscribe);
    await userEvent.click(await screen.findByTestId('subscription-contact-financeiro'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/financeiro'));
  });
});
