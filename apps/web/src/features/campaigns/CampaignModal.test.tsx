import type { Campaign } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { CampaignModal } from './CampaignModal';
import { campaign, ok } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

function api(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /whatsapp': () => [
      { id: 2, name: 'Loja', provider: 'beta', status: 'CONNECTED' },
      { id: 4, name: 'Oficial', provider: 'cloud', status: 'CONNECTED' },
    ],
    'GET /contact-lists/list': () => [{ id: 3, name: 'Clientes VIP' }],
    'GET /tags/list': () => [{ id: 8, name: 'Quentes', color: '#B80000', kanban: 0 }],
    'GET /files/': () => ({ files: [], count: 0, hasMore: false }),
    'GET /campaign-settings': () => [
      { key: 'messageInterval', value: '20' },
      { key: 'variables', value: JSON.stringify([{ key: 'cupom', value: 'VERAO10' }]) },
    ],
    ...extra,
  });
}

function open(record: Campaign | null, onClose = vi.fn()) {
  renderWithProviders(<CampaignModal open record={record} onClose={onClose} />);
  return onClose;
}

async function choose(testId: string, option: string) {
  await userEvent.click(within(screen.getByTestId(testId)).getByRole('combobox'));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('CampaignModal', () => {
  it('checks a new campaign with the spec’s messages', async () => {
    const calls = api();
    open(null);
    expect(screen.getByTestId('campaign-modal-title').textContent).toBe('Nova campanha');
    await userEvent.click(screen.getByTestId('campaign-modal-submit'));
    // name, contact list, connection, scheduled time and the first message.
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(5);
    await fill(input('campaign-name'), 'A');
    await userEvent.click(screen.getByTestId('campaign-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    expect(calls.calls('POST /campaigns')).toHaveLength(0);
  });

  it('posts a new campaign with empty fields as null, then uploads its media', async () => {
    const calls = api({
      'POST /campaigns': (body) => ({
        status: 201,
        body: campaign({ id: 5, ...(body as object), status: 'PROGRAMADA' }),
      }),
      'POST /campaigns/5/media-upload': () => ok(campaign({ id: 5, mediaName: 'banner.png' })),
    });
    const onClose = open(null);
    await fill(input('campaign-name'), 'Aviso de férias');
    await choose('campaign-contact-list', 'Clientes VIP');
    await choose('campaign-connection', 'Loja');
    fireEvent.change(input('campaign-scheduled-at'), { target: { value: '2026-02-01T10:30' } });
    await fill(input('campaign-message-1'), 'Oi {nome}, use o cupom {cupom}');
    await userEvent.click(screen.getByTestId('campaign-tab-3'));
    await fill(input('campaign-message-3'), 'Bom dia {nome}!');
    await userEvent.upload(input('campaign-attach'), new File(['png'], 'banner.png', { type: 'image/png' }));
    await userEvent.click(screen.getByTestId('campaign-modal-submit'));

    await waitFor(() => expect(calls.calls('POST /campaigns')).toHaveLength(1));
    expect(calls.calls('POST /campaigns')[0]).toEqual({
      name: 'Aviso de férias',
      confirmation: false,
      contactListId: 3,
      whatsappId: 2,
      scheduledAt: '2026-02-01 10:30:00',
      tagListId: null,
      fileListId: null,
      message1: 'Oi {nome}, use o cupom {cupom}',
      message2: null,
      message3: 'Bom dia {nome}!',
      message4: null,
      message5: null,
      confirmationMessage1: null,
      confirmationMessage2: null,
      confirmationMessage3: null,
      confirmationMessage4: null,
      confirmationMessage5: null,
      templateName: null,
      templateLanguage: null,
      templateVariables: [],
    });
    await waitFor(() => expect(calls.calls('POST /campaigns/5/media-upload')).toHaveLength(1));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Campanha salva com sucesso.');
  });

  it('edits an INATIVA campaign, sending the whole form again', async () => {
    const calls = api({ 'PUT /campaigns/1': (body) => ok(campaign({ ...(body as object) })) });
    open(campaign());
    expect(screen.getByTestId('campaign-modal-title').textContent).toBe('Editar campanha');
    expect(input('campaign-scheduled-at').value).toBe('2026-01-05T09:03');
    await fill(input('campaign-name'), ' 2');
    expect(within(screen.getByTestId('campaign-tag')).getByRole('combobox').textContent).toBe('Nenhuma');
    await choose('campaign-tag', 'Quentes');
    await userEvent.click(screen.getByTestId('campaign-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /campaigns/1')).toHaveLength(1));
    expect(calls.calls('PUT /campaigns/1')[0]).toMatchObject({
      name: 'Promoção de verão 2',
      contactListId: 3,
      whatsappId: 2,
      scheduledAt: '2026-01-05 09:03:00',
      tagListId: 8,
      message1: 'Olá {nome}, temos novidades!',
    });
  });

  it('shows a PROGRAMADA campaign starting within the hour read-only', async () => {
    api();
    open(campaign({ status: 'PROGRAMADA', scheduledAt: minutesFromNow(30) }));
    expect(screen.getByTestId('campaign-modal-title').textContent).toBe('Campanha (somente leitura)');
    expect(input('campaign-name').disabled).toBe(true);
    expect(input('campaign-message-1').disabled).toBe(true);
    expect(input('campaign-scheduled-at').disabled).toBe(true);
    expect(within(screen.getByTestId('campaign-connection')).getByRole('combobox').getAttribute('aria-disabled')).toBe(
      'true',
    );
    expect(screen.queryByTestId('campaign-modal-submit')).toBeNull();
    expect(screen.queryByTestId('campaign-attach')).toBeNull();
    expect(screen.getByTestId('campaign-modal-close').textContent).toBe('Fechar');
  });

  it('lets a PROGRAMADA campaign more than an hour ahead be edited', async () => {
    api();
    open(campaign({ status: 'PROGRAMADA', scheduledAt: minutesFromNow(90) }));
    expect(screen.getByTestId('campaign-modal-title').textContent).toBe('Editar campanha');
    expect(input('campaign-name').disabled).toBe(false);
    expect(screen.getByTestId('campaign-modal-submit')).toBeTruthy();
  });

  it('keeps only the messages of a CANCELADA campaign editable, and restarts it', async () => {
    const calls = api({
      'PUT /campaigns/1': (body) => ok(campaign({ status: 'CANCELADA', ...(body as object) })),
      'POST /campaigns/1/restart': () => ok(campaign({ status: 'EM_ANDAMENTO' })),
    });
    open(campaign({ status: 'CANCELADA', confirmation: true, scheduledAt: minutesFromNow(-60) }));
    expect(screen.getByTestId('campaign-messages-only-note').textContent).toBe(
      'Campanha cancelada: só as mensagens podem ser alteradas.',
    );
    expect(input('campaign-name').disabled).toBe(true);
    expect(input('campaign-scheduled-at').disabled).toBe(true);
    expect(input('campaign-message-1').disabled).toBe(false);
    expect(input('campaign-confirmation-message-1').disabled).toBe(false);
    expect(screen.queryByTestId('campaign-modal-stop')).toBeNull();

    await fill(input('campaign-confirmation-message-1'), 'Posso enviar? Responda SIM');
    await userEvent.click(screen.getByTestId('campaign-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /campaigns/1')).toHaveLength(1));
    expect(calls.calls('PUT /campaigns/1')[0]).toEqual({
      message1: 'Olá {nome}, temos novidades!',
      message2: null,
      message3: null,
      message4: null,
      message5: null,
      confirmationMessage1: 'Posso enviar? Responda SIM',
      confirmationMessage2: null,
      confirmationMessage3: null,
      confirmationMessage4: null,
      confirmationMessage5: null,
    });

    await userEvent.click(screen.getByTestId('campaign-modal-restart'));
    await waitFor(() => expect(calls.calls('POST /campaigns/1/restart')).toHaveLength(1));
    expect(toast.success).toHaveBeenCalledWith('Campanha reiniciada.');
  });

  it('cancels a running campaign from its read-only dialog', async () => {
    const calls = api({ 'POST /campaigns/1/cancel': () => ok(campaign({ status: 'CANCELADA' })) });
    open(campaign({ status: 'EM_ANDAMENTO', scheduledAt: minutesFromNow(-10) }));
    expect(screen.getByTestId('campaign-modal-title').textContent).toBe('Campanha (somente leitura)');
    expect(screen.queryByTestId('campaign-modal-restart')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar campanha' }));
    await waitFor(() => expect(calls.calls('POST /campaigns/1/cancel')).toHaveLength(1));
  });

  it('shows a confirmation box beside each message once confirmation is on', async () => {
    api();
    open(campaign());
    expect(screen.queryByTestId('campaign-confirmation-message-1')).toBeNull();
    await choose('campaign-confirmation', 'Habilitada');
    expect(screen.getByLabelText('Mensagem de confirmação 1')).toBeTruthy();
    await userEvent.click(screen.getByTestId('campaign-tab-4'));
    expect(screen.getByLabelText('Mensagem 4')).toBeTruthy();
    expect(screen.getByLabelText('Mensagem de confirmação 4')).toBeTruthy();
    await choose('campaign-confirmation', 'Desabilitada');
    expect(screen.queryByLabelText('Mensagem de confirmação 4')).toBeNull();
  });

  it('lists the variables, and offers a template on a Cloud API connection', async () => {
    api();
    open(campaign());
    await waitFor(() =>
      expect(screen.getByTestId('campaign-variables-hint').textContent).toBe(
        'Variáveis disponíveis: {nome}, {numero}, {email}, {cupom}',
      ),
    );
    expect(screen.queryByTestId('campaign-template')).toBeNull();
    await choose('campaign-connection', 'Oficial');
    expect(screen.getByTestId('campaign-template').textContent).toContain('fora da janela de 24 horas');
    expect(screen.getByLabelText('Nome do modelo')).toBeTruthy();
    await choose('campaign-connection', 'Loja');
    expect(screen.queryByTestId('campaign-template')).toBeNull();
  });
});
