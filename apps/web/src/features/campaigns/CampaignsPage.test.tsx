import { type Campaign, companyEvent } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/AppRoutes';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import CampaignsPage from './CampaignsPage';
import { campaign, ok } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();

function api(records: Campaign[], extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /campaigns/': () => ({ records, count: records.length, hasMore: false }),
    'GET /whatsapp': () => [],
    'GET /contact-lists/list': () => [],
    'GET /tags/list': () => [],
    'GET /files/': () => ({ files: [], count: 0, hasMore: false }),
    'GET /campaign-settings': () => [],
    ...extra,
  });
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('CampaignsPage', () => {
  it('lists the campaigns with the spec’s words for what is missing', async () => {
    api([
      campaign({ status: 'EM_ANDAMENTO', confirmation: true, completedAt: null }),
      campaign({
        id: 2,
        name: 'Sem nada',
        contactList: null,
        contactListId: null,
        whatsapp: null,
        whatsappId: null,
        scheduledAt: null,
        completedAt: null,
      }),
      campaign({ id: 3, status: 'FINALIZADA', completedAt: '2026-01-05T15:40:00.000Z' }),
    ]);
    renderWithProviders(<CampaignsPage />, { path: '/campaigns' });
    await screen.findByTestId('campaign-row-1');
    expect(text('campaigns-count')).toBe('3 campanhas');

    expect(text('campaign-name-1')).toBe('Promoção de verão');
    expect(text('campaign-status-1')).toBe('Em Andamento');
    expect(text('campaign-contact-list-1')).toBe('Clientes VIP');
    expect(text('campaign-connection-1')).toBe('Loja');
    expect(text('campaign-scheduled-at-1')).toBe('05/01/2026 09:03');
    expect(text('campaign-completed-at-1')).toBe('Não concluída');
    expect(text('campaign-confirmation-1')).toBe('Habilitada');

    expect(text('campaign-status-2')).toBe('Inativa');
    expect(text('campaign-contact-list-2')).toBe('Não definida');
    expect(text('campaign-connection-2')).toBe('Não definido');
    expect(text('campaign-scheduled-at-2')).toBe('Sem agendamento');
    expect(text('campaign-confirmation-2')).toBe('Desabilitada');

    expect(text('campaign-status-3')).toBe('Finalizada');
    expect(text('campaign-completed-at-3')).toBe('05/01/2026 12:40');
  });

  it('offers stop only while running and restart only once cancelled; every row has report, edit, delete', async () => {
    api([
      campaign({ id: 1, status: 'EM_ANDAMENTO' }),
      campaign({ id: 2, status: 'CANCELADA' }),
      campaign({ id: 3, status: 'INATIVA' }),
      campaign({ id: 4, status: 'FINALIZADA' }),
    ]);
    renderWithProviders(<CampaignsPage />, { path: '/campaigns' });
    await screen.findByTestId('campaign-row-1');
    const row = (id: number) => within(screen.getByTestId(`campaign-row-${id}`));
    expect(row(1).queryByRole('button', { name: 'Parar campanha' })).toBeTruthy();
    expect(row(1).queryByRole('button', { name: 'Reiniciar campanha' })).toBeNull();
    expect(row(2).queryByRole('button', { name: 'Reiniciar campanha' })).toBeTruthy();
    expect(row(2).queryByRole('button', { name: 'Parar campanha' })).toBeNull();
    for (const id of [3, 4]) {
      expect(row(id).queryByRole('button', { name: 'Parar campanha' })).toBeNull();
      expect(row(id).queryByRole('button', { name: 'Reiniciar campanha' })).toBeNull();
    }
    for (const id of [1, 2, 3, 4]) {
      expect(row(id).getByRole('link', { name: 'Relatório' }).getAttribute('href')).toBe(`/campaign/${id}/report`);
      expect(row(id).getByRole('button', { name: 'Editar' })).toBeTruthy();
      expect(row(id).getByRole('button', { name: 'Excluir' })).toBeTruthy();
    }
  });

  it('stops a running campaign, and shows why a restart was refused', async () => {
    const calls = api([campaign({ id: 1, status: 'EM_ANDAMENTO' }), campaign({ id: 2, status: 'CANCELADA' })], {
      'POST /campaigns/1/cancel': () => ok(campaign({ id: 1, status: 'CANCELADA' })),
      'POST /campaigns/2/restart': () => ({ status: 409, body: { error: 'ERR_CAMPAIGN_STATUS' } }),
    });
    renderWithProviders(<CampaignsPage />, { path: '/campaigns' });
    await userEvent.click(await screen.findByTestId('campaign-stop-1'));
    await waitFor(() => expect(calls.calls('POST /campaigns/1/cancel')).toHaveLength(1));
    await waitFor(() => expect(text('campaign-status-1')).toBe('Cancelada'));
    expect(toast.success).toHaveBeenCalledWith('Campanha cancelada.');
    expect(screen.getByTestId('campaign-restart-1')).toBeTruthy();

    await userEvent.click(screen.getByTestId('campaign-restart-2'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'A campanha não está em um estado que permita esta ação.',
        expect.any(Object),
      ),
    );
    expect(text('campaign-status-2')).toBe('Cancelada');
  });

  it('deletes after confirmation', async () => {
    const calls = api([campaign()], { 'DELETE /campaigns/1': () => ({ message: 'ok' }) });
    renderWithProviders(<CampaignsPage />, { path: '/campaigns' });
    await userEvent.click(await screen.findByTestId('campaign-delete-1'));
    expect(
      within(screen.getByTestId('confirmation-modal')).getByText('Excluir a campanha Promoção de verão?'),
    ).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls.calls('DELETE /campaigns/1')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('campaign-row-1')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Campanha excluída com sucesso.');
  });

  it('follows the live events and shows an empty state', async () => {
    api([]);
    renderWithProviders(<CampaignsPage />, { path: '/campaigns' });
    expect(await screen.findByText('Nenhuma campanha encontrada.')).toBeTruthy();
    const event = companyEvent.campaign(1);
    emitSocket(event, { action: 'create', record: campaign({ id: 7, name: 'Nova' }), id: 7 });
    expect(await screen.findByTestId('campaign-row-7')).toBeTruthy();
    emitSocket(event, { action: 'update', record: campaign({ id: 7, status: 'EM_ANDAMENTO' }), id: 7 });
    await waitFor(() => expect(text('campaign-status-7')).toBe('Em Andamento'));
    expect(screen.getByTestId('campaign-stop-7')).toBeTruthy();
    emitSocket(event, { action: 'delete', id: 7 });
    await waitFor(() => expect(screen.queryByTestId('campaign-row-7')).toBeNull());
  });

  it('is the page of /campaigns, no longer "coming soon"', async () => {
    api([campaign()]);
    renderWithProviders(<AppRoutes />, { path: '/campaigns' });
    expect(await screen.findByTestId('campaign-row-1')).toBeTruthy();
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });
});
