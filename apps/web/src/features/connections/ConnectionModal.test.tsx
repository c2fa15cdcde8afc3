import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { integration } from '../queue-integrations/testing';
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

  it('offers the pairing number on the beta provider and sends it, digits only, as providerConfig', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'POST /whatsapp': (body) => ({ status: 201, body: whatsapp({ id: 9, ...(body as object) }) }),
    });
    renderWithProviders(<ConnectionModal open whatsapp={null} onClose={vi.fn()} />);
    await fill(screen.getByTestId('connection-name'), 'Celular');
    await fill(screen.getByTestId('connection-pairing-number'), '5511');
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('connection-pairing-number'));
    await fill(screen.getByTestId('connection-pairing-number'), '+55 (11) 98888-7777');
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(api.calls('POST /whatsapp')).toHaveLength(1));
    expect(api.calls('POST /whatsapp')[0]).toMatchObject({
      provider: 'beta',
      providerConfig: { pairingNumber: '5511988887777' },
    });
  });

  it('sends the wait-then-transfer queue and the holiday from the form, company queues only', async () => {
    const queues = [
      { id: 2, name: 'Triagem', color: '#00aa00' },
      { id: 3, name: 'Suporte', color: '#0000aa' },
    ];
    const api = mockApi({
      'GET /queue': () => queues,
      'POST /whatsapp': (body) => ({ status: 201, body: whatsapp({ id: 10, ...(body as object) }) }),
    });
    renderWithProviders(<ConnectionModal open whatsapp={null} onClose={vi.fn()} />);
    await fill(screen.getByTestId('connection-name'), 'Loja');
    const wait = screen.getByTestId('connection-time-send-queue');
    await userEvent.clear(wait);
    await fill(wait, '15');
    // A wait without its queue, and a holiday that ends before it starts, are refused.
    await fill(screen.getByTestId('connection-holiday-message'), 'Feriado, {{firstName}}.');
    fireEvent.change(screen.getByTestId('connection-holiday-start'), { target: { value: '2026-12-25' } });
    fireEvent.change(screen.getByTestId('connection-holiday-end'), { target: { value: '2026-12-24' } });
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    expect(await screen.findByText('Obrigatório')).toBeTruthy();
    expect(screen.getByText('O fim deve ser igual ou posterior ao início.')).toBeTruthy();
    expect(api.calls('POST /whatsapp')).toHaveLength(0);

    await userEvent.click(within(screen.getByTestId('connection-send-queue')).getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Nenhuma', 'Triagem', 'Suporte']);
    await userEvent.click(screen.getByTestId('connection-send-queue-option-3'));
    fireEvent.change(screen.getByTestId('connection-holiday-end'), { target: { value: '2026-12-26' } });
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(api.calls('POST /whatsapp')).toHaveLength(1));
    expect(api.calls('POST /whatsapp')[0]).toMatchObject({
      timeSendQueue: 15,
      sendIdQueue: 3,
      queueHolidayMessage: 'Feriado, {{firstName}}.',
      queueHolidayDate: '2026-12-25',
      queueHolidayEnd: '2026-12-26',
    });
  });

  it('shows the stored transfer and holiday when editing', async () => {
    mockApi({ 'GET /queue': () => [{ id: 2, name: 'Triagem', color: '#00aa00' }] });
    const existing = whatsapp({
      timeSendQueue: 30,
      sendIdQueue: 2,
      queueHolidayMessage: 'Fechado hoje.',
      queueHolidayDate: '2026-12-31',
    });
    renderWithProviders(<ConnectionModal open whatsapp={existing} onClose={vi.fn()} />);
    expect((screen.getByTestId('connection-time-send-queue') as HTMLInputElement).value).toBe('30');
    expect(await within(screen.getByTestId('connection-send-queue')).findByText('Triagem')).toBeTruthy();
    expect((screen.getByTestId('connection-holiday-message') as HTMLTextAreaElement).value).toBe('Fechado hoje.');
    expect((screen.getByTestId('connection-holiday-start') as HTMLInputElement).value).toBe('2026-12-31');
    expect((screen.getByTestId('connection-holiday-end') as HTMLInputElement).value).toBe('');
  });

  it('shows the server error code through the error toast and under the field it is about', async () => {
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
    const greeting = screen.getByTestId('connection-greeting');
    expect(greeting.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(greeting.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'A mensagem de saudação é obrigatória quando há mais de uma fila.',
    );
  });

  it('picks the AI prompt of the connection', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'GET /prompt': () => ({ prompts: [{ id: 5, name: 'Recepção IA' }] }),
      // `status` is a field of the connection: the reply is spelled out.
      'PUT /whatsapp/1': (body) => ({ status: 200, body: whatsapp({ ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal open whatsapp={whatsapp()} onClose={onClose} />);
    await userEvent.click(within(screen.getByTestId('connection-prompt')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('connection-prompt-option-5'));
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /whatsapp/1')[0]).toMatchObject({ promptId: 5 });
  });

  it('picks the queue integration of the connection, next to the prompt, and clears it', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'GET /queueIntegration': () => [
        integration({ id: 6, name: 'Fluxo de vendas' }),
        integration({ id: 7, type: 'n8n', name: 'Pedidos n8n' }),
      ],
      'PUT /whatsapp/1': (body) => ({ status: 200, body: whatsapp({ ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal open whatsapp={whatsapp({ integrationId: 6 })} onClose={onClose} />);
    const select = screen.getByTestId('connection-integration');
    expect(screen.getByRole('combobox', { name: /^Integração/ })).toBe(within(select).getByRole('combobox'));
    expect(await within(select).findByText('Fluxo de vendas')).toBeTruthy();
    await userEvent.click(within(select).getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Nenhuma',
      'Fluxo de vendas',
      'Pedidos n8n',
    ]);
    await userEvent.click(screen.getByTestId('connection-integration-option-7'));
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /whatsapp/1')[0]).toMatchObject({ integrationId: 7 });
    // The plain list (no query) feeds the picker.
    expect(api.fetch.mock.calls.some(([input]) => String(input).endsWith('/queueIntegration'))).toBe(true);
  });

  it('hides the integration select when the plan has no useIntegrations, keeping the stored one', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'PUT /whatsapp/1': (body) => ({ status: 200, body: whatsapp({ ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal open whatsapp={whatsapp({ integrationId: 6 })} onClose={onClose} />, {
      auth: authValue({ user: sessionUser({}, { plan: plan({ useIntegrations: false }) }) }),
    });
    expect(screen.queryByTestId('connection-integration')).toBeNull();
    await userEvent.click(screen.getByTestId('connection-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /whatsapp/1')[0]).toMatchObject({ integrationId: 6 });
    expect(api.fetch.mock.calls.some(([input]) => String(input).includes('/queueIntegration'))).toBe(false);
  });
});

describe('connectionBody', () => {
  it('sends the form values, keeps the promptId and integrationId and omits blank secrets', () => {
    const existing = whatsapp({
      provider: 'cloud',
      timeSendQueue: 5,
      queueHolidayDate: '2024-12-25',
      promptId: 4,
      integrationId: 8,
    });
    expect(connectionBody(connectionToForm(existing))).toMatchObject({
      timeSendQueue: 5,
      queueHolidayDate: '2024-12-25',
      queueHolidayEnd: null,
      promptId: 4,
      integrationId: 8,
    });
    expect(connectionBody({ ...emptyConnectionForm(), name: 'Nova' })).toMatchObject({ integrationId: null });
    const edited = { ...connectionToForm(existing), timeSendQueue: 0, queueHolidayDate: '' };
    const body = connectionBody(edited);
    expect(body).toMatchObject({ timeSendQueue: 0, queueHolidayDate: null, promptId: 4 });
    expect(body).not.toHaveProperty('providerConfig');
    expect(connectionBody({ ...emptyConnectionForm('beta'), name: 'x', accessToken: 't' })).not.toHaveProperty(
      'providerConfig',
    );
  });
});
