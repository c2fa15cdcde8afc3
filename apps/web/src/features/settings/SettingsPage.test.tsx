import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../../test/fixtures';
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

  it('gives the super user the Empresas, Planos and Ajuda tabs, each a form above its table', async () => {
    mockApi({
      'GET /settings': () => stored,
      'GET /companies/list': () => [],
      'GET /plans/all': () => [plan({ id: 1, name: 'Básico' })],
      'GET /helps/list': () => [{ id: 1, title: 'Primeiros passos', description: '', video: 'dQw4w9WgXcQ' }],
    });
    renderWithProviders(<SettingsPage />, { auth: authValue({ user: sessionUser({ super: true }) }) });

    await userEvent.click(await screen.findByTestId('settings-tab-companies'));
    expect(await screen.findByTestId('company-form')).toBeTruthy();
    expect(screen.getByTestId('companies-list')).toBeTruthy();
    await userEvent.click(screen.getByTestId('settings-tab-plans'));
    expect(await screen.findByTestId('plan-row-1')).toBeTruthy();
    expect(screen.getByTestId('plan-form')).toBeTruthy();
    await userEvent.click(screen.getByTestId('settings-tab-helps'));
    expect(await screen.findByTestId('help-row-1')).toBeTruthy();
    expect(screen.getByTestId('help-form')).toBeTruthy();
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('shows an admin who is not super none of them', async () => {
    mockApi({ 'GET /settings': () => stored });
    renderWithProviders(<SettingsPage />, {
      auth: authValue({ user: sessionUser({ profile: 'admin', super: false }) }),
    });
    expect(await screen.findByTestId('settings-tab-options')).toBeTruthy();
    for (const tab of ['companies', 'plans', 'helps']) expect(screen.queryByTestId(`settings-tab-${tab}`)).toBeNull();
  });
});
