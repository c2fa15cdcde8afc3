import { STORAGE } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { plan, sessionUser } from '../test/fixtures';
import { mockApi } from '../test/mockApi';
import { authValue, renderWithProviders } from '../test/render';
import { AppLayout } from './AppLayout';

function renderShell(user = sessionUser()) {
  mockApi({});
  const auth = authValue({ user });
  renderWithProviders(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/tickets" element={<span>tickets page</span>} />
        <Route path="/users" element={<span>users page</span>} />
      </Route>
    </Routes>,
    { path: '/tickets', auth },
  );
  return auth;
}

describe('AppLayout', () => {
  it('greets the user and shows the due date, version and both menu sections to an admin', () => {
    renderShell(sessionUser({ name: 'Ana' }, { name: 'Acme', dueDate: '2030-05-31' }));
    expect(screen.getByTestId('greeting').textContent).toBe('Olá Ana, boas-vindas a Acme!');
    expect(screen.getByTestId('due-date').textContent).toBe('Ativo até 31/05/2030');
    expect(screen.getByTestId('app-version').textContent).toBe('v1.10.0');
    expect(screen.getByTestId('user-panel-profile').textContent).toBe('Administrador');
    expect(screen.getByTestId('menu-admin')).toBeTruthy();
    expect(screen.getByTestId('menu-item-tickets').className).toContain('Mui-selected');
  });

  it('hides the administration section and due date from plain users, and plan-disabled items', () => {
    renderShell(sessionUser({ profile: 'user' }, { dueDate: '2030-05-31', plan: plan({ useKanban: false }) }));
    expect(screen.queryByTestId('menu-admin')).toBeNull();
    expect(screen.queryByTestId('due-date')).toBeNull();
    expect(screen.queryByTestId('menu-item-kanban')).toBeNull();
    expect(within(screen.getByTestId('menu-service')).getByTestId('menu-item-contacts')).toBeTruthy();
  });

  it('navigates from the menu and collapses the drawer to icons', async () => {
    renderShell();
    await userEvent.click(screen.getByTestId('menu-item-users'));
    expect(screen.getByText('users page')).toBeTruthy();
    await userEvent.click(screen.getByTestId('drawer-toggle'));
    expect(screen.getByTestId('app-drawer').dataset.state).toBe('collapsed');
    expect(within(screen.getByTestId('menu-item-users')).queryByText('Usuários')).toBeNull();
  });

  it('opens the campaigns submenu', async () => {
    renderShell();
    expect(screen.queryByTestId('menu-item-campaigns-list')).toBeNull();
    await userEvent.click(screen.getByTestId('menu-item-campaigns'));
    expect(screen.getByTestId('menu-item-campaigns-list')).toBeTruthy();
  });

  it('switches the theme and the language, and keeps both in browser storage', async () => {
    renderShell();
    await userEvent.click(screen.getByTestId('theme-toggle'));
    expect(localStorage.getItem(STORAGE.preferredTheme)).toBe('dark');
    expect(screen.getByTestId('theme-toggle').dataset.mode).toBe('dark');

    await userEvent.click(screen.getByTestId('language-select'));
    await userEvent.click(screen.getByTestId('language-option-en'));
    try {
      expect(localStorage.getItem(STORAGE.language)).toBe('en');
      // The English translations load when chosen.
      await waitFor(() => expect(screen.getByTestId('greeting').textContent).toBe('Hello Ana Souza, welcome to Acme!'));
    } finally {
      await i18n.changeLanguage('pt');
    }
  });

  it('logs out from the drawer and from the profile menu', async () => {
    const auth = renderShell();
    await userEvent.click(screen.getByTestId('drawer-logout'));
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(screen.getByTestId('user-menu-logout'));
    expect(auth.logout).toHaveBeenCalledTimes(2);
  });
});
