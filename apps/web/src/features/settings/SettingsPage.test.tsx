import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import SettingsPage, { visibleTabs } from './SettingsPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const stored = [
  { key: 'userRating', value: 'disabled' },
  { key: 'scheduleType', value: 'disabled' },
];

describe('visibleTabs', () => {
  it('always shows Opções; Horários with company hours; Empresas, Planos, Ajuda to super users', () => {
    expect(visibleTabs(false, 'disabled')).toEqual(['options']);
    expect(visibleTabs(false, 'company')).toEqual(['options', 'schedules']);
    expect(visibleTabs(true, 'queue')).toEqual(['options', 'companies', 'plans', 'helps']);
  });
});

describe('SettingsPage', () => {
  it('saves an option as soon as it changes', async () => {
    const api = mockApi({
      'GET /settings': () => stored,
      'PUT /settings/userRating': (body) => ({ key: 'userRating', ...(body as object) }),
    });
    renderWithProviders(<SettingsPage />);

    const field = await screen.findByTestId('setting-userRating');
    expect(within(field).getByRole('combobox').textContent).toBe('Desabilitadas');
    await userEvent.click(within(field).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('setting-userRating-enabled'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação atualizada com sucesso.'));
    expect(api.calls('PUT /settings/userRating')).toEqual([{ value: 'enabled' }]);
    expect(within(field).getByRole('combobox').textContent).toBe('Habilitadas');
    expect(screen.getByTestId('setting-call').textContent).toContain('Aceitar');
  });

  it('shows the options read-only to plain users', async () => {
    mockApi({ 'GET /settings': () => stored });
    renderWithProviders(<SettingsPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });

    const field = await screen.findByTestId('setting-scheduleType');
    expect(within(field).getByRole('combobox').getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Apenas administradores podem alterar as configurações.')).toBeTruthy();
    expect(screen.queryByTestId('settings-tab-companies')).toBeNull();
  });
});
