import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { ConnectionModal } from './ConnectionModal';
import { connectionBody, connectionToForm, emptyConnectionForm } from './connectionForm';
import { whatsapp } from './testing/fixtures';
import { fastUser, fill as fillField } from './testing/user';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

describe('ConnectionModal', () => {
  it('validates the name and creates a connection with the defaults', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'POST /whatsapp': (body) => ({ status: 201, body: whatsapp({ id: 7, ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal open whatsapp={null} onClose={onClose} />);

    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    expect(await screen.findByText('Obrigatório')).toBeTruthy();
    await fill(screen.getByTestId('connection-name'), 'A');
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    await fill(screen.getByTestId('connection-name'), 'oja');
    expect((screen.getByTestId('connection-max-bot-queues') as HTMLInputElement).value).toBe('3');
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /whatsapp')[0]).toMatchObject({
      name: 'Aoja',
      provider: 'beta',
      isDefault: false,
      maxUseBotQueues: 3,
      queueIds: [],
    });
    expect(api.calls('POST /whatsapp')[0]).not.toHaveProperty('providerConfig');
    expect(toast.success).toHaveBeenCalledWith('WhatsApp salvo com sucesso.');
  });

  it('asks for the Cloud API settings and sends them as providerConfig', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'POST /whatsapp': (body) => ({ status: 201, body: whatsapp({ id: 8, ...(body as object) }) }),
    });
    renderWithProviders(<ConnectionModal open whatsapp={null} onClose={vi.fn()} />);
    expect(screen.queryByTestId('connection-cloud-fields')).toBeNull();
    await fill(screen.getByTestId('connection-name'), 'Cloud');
    await userEvent.click(within(screen.getByTestId('connection-provider')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('connection-provider-option-cloud'));
    await fill(await screen.findByTestId('connection-cloud-phoneNumberId'), '123');
    await fill(screen.getByTestId('connection-cloud-accessToken'), 'tok');
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(api.calls('POST /whatsapp')).toHaveLength(1));
    expect(api.calls('POST /whatsapp')[0]).toMatchObject({
      provider: 'cloud',
      providerConfig: { phoneNumberId: '123', accessToken: 'tok' },
    });
  });

  it('shows the server error code through the error toast', async () => {
    mockApi({
      'GET /queue': () => [],
      'POST /whatsapp': () => ({ status: 400, body: { error: 'ERR_WAPP_GREETING_REQUIRED', message: 'x' } }),
    });
    renderWithProviders(<ConnectionModal open whatsapp={null} onClose={vi.fn()} />);
    await fill(screen.getByTestId('connection-name'), 'Loja');
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'A mensagem de saudação é obrigatória quando há mais de uma fila.',
        expect.any(Object),
      ),
    );
  });
});

describe('connectionBody', () => {
  it('keeps the hidden fields of the edited connection and omits blank secrets', () => {
    const existing = whatsapp({ provider: 'cloud', timeSendQueue: 5, queueHolidayDate: '2024-12-25', promptId: 4 });
    const body = connectionBody(connectionToForm(existing), existing);
    expect(body).toMatchObject({ timeSendQueue: 5, queueHolidayDate: '2024-12-25', promptId: 4 });
    expect(body).not.toHaveProperty('providerConfig');
    expect(connectionBody({ ...emptyConnectionForm('beta'), name: 'x', accessToken: 't' })).not.toHaveProperty(
      'providerConfig',
    );
  });
});
