import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import CampaignsConfigPage from './CampaignsConfigPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);
const shown = (testId: string) => within(screen.getByTestId(testId)).getByRole('combobox').textContent;

function api(records: { key: string; value: string }[]) {
  return mockApi({
    'GET /campaign-settings': () => records,
    'POST /campaign-settings': (body) =>
      Object.entries((body as { settings: object }).settings).map(([key, value]) => ({
        key,
        value: JSON.stringify(value),
      })),
  });
}

async function addVariable(key: string, value: string) {
  await fill(screen.getByTestId('campaign-variable-key'), key);
  await fill(screen.getByTestId('campaign-variable-value'), value);
  await userEvent.click(screen.getByTestId('campaign-variable-add'));
}

describe('CampaignsConfigPage', () => {
  it('starts from the defaults 20 s, after 20 messages, 60 s', async () => {
    api([]);
    renderWithProviders(<CampaignsConfigPage />, { path: '/campaigns-config' });
    await screen.findByTestId('campaigns-config-messageInterval');
    expect(shown('campaigns-config-messageInterval')).toBe('20 segundos');
    expect(shown('campaigns-config-longerIntervalAfter')).toBe('20 mensagens');
    expect(shown('campaigns-config-greaterInterval')).toBe('60 segundos');
    expect(screen.getByText('Nenhuma variável cadastrada.')).toBeTruthy();
  });

  it('offers the spec’s interval options', async () => {
    api([]);
    renderWithProviders(<CampaignsConfigPage />, { path: '/campaigns-config' });
    await userEvent.click(within(await screen.findByTestId('campaigns-config-messageInterval')).getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Sem intervalo',
      '5 segundos',
      '10 segundos',
      '15 segundos',
      '20 segundos',
    ]);
    await userEvent.click(screen.getByRole('option', { name: '5 segundos' }));
    await userEvent.click(within(screen.getByTestId('campaigns-config-longerIntervalAfter')).getByRole('combobox'));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options[0]).toBe('Não definido');
    expect(options[1]).toBe('1 mensagem');
    expect(options.at(-1)).toBe('120 mensagens');
    expect(options).toHaveLength(12);
  });

  it('adds variables, refusing a shortcut already used or reserved, and saves the settings object', async () => {
    const calls = api([
      { key: 'messageInterval', value: '10' },
      { key: 'longerIntervalAfter', value: '5' },
      { key: 'greaterInterval', value: '30' },
      { key: 'variables', value: JSON.stringify([{ key: 'cupom', value: 'VERAO10' }]) },
    ]);
    renderWithProviders(<CampaignsConfigPage />, { path: '/campaigns-config' });
    expect((await screen.findByTestId('campaign-variable-cupom')).textContent).toContain('VERAO10');
    expect(shown('campaigns-config-messageInterval')).toBe('10 segundos');

    const clear = async () => {
      await userEvent.clear(screen.getByTestId('campaign-variable-key'));
      await userEvent.clear(screen.getByTestId('campaign-variable-value'));
    };
    await addVariable('cupom', 'OUTRO');
    expect(await screen.findByText('Atalho já usado')).toBeTruthy();
    await clear();
    await addVariable('com espaço', 'x');
    expect(await screen.findByText('Use letras, números ou _ (até 30)')).toBeTruthy();
    expect(screen.queryByText('Atalho já usado')).toBeNull();
    await clear();
    await addVariable('nome', 'Fulano');
    expect(await screen.findByText('Atalho já usado')).toBeTruthy();
    expect(screen.queryByTestId('campaign-variable-nome')).toBeNull();
    expect(screen.getAllByTestId(/^campaign-variable-cupom$/)).toHaveLength(1);

    await clear();
    await addVariable('loja', 'Rua das Flores, 10');
    expect((await screen.findByTestId('campaign-variable-loja')).textContent).toContain('{loja}');
    expect((screen.getByTestId('campaign-variable-key') as HTMLInputElement).value).toBe('');

    await userEvent.click(screen.getByTestId('campaign-variable-delete-cupom'));
    expect(screen.queryByTestId('campaign-variable-cupom')).toBeNull();

    await userEvent.click(within(screen.getByTestId('campaigns-config-greaterInterval')).getByRole('combobox'));
    await userEvent.click(screen.getByRole('option', { name: '120 segundos' }));
    await userEvent.click(screen.getByTestId('campaigns-config-save'));
    await waitFor(() => expect(calls.calls('POST /campaign-settings')).toHaveLength(1));
    expect(calls.calls('POST /campaign-settings')[0]).toEqual({
      settings: {
        messageInterval: 10,
        longerIntervalAfter: 5,
        greaterInterval: 120,
        variables: [{ key: 'loja', value: 'Rua das Flores, 10' }],
      },
    });
    expect(toast.success).toHaveBeenCalledWith('Configurações salvas');
  });
});
