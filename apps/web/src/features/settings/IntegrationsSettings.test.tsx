import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import SettingsPage from './SettingsPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

/** GET /settings as an admin receives it: the tokens masked, the hosts in clear. */
const asAdmin = [
  { key: 'userRating', value: 'disabled' },
  { key: 'scheduleType', value: 'disabled' },
  { key: 'ipixc', value: 'https://ixc.example.com' },
  { key: 'tokenixc', value: '', isSet: true, last4: 'WXYZ' },
  { key: 'ipmkauth', value: '' },
  { key: 'clientidmkauth', value: '', isSet: true },
  { key: 'clientsecretmkauth', value: '', isSet: false },
  { key: 'asaas', value: '', isSet: false },
];

const input = (key: string) => screen.getByTestId(`setting-${key}`) as HTMLInputElement;

describe('the integration settings', () => {
  it('show a set token as an empty password input with its last four, and send it only when typed', async () => {
    const api = mockApi({
      'GET /settings': () => asAdmin,
      'PUT /settings/tokenixc': () => ({ key: 'tokenixc', value: '', isSet: true, last4: '9999' }),
    });
    renderWithProviders(<SettingsPage />);

    expect(await screen.findByTestId('settings-integrations')).toBeTruthy();
    expect(input('tokenixc').type).toBe('password');
    expect(input('tokenixc').value).toBe('');
    expect(input('tokenixc').placeholder).toBe('configurado (…WXYZ)');
    expect(input('clientidmkauth').placeholder).toBe('configurado');
    expect(input('asaas').placeholder).toBe('');
    expect(screen.queryByTestId('setting-asaas-clear')).toBeNull();
    expect(input('ipixc').type).toBe('text');
    expect(input('ipixc').value).toBe('https://ixc.example.com');

    // Focused and left untouched: nothing is sent.
    await userEvent.click(input('tokenixc'));
    await userEvent.tab();
    expect(api.calls('PUT /settings/tokenixc')).toEqual([]);

    await userEvent.click(input('tokenixc'));
    await userEvent.paste('new-ixc-token-9999');
    await userEvent.tab();
    await waitFor(() => expect(api.calls('PUT /settings/tokenixc')).toEqual([{ value: 'new-ixc-token-9999' }]));
    await waitFor(() => expect(input('tokenixc').placeholder).toBe('configurado (…9999)'));
    expect(input('tokenixc').value).toBe('');
    expect(toast.success).toHaveBeenCalledWith('Operação atualizada com sucesso.');
  });

  it('save a token typed into an unset field on Enter, which then offers to clear it', async () => {
    const api = mockApi({
      'GET /settings': () => asAdmin,
      'PUT /settings/asaas': () => ({ key: 'asaas', value: '', isSet: true, last4: 'AAAA' }),
    });
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByTestId('settings-integrations')).toBeTruthy();
    await userEvent.click(input('asaas'));
    await userEvent.paste('asaas-key-AAAA');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.calls('PUT /settings/asaas')).toEqual([{ value: 'asaas-key-AAAA' }]));
    await waitFor(() => expect(input('asaas').placeholder).toBe('configurado (…AAAA)'));
    expect(screen.getByTestId('setting-asaas-clear')).toBeTruthy();
  });

  it('clear a token with its button and save a changed host', async () => {
    const api = mockApi({
      'GET /settings': () => asAdmin,
      'PUT /settings/clientidmkauth': () => ({ key: 'clientidmkauth', value: '', isSet: false }),
      'PUT /settings/ipmkauth': (body) => ({ key: 'ipmkauth', ...(body as object) }),
    });
    renderWithProviders(<SettingsPage />);

    await userEvent.click(await screen.findByTestId('setting-clientidmkauth-clear'));
    await waitFor(() => expect(api.calls('PUT /settings/clientidmkauth')).toEqual([{ value: '' }]));
    await waitFor(() => expect(input('clientidmkauth').placeholder).toBe(''));
    expect(screen.queryByTestId('setting-clientidmkauth-clear')).toBeNull();

    await userEvent.click(input('ipixc'));
    await userEvent.tab();
    expect(api.calls('PUT /settings/ipixc')).toEqual([]);
    await userEvent.click(input('ipmkauth'));
    await userEvent.paste('https://mk.example.com');
    await userEvent.tab();
    await waitFor(() => expect(api.calls('PUT /settings/ipmkauth')).toEqual([{ value: 'https://mk.example.com' }]));
    expect(input('ipmkauth').value).toBe('https://mk.example.com');
  });

  it('are not shown to plain users', async () => {
    mockApi({ 'GET /settings': () => asAdmin.slice(0, 2) });
    renderWithProviders(<SettingsPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    expect(await screen.findByTestId('setting-scheduleType')).toBeTruthy();
    expect(screen.queryByTestId('settings-integrations')).toBeNull();
  });
});
