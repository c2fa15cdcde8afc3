import { STORAGE } from '@balcao/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { http } from '../api/client';
import { sessionReply, sessionUser } from '../test/fixtures';
import { mockApi } from '../test/mockApi';
import { testQueryClient } from '../test/render';
import { AuthProvider, useAuth } from './AuthContext';

vi.mock('react-toastify', () => ({ toast: { warn: vi.fn(), error: vi.fn() } }));

function Probe() {
  const { status, user, login, logout } = useAuth();
  return (
    <div>
      <span data-testid="status">{status}</span>
      <span data-testid="name">{user?.name ?? ''}</span>
      <button type="button" onClick={() => login('ana@acme.test', 'secret').catch(() => undefined)}>
        login
      </button>
      <button type="button" onClick={() => void logout()}>
        logout
      </button>
    </div>
  );
}

function renderAuth(path = '/login') {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <Routes>
            <Route path="*" element={<Probe />} />
          </Routes>
          <Routes>
            <Route path="/tickets" element={<span>at tickets</span>} />
            <Route path="/login" element={<span>at login</span>} />
            <Route path="/users" element={<span>at users</span>} />
          </Routes>
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('AuthProvider', () => {
  it('logs in, stores the session and goes to /tickets', async () => {
    const api = mockApi({ 'POST /auth/login': () => sessionReply({ token: 'abc' }) });
    renderAuth();
    expect(screen.getByTestId('status').textContent).toBe('anonymous');

    await userEvent.click(screen.getByText('login'));
    expect(await screen.findByText('at tickets')).toBeTruthy();
    expect(screen.getByTestId('status').textContent).toBe('authenticated');
    expect(api.calls('POST /auth/login')).toEqual([{ email: 'ana@acme.test', password: 'secret' }]);
    expect(localStorage.getItem(STORAGE.token)).toBe('abc');
    expect(localStorage.getItem(STORAGE.companyId)).toBe('1');
    expect(localStorage.getItem(STORAGE.userId)).toBe('7');
    expect(localStorage.getItem(STORAGE.loggedIn)).toBe('true');
  });

  it('warns after login when the subscription ends in fewer than 5 days', async () => {
    const dueDate = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    mockApi({ 'POST /auth/login': () => sessionReply({ user: sessionUser({}, { dueDate }) }) });
    renderAuth();
    await userEvent.click(screen.getByText('login'));
    await screen.findByText('at tickets');
    expect(toast.warn).toHaveBeenCalledWith(
      expect.stringMatching(/^Sua assinatura vence em [12] dias?$/),
      expect.any(Object),
    );
  });

  it('restores a stored session through the refresh token', async () => {
    localStorage.setItem(STORAGE.token, 'stored');
    const api = mockApi({
      'POST /auth/refresh_token': () => sessionReply({ token: 'fresh', user: sessionUser({ name: 'Bia' }) }),
    });
    renderAuth('/users');
    expect(screen.getByTestId('status').textContent).toBe('loading');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'));
    expect(screen.getByTestId('name').textContent).toBe('Bia');
    expect(localStorage.getItem(STORAGE.token)).toBe('fresh');
    expect(api.calls('POST /auth/refresh_token')).toHaveLength(1);
  });

  it('ends a stored session the server no longer accepts', async () => {
    localStorage.setItem(STORAGE.token, 'stored');
    mockApi({ 'POST /auth/refresh_token': () => ({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } }) });
    renderAuth('/users');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('anonymous'));
    expect(localStorage.getItem(STORAGE.token)).toBeNull();
  });

  it('becomes anonymous when any call reports the session over', async () => {
    mockApi({
      'POST /auth/login': () => sessionReply(),
      'GET /settings': () => ({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } }),
    });
    renderAuth();
    await userEvent.click(screen.getByText('login'));
    await screen.findByText('at tickets');
    await http.get('/settings').catch(() => undefined);
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('anonymous'));
  });

  it('logs out: DELETE /auth/logout, storage cleared, /login', async () => {
    const api = mockApi({ 'POST /auth/login': () => sessionReply(), 'DELETE /auth/logout': () => ({ message: 'ok' }) });
    renderAuth();
    await userEvent.click(screen.getByText('login'));
    await screen.findByText('at tickets');
    await userEvent.click(screen.getByText('logout'));
    expect(await screen.findByText('at login')).toBeTruthy();
    expect(api.calls('DELETE /auth/logout')).toHaveLength(1);
    expect(screen.getByTestId('status').textContent).toBe('anonymous');
    expect(localStorage.getItem(STORAGE.token)).toBeNull();
    expect(localStorage.getItem(STORAGE.loggedIn)).toBe('false');
  });
});
