import type { Prompt } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import PromptsPage from './PromptsPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

const TRAINING = 'Você é o assistente virtual da loja. Responda com educação e poucas palavras.';

function prompt(overrides: Partial<Prompt> = {}): Prompt {
  return {
    id: 1,
    name: 'Atendente virtual',
    prompt: TRAINING,
    voice: 'texto',
    voiceRegion: '',
    maxTokens: 150,
    temperature: 1,
    maxMessages: 10,
    model: 'gpt-4o-mini',
    queueId: 3,
    queue: { id: 3, name: 'Vendas' },
    apiKeyLast4: 'WXYZ',
    voiceKeyLast4: '',
    updatedAt: '2024-03-09T14:05:00.000Z',
    ...overrides,
  };
}

function api(prompts: Prompt[]) {
  return mockApi({
    'GET /prompt': () => ({ prompts }),
    'GET /queue': () => [{ id: 3, name: 'Vendas', color: '#7C3AED' }],
    'POST /prompt': (body) => ({ status: 201, body: prompt({ id: 5, ...(body as object) }) }),
    'PUT /prompt/1': (body) => prompt({ ...(body as object) }),
    'DELETE /prompt/1': () => ({ message: 'Prompt deleted' }),
  });
}

describe('PromptsPage', () => {
  it('lists name, queue and max tokens, and says when there is none', async () => {
    api([prompt(), prompt({ id: 2, name: 'Sem setor', queueId: null, queue: null, maxTokens: 100 })]);
    renderWithProviders(<PromptsPage />);
    const row = await screen.findByTestId('prompt-row-1');
    expect(within(row).getByText('Atendente virtual')).toBeTruthy();
    expect(screen.getByTestId('prompt-queue-1').textContent).toBe('Vendas');
    expect(screen.getByTestId('prompt-max-tokens-1').textContent).toBe('150');
    expect(screen.getByTestId('prompt-queue-2').textContent).toBe('—');
    expect(screen.getByText('Máximo de tokens')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    api([]);
    renderWithProviders(<PromptsPage />);
    expect(await screen.findByText('Nenhum prompt cadastrado')).toBeTruthy();
  });

  it('creates a prompt: the queue is required ("Informe o setor"), defaults are sent', async () => {
    const calls = api([]);
    renderWithProviders(<PromptsPage />);
    await userEvent.click(await screen.findByTestId('prompts-add'));
    expect((screen.getByTestId('prompt-max-tokens') as HTMLInputElement).value).toBe('100');
    expect((screen.getByTestId('prompt-temperature') as HTMLInputElement).value).toBe('1');
    expect((screen.getByTestId('prompt-max-messages') as HTMLInputElement).value).toBe('10');
    await userEvent.click(screen.getByTestId('prompt-modal-submit'));
    expect(await screen.findByText('Informe o setor')).toBeTruthy();
    expect(screen.getByText('Descreva o treinamento para Inteligência Artificial')).toBeTruthy();

    await fill(screen.getByTestId('prompt-name'), 'Atendente virtual');
    await fill(screen.getByTestId('prompt-api-key'), 'sk-test-1234');
    await fill(screen.getByTestId('prompt-prompt'), TRAINING);
    await userEvent.click(within(screen.getByTestId('prompt-queue')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('prompt-queue-option-3'));
    await userEvent.click(screen.getByTestId('prompt-modal-submit'));

    await waitFor(() => expect(calls.calls('POST /prompt')).toHaveLength(1));
    expect(calls.calls('POST /prompt')[0]).toEqual({
      name: 'Atendente virtual',
      prompt: TRAINING,
      apiKey: 'sk-test-1234',
      queueId: 3,
      model: 'gpt-4o-mini',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: 'texto',
      voiceKey: '',
      voiceRegion: '',
    });
    await waitFor(() => expect(screen.queryByTestId('prompt-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Prompt salvo com sucesso!');
  });

  it('edits without resending the key, then deletes after confirmation', async () => {
    const calls = api([prompt()]);
    renderWithProviders(<PromptsPage />);
    await userEvent.click(await screen.findByTestId('prompt-edit-1'));
    expect((screen.getByTestId('prompt-api-key') as HTMLInputElement).value).toBe('');
    expect(screen.getByText('Chave atual termina em WXYZ. Deixe em branco para mantê-la.')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('prompt-max-tokens'));
    await fill(screen.getByTestId('prompt-max-tokens'), '300');
    await userEvent.click(screen.getByTestId('prompt-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /prompt/1')).toHaveLength(1));
    const [body] = calls.calls('PUT /prompt/1');
    expect(body).toMatchObject({ maxTokens: 300, queueId: 3, name: 'Atendente virtual' });
    expect(body).not.toHaveProperty('apiKey');
    expect(body).not.toHaveProperty('voiceKey');
    await waitFor(() => expect(screen.queryByTestId('prompt-modal')).toBeNull());

    await userEvent.click(screen.getByTestId('prompt-delete-1'));
    expect(
      within(screen.getByTestId('confirmation-modal')).getByText('Excluir o prompt Atendente virtual?'),
    ).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls.calls('DELETE /prompt/1')).toHaveLength(1));
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('Prompt excluído com sucesso!'));
  });

  it('shows a plain user the list without add, edit or delete', async () => {
    api([prompt()]);
    renderWithProviders(<PromptsPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    await screen.findByTestId('prompt-row-1');
    expect(screen.queryByTestId('prompts-add')).toBeNull();
    expect(screen.queryByTestId('prompt-edit-1')).toBeNull();
  });
});
