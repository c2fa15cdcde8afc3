import type { Queue, QueueOption } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { integration } from '../queue-integrations/testing';
import { QueueModal } from './QueueModal';
import { DEFAULT_QUEUE_SCHEDULES, maskTime } from './queueForm';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

function queue(overrides: Partial<Queue> = {}): Queue {
  return {
    id: 4,
    name: 'Vendas',
    color: '#7C3AED',
    greetingMessage: 'Olá',
    outOfHoursMessage: '',
    orderQueue: 1,
    schedules: DEFAULT_QUEUE_SCHEDULES.map((s) => ({ ...s })),
    integrationId: null,
    promptId: null,
    ...overrides,
  };
}

describe('QueueModal', () => {
  it('has the two tabs and the default hours, typed as HH:MM', async () => {
    mockApi({});
    renderWithProviders(<QueueModal open queue={null} onClose={vi.fn()} />);

    expect(screen.getByTestId('queue-tab-data').textContent).toBe('Dados da Fila');
    expect(screen.getByTestId('queue-tab-schedules').textContent).toBe('Horários de Atendimento');
    expect(screen.getByTestId('queue-options-unsaved')).toBeTruthy();

    await userEvent.click(screen.getByTestId('queue-tab-schedules'));
    expect(screen.queryByTestId('queue-name')).toBeNull();
    expect(value('queue-schedule-monday-start')).toBe('08:00');
    expect(value('queue-schedule-friday-end')).toBe('18:00');
    expect(value('queue-schedule-saturday-start')).toBe('08:00');
    expect(value('queue-schedule-saturday-end')).toBe('12:00');
    expect(value('queue-schedule-sunday-start')).toBe('00:00');
    expect(value('queue-schedule-sunday-end')).toBe('00:00');
    await userEvent.clear(screen.getByTestId('queue-schedule-monday-start'));
    await fill(screen.getByTestId('queue-schedule-monday-start'), '0930');
    expect(value('queue-schedule-monday-start')).toBe('09:30');
  });

  it("validates the colour, offers the palette (other queues' colours taken) and saves with the hours", async () => {
    const api = mockApi({
      'GET /queue': () => [queue({ id: 1, color: '#b80000' })],
      'POST /queue': (body) => ({ status: 201, body: queue({ id: 9, ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open queue={null} onClose={onClose} />);

    await fill(screen.getByTestId('queue-name'), 'Suporte');
    await fill(screen.getByTestId('queue-color'), '#f');
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('queue-color'));
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    expect(await screen.findByText('Obrigatório')).toBeTruthy();

    await userEvent.click(screen.getByTestId('queue-color-palette'));
    const taken = (await screen.findByTestId('queue-color-swatch-0')) as HTMLButtonElement;
    await waitFor(() => expect(taken.disabled).toBe(true));
    expect(taken.getAttribute('aria-label')).toBe('#B80000 (já usada)');
    await userEvent.click(await screen.findByTestId('queue-color-swatch-5'));
    expect(value('queue-color')).toBe('#1273DE');

    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [body] = api.calls('POST /queue') as { schedules: unknown[] }[];
    expect(body).toMatchObject({ name: 'Suporte', color: '#1273DE', orderQueue: null });
    expect(body.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
    expect(toast.success).toHaveBeenCalledWith('Fila salva com sucesso!');
  });

  it('shows an invalid time on the hours tab when saving', async () => {
    const api = mockApi({});
    renderWithProviders(<QueueModal open queue={queue()} onClose={vi.fn()} />);
    await userEvent.click(screen.getByTestId('queue-tab-schedules'));
    await userEvent.clear(screen.getByTestId('queue-schedule-tuesday-end'));
    await fill(screen.getByTestId('queue-schedule-tuesday-end'), '2599');
    await userEvent.click(screen.getByTestId('queue-tab-data'));
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    expect(await screen.findByText('Horário inválido')).toBeTruthy();
    expect(screen.getByTestId('queue-panel-schedules')).toBeTruthy();
    expect(api.calls('PUT /queue/4')).toHaveLength(0);
  });

  it('edits the options tree of a saved queue: adds a child and deletes with a reload', async () => {
    let root: QueueOption[] = [
      { id: 1, queueId: 4, parentId: null, title: 'Financeiro', message: 'Boletos', option: 1 },
      { id: 2, queueId: 4, parentId: null, title: 'Comercial', message: '', option: 2 },
    ];
    let children: QueueOption[] = [];
    const api = mockApi({
      'GET /queue-options': (_body, url) => (url.searchParams.get('parentId') === '1' ? children : root),
      'POST /queue-options': (body) => {
        const input = body as QueueOption;
        const created = { ...input, id: 10, option: children.length + 1 };
        children = [...children, created];
        return { status: 201, body: created };
      },
      'DELETE /queue-options/1': () => {
        root = [{ ...root[1], option: 1 }];
        return { message: 'ok' };
      },
    });
    renderWithProviders(<QueueModal open queue={queue()} onClose={vi.fn()} />);

    expect((await screen.findByTestId('queue-option-label-1')).textContent).toBe('Financeiro');
    expect(screen.getByTestId('queue-option-number-2').textContent).toBe('2');

    await userEvent.click(screen.getByTestId('queue-option-add-child-1'));
    await fill(await screen.findByTestId('queue-option-draft-1-title'), '2ª via');
    await fill(screen.getByTestId('queue-option-draft-1-message'), 'Envie o CPF');
    await userEvent.click(screen.getByTestId('queue-option-draft-1-save'));
    expect((await screen.findByTestId('queue-option-label-10')).textContent).toBe('2ª via');
    expect(screen.getByTestId('queue-option-number-10').textContent).toBe('1.1');
    expect(api.calls('POST /queue-options')).toEqual([
      { queueId: 4, parentId: 1, title: '2ª via', message: 'Envie o CPF' },
    ]);

    await userEvent.click(screen.getByTestId('queue-option-delete-1'));
    await waitFor(() => expect(screen.queryByTestId('queue-option-1')).toBeNull());
    expect(screen.getByTestId('queue-option-number-2').textContent).toBe('1');
    expect(within(screen.getByTestId('queue-options')).queryByText('Financeiro')).toBeNull();
  });

  it('edits an option inline', async () => {
    const root: QueueOption[] = [{ id: 1, queueId: 4, parentId: null, title: 'Financeiro', message: '', option: 1 }];
    const api = mockApi({
      'GET /queue-options': () => root,
      'PUT /queue-options/1': (body) => {
        Object.assign(root[0], body);
        return root[0];
      },
    });
    renderWithProviders(<QueueModal open queue={queue()} onClose={vi.fn()} />);
    await userEvent.click(await screen.findByTestId('queue-option-edit-1'));
    await fill(screen.getByTestId('queue-option-form-1-title'), ' e boletos');
    await userEvent.click(screen.getByTestId('queue-option-form-1-save'));
    await waitFor(() => expect(screen.getByTestId('queue-option-label-1').textContent).toBe('Financeiro e boletos'));
    expect(api.calls('PUT /queue-options/1')).toEqual([{ title: 'Financeiro e boletos', message: '' }]);
  });

  it('picks the AI prompt that answers in the queue, and clears it', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'GET /prompt': () => ({ prompts: [{ id: 8, name: 'Atendente virtual' }] }),
      'PUT /queue/4': (body) => queue({ ...(body as object) }),
      'GET /queue-options': () => [],
    });
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open queue={queue()} onClose={onClose} />);
    await userEvent.click(within(screen.getByTestId('queue-prompt')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('queue-prompt-option-8'));
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /queue/4')[0]).toMatchObject({ promptId: 8 });
  });

  it('hides the prompt select when the plan has no useOpenAi, keeping the stored prompt', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'PUT /queue/4': (body) => queue({ ...(body as object) }),
      'GET /queue-options': () => [],
    });
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open queue={queue({ promptId: 2 })} onClose={onClose} />, {
      auth: authValue({ user: sessionUser({}, { plan: plan({ useOpenAi: false }) }) }),
    });
    expect(screen.queryByTestId('queue-prompt')).toBeNull();
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /queue/4')[0]).toMatchObject({ promptId: 2 });
    expect(api.fetch.mock.calls.some(([input]) => String(input).includes('/prompt'))).toBe(false);
  });

  it('picks the queue integration that answers in the queue, and clears it', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'GET /queueIntegration': () => [
        integration({ id: 6, name: 'Fluxo de vendas' }),
        integration({ id: 7, type: 'dialogflow', name: 'Agente' }),
      ],
      'PUT /queue/4': (body) => queue({ ...(body as object) }),
      'GET /queue-options': () => [],
    });
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open queue={queue({ integrationId: 6 })} onClose={onClose} />);
    const select = screen.getByTestId('queue-integration');
    expect(await within(select).findByText('Fluxo de vendas')).toBeTruthy();
    await userEvent.click(within(select).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('queue-integration-option-7'));
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /queue/4')[0]).toMatchObject({ integrationId: 7 });

    onClose.mockClear();
    renderWithProviders(<QueueModal open queue={queue({ id: 4, integrationId: 6 })} onClose={onClose} />);
    const second = screen.getAllByTestId('queue-integration').at(-1) as HTMLElement;
    await within(second).findByText('Fluxo de vendas');
    await userEvent.click(within(second).getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: 'Nenhuma' }));
    await userEvent.click(screen.getAllByTestId('queue-modal-submit').at(-1) as HTMLElement);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /queue/4')[1]).toMatchObject({ integrationId: null });
  });

  it('hides the integration select when the plan has no useIntegrations, keeping the stored one', async () => {
    const api = mockApi({
      'GET /queue': () => [],
      'PUT /queue/4': (body) => queue({ ...(body as object) }),
      'GET /queue-options': () => [],
    });
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open queue={queue({ integrationId: 3 })} onClose={onClose} />, {
      auth: authValue({ user: sessionUser({}, { plan: plan({ useIntegrations: false }) }) }),
    });
    expect(screen.queryByTestId('queue-integration')).toBeNull();
    await userEvent.click(screen.getByTestId('queue-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /queue/4')[0]).toMatchObject({ integrationId: 3 });
    expect(api.fetch.mock.calls.some(([input]) => String(input).includes('/queueIntegration'))).toBe(false);
  });
});

describe('maskTime', () => {
  it('keeps four digits and inserts the colon', () => {
    expect(maskTime('0830')).toBe('08:30');
    expect(maskTime('8')).toBe('8');
    expect(maskTime('12:345')).toBe('12:34');
  });
});
