import { STORAGE } from '@balcao/shared';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { toast } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../test/fixtures';
import { authValue } from '../test/render';
import { AuthContext, type AuthContextValue } from './AuthContext';
import { type Gate, gates } from './gates';
import { PublicOnly, RequireAuth, RequireGate } from './guards';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn() } }));

function renderRoutes(path: string, auth: AuthContextValue, guarded: ReactNode) {
  render(
    <AuthContext value={auth}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/login" element={<PublicOnly>login page</PublicOnly>} />
          <Route path="/" element={<RequireAuth>home page</RequireAuth>} />
          <Route path="/tickets" element={<RequireAuth>tickets page</RequireAuth>} />
          <Route path="/guarded" element={<RequireAuth>{guarded}</RequireAuth>} />
        </Routes>
      </MemoryRouter>
    </AuthContext>,
  );
}

function renderGate(gate: Gate, auth: AuthContextValue) {
  renderRoutes('/guarded', auth, <RequireGate gate={gate}>guarded page</RequireGate>);
}

describe('RequireAuth and PublicOnly', () => {
  it('sends an unauthenticated visitor of a private route to /login', () => {
    renderRoutes('/tickets', authValue({ user: null }), null);
    expect(screen.getByText('login page')).toBeTruthy();
  });

  it('waits while the stored session is being restored', () => {
    renderRoutes('/tickets', authValue({ user: null, status: 'loading' }), null);
    expect(screen.getByTestId('page-loader')).toBeTruthy();
    expect(screen.queryByText('login page')).toBeNull();
  });

  it('sends an authenticated user away from /login to /', () => {
    renderRoutes('/login', authValue(), null);
    expect(screen.getByText('home page')).toBeTruthy();
  });
});

describe('RequireGate', () => {
  afterEach(() => vi.useRealTimers());

  it('shows admin-only pages to admins', () => {
    renderGate(gates.admin, authValue());
    expect(screen.getByText('guarded page')).toBeTruthy();
  });

  it('sends a plain user on the admin-only route to /tickets', () => {
    renderGate(gates.admin, authValue({ user: sessionUser({ profile: 'user' }) }));
    expect(screen.getByText('tickets page')).toBeTruthy();
  });

  it('denies a non-super user the announcements gate: toast, then / after 1 s', () => {
    vi.useFakeTimers();
    renderGate(gates.super, authValue());
    expect(screen.queryByText('guarded page')).toBeNull();
    expect(toast.error).toHaveBeenCalledWith(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      expect.any(Object),
    );
    act(() => vi.advanceTimersByTime(999));
    expect(screen.queryByText('home page')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('home page')).toBeTruthy();
  });

  it('lets a super user through the announcements gate', () => {
    renderGate(gates.super, authValue({ user: sessionUser({ super: true }) }));
    expect(screen.getByText('guarded page')).toBeTruthy();
  });

  it('denies a plan-disabled module and allows it when the flag is on', () => {
    renderGate(gates.plan('useKanban'), authValue({ user: sessionUser({}, { plan: plan({ useKanban: false }) }) }));
    expect(screen.queryByText('guarded page')).toBeNull();
    expect(toast.error).toHaveBeenCalled();
  });

  it('opens the campaigns area through the cshow flag when the plan has no campaigns', () => {
    localStorage.setItem(STORAGE.cshow, 'true');
    renderGate(gates.campaigns, authValue({ user: sessionUser({}, { plan: plan({ useCampaigns: false }) }) }));
    expect(screen.getByText('guarded page')).toBeTruthy();
  });
});
