import { companyEvent, type QuickMessage } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import QuickMessagesPage from './QuickMessagesPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

function record(overrides: Partial<QuickMessage> = {}): QuickMessage {
  return {
    id: 1,
    shortcode: 'oi',
    message: 'Olá! Como posso ajudar?',
    geral: true,
    userId: 7,
    isMedia: false,
    mediaUrl: null,
    mediaName: null,
    ...overrides,
  };
}

function api(records: QuickMessage[]) {
  return mockApi({
    'GET /quick-messages': () => ({ records, count: records.length, hasMore: false }),
    'POST /quick-messages': (body) => ({ status: 201, body: record({ id: 5, ...(body as object) }) }),
    'PUT /quick-messages/1': (body) => record({ ...(body as object) }),
    'POST /quick-messages/5/media-upload': () => record({ id: 5, mediaName: 'tabela.pdf', isMedia: true }),
    'DELETE /quick-messages/1/media-upload': () => record({ mediaName: null }),
    'DELETE /quick-messages/1': () => ({ message: 'ok' }),
  });
}

describe('QuickMessagesPage', () => {
  it('creates a quick message with an attachment', async () => {
    const calls = api([record({ mediaName: 'cardapio.pdf', isMedia: true })]);
    renderWithProviders(<QuickMessagesPage />);
    expect((await screen.findByTestId('quick-message-media-1')).textContent).toBe('cardapio.pdf');

    await userEvent.click(screen.getByTestId('quick-messages-add'));
    await userEvent.click(screen.getByTestId('quick-message-modal-submit'));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2);

    await fill(screen.getByTestId('quick-message-shortcode'), 'preco');
    await fill(screen.getByTestId('quick-message-message'), 'Segue a tabela');
    await userEvent.click(screen.getByTestId('quick-message-geral'));
    await userEvent.upload(
      screen.getByTestId('quick-message-attach'),
      new File(['%PDF'], 'tabela.pdf', { type: 'application/pdf' }),
    );
    expect(screen.getByTestId('quick-message-pending-file').textContent).toContain('tabela.pdf');
    await userEvent.click(screen.getByTestId('quick-message-modal-submit'));

    await waitFor(() => expect(calls.calls('POST /quick-messages/5/media-upload')).toHaveLength(1));
    expect(calls.calls('POST /quick-messages')).toEqual([
      { shortcode: 'preco', message: 'Segue a tabela', geral: false },
    ]);
    const upload = calls.fetch.mock.calls.find(([input]) => String(input).endsWith('/media-upload'));
    const form = upload?.[1]?.body as FormData;
    expect((form.get('file') as File).name).toBe('tabela.pdf');
    await waitFor(() => expect(screen.queryByTestId('quick-message-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Resposta rápida salva com sucesso!');
  });

  it('edits, removes the attachment and deletes', async () => {
    const calls = api([record({ mediaName: 'cardapio.pdf', isMedia: true })]);
    renderWithProviders(<QuickMessagesPage />);
    await userEvent.click(await screen.findByTestId('quick-message-edit-1'));
    expect(screen.getByTestId('quick-message-media-name').textContent).toBe('cardapio.pdf');
    await userEvent.click(screen.getByTestId('quick-message-media-remove'));
    await waitFor(() => expect(calls.calls('DELETE /quick-messages/1/media-upload')).toHaveLength(1));
    await fill(screen.getByTestId('quick-message-shortcode'), '2');
    await userEvent.click(screen.getByTestId('quick-message-modal-submit'));
    await waitFor(() =>
      expect(calls.calls('PUT /quick-messages/1')).toEqual([
        { shortcode: 'oi2', message: 'Olá! Como posso ajudar?', geral: true },
      ]),
    );

    await waitFor(() => expect(screen.queryByTestId('quick-message-modal')).toBeNull());
    await userEvent.click(screen.getByTestId('quick-message-delete-1'));
    expect(within(screen.getByTestId('confirmation-modal')).getByText('Excluir /oi?')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls.calls('DELETE /quick-messages/1')).toHaveLength(1));
  });

  it('applies live events and ignores other users’ private messages', async () => {
    api([record()]);
    renderWithProviders(<QuickMessagesPage />);
    await screen.findByTestId('quick-message-row-1');
    const event = companyEvent.quickMessage(1);
    emitSocket(event, { action: 'create', record: record({ id: 2, shortcode: 'tchau' }) });
    expect(await screen.findByTestId('quick-message-row-2')).toBeTruthy();
    emitSocket(event, { action: 'create', record: record({ id: 3, geral: false, userId: 99 }) });
    emitSocket(event, { action: 'delete', id: 1 });
    await waitFor(() => expect(screen.queryByTestId('quick-message-row-1')).toBeNull());
    expect(screen.queryByTestId('quick-message-row-3')).toBeNull();
  });
});
