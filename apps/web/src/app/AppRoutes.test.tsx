import { screen } from '@testing-library/react';
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

  it('keeps /term and /privacy public', () => {
    renderWithProviders(<AppRoutes />, { path: '/privacy', auth: authValue({ user: null }) });
    expect(screen.getByTestId('legal-privacy')).toBeTruthy();
  });

  it('renders a titled "coming soon" page inside the shell for screens not built yet', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { path: '/todolist' });
    expect((await screen.findByTestId('page-title')).textContent).toBe('Tarefas');
    expect(screen.getByTestId('coming-soon')).toBeTruthy();
    expect(screen.getByTestId('app-drawer')).toBeTruthy();
    expect(document.title).toBe('Tarefas · Balcão');
  });

  it('sends a plain user from the dashboard to /tickets', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { path: '/', auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    expect((await screen.findByTestId('page-title')).textContent).toBe('Atendimentos');
  });
});
