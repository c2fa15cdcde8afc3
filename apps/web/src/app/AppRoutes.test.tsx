import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionUser } from '../test/fixtures';
import { mockApi } from '../test/mockApi';
import { authValue, renderWithProviders } from '../test/render';
import { AppRoutes } from './AppRoutes';

describe('AppRoutes', () => {
  it('shows the login page with the terms and privacy links to visitors', async () => {
    renderWithProviders(<AppRoutes />, { path: '/login', auth: authValue({ user: null }) });
    expect(await screen.findByTestId('login-submit')).toBeTruthy();
    expect(screen.getByTestId('login-terms').getAttribute('href')).toBe('/term');
    expect(screen.getByTestId('login-privacy').getAttribute('href')).toBe('/privacy');
  });

  it('keeps /term and /privacy public', async () => {
    renderWithProviders(<AppRoutes />, { path: '/privacy', auth: authValue({ user: null }) });
    expect(await screen.findByTestId('legal-privacy')).toBeTruthy();
  });

  it('renders the invoices on /financeiro inside the shell', async () => {
    mockApi({ 'GET /invoices/all': () => ({ invoices: [], hasMore: false }) });
    renderWithProviders(<AppRoutes />, { path: '/financeiro' });
    // The page is lazily loaded: its first import may be slow on a busy machine.
    expect(await screen.findByTestId('financeiro-list', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('page-title').textContent).toBe('Financeiro');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
    expect(screen.getByTestId('app-drawer')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Financeiro · Balcão'));
  });

  it('renders the subscription page on /subscription', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { path: '/subscription' });
    expect(await screen.findByTestId('subscription-subscribe', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('page-title').textContent).toBe('Assinatura');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('renders the to-do list on /todolist', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { path: '/todolist' });
    // The page is lazily loaded: its first import may be slow on a busy machine.
    expect(await screen.findByTestId('todo-form', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('page-title').textContent).toBe('Tarefas');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('renders the queue integrations on /queue-integration', async () => {
    mockApi({ 'GET /queueIntegration/': () => ({ queueIntegrations: [], count: 0, hasMore: false }) });
    renderWithProviders(<AppRoutes />, { path: '/queue-integration' });
    // The page is lazily loaded: its first import may be slow on a busy machine.
    expect(await screen.findByTestId('queueIntegrations-list', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('page-title').textContent).toContain('Integrações');
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('sends a plain user from the dashboard to /tickets', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { path: '/', auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    // The tickets page is lazily loaded: its first import may be slow on a busy machine.
    expect((await screen.findByTestId('page-title', {}, { timeout: 10_000 })).textContent).toBe('Atendimentos');
  });
});
