import { type Campaign, companyEvent, type Shipping } from '@balcao/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import CampaignReportPage, { CAMPAIGN_REPORT_REFRESH_MS, CAMPAIGN_REPORT_RELOAD_MS } from './CampaignReportPage';
import { campaign, counts, ok, shipping } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const event = companyEvent.campaign(1);
const text = (testId: string) => screen.getByTestId(testId).textContent;
const card = (key: string) => screen.queryByTestId(`campaign-count-${key}`);
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const running = campaign({
  status: 'EM_ANDAMENTO',
  counts: counts({ validContacts: 4, delivered: 2, read: 1, failed: 1, skipped: 2, optedOut: 1, pending: 1 }),
});

/** The server's state, which a test changes before a live event. */
function server(initial: { campaign: Campaign; recipients: Shipping[] }) {
  const state = { ...initial };
  const calls = mockApi({
    'GET /campaigns/1': () => ok(state.campaign),
    'GET /campaigns/1/shipping': () => ({ records: state.recipients, count: state.recipients.length, hasMore: false }),
    'GET /campaigns/1/shipping/export': () => 'numero;nome\n5511999990000;Maria Lima\n',
  });
  const urls = (path: string) =>
    calls.fetch.mock.calls.map(([input]) => new URL(String(input))).filter((url) => url.pathname === path);
  return { state, calls, urls };
}

/** A running campaign's report on screen with one recipient, then timers under the test's control. */
async function shownLive() {
  const api = server({ campaign: running, recipients: [shipping()] });
  renderReport();
  await screen.findByTestId('campaign-shipping-10');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return api;
}

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderReport() {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
        <Route path="/campaigns" element={null} />
      </Routes>
      <Location />
    </>,
    { path: '/campaign/1/report' },
  );
}

describe('CampaignReportPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows delivered of valid, the progress bar and the cards', async () => {
    server({ campaign: running, recipients: [] });
    renderReport();
    expect((await screen.findByTestId('campaign-status-line')).textContent).toBe('3 de 4 entregues');
    expect(screen.getByTestId('campaign-progress').getAttribute('aria-valuenow')).toBe('75');
    expect(text('campaign-report-title')).toBe('Promoção de verão');
    expect(text('campaign-report-status')).toBe('Em Andamento');
    expect(text('campaign-count-validContacts')).toBe('Contatos válidos4');
    expect(text('campaign-count-delivered')).toBe('Entregues3');
    expect(text('campaign-count-read')).toBe('Lidas1');
    expect(text('campaign-count-failed')).toBe('Falhas1');
    expect(text('campaign-count-skipped')).toBe('Ignorados2');
    expect(text('campaign-count-optedOut')).toBe('Descadastrados1');
    expect(text('campaign-count-whatsapp')).toBe('ConexãoLoja');
    expect(text('campaign-count-contactList')).toBe('Lista de contatosClientes VIP');
    expect(text('campaign-count-scheduledAt')).toBe('Agendamento05/01/2026 09:03');
    expect(text('campaign-count-completedAt')).toBe('ConclusãoNão concluída');
    // Confirmation cards only in confirmation mode.
    expect(card('confirmationRequested')).toBeNull();
    expect(card('confirmed')).toBeNull();
    expect(screen.getByText('Nenhum destinatário encontrado.')).toBeTruthy();
  });

  it('shows the confirmation cards when confirmation is on', async () => {
    server({
      campaign: campaign({ confirmation: true, counts: counts({ confirmationRequested: 4, confirmed: 3 }) }),
      recipients: [],
    });
    renderReport();
    await screen.findByTestId('campaign-status-line');
    expect(text('campaign-count-confirmationRequested')).toBe('Confirmações solicitadas4');
    expect(text('campaign-count-confirmed')).toBe('Confirmações3');
    expect(text('campaign-status-line')).toBe('0 de 4 entregues');
  });

  it('lists the recipients with their reasons in words, filtered by state', async () => {
    const { urls } = server({
      campaign: running,
      recipients: [
        shipping(),
        shipping({ id: 11, name: 'João', status: 'failed', reason: '131049', deliveredAt: null }),
        shipping({ id: 12, name: 'Ana', status: 'skipped', reason: 'opted_out', sentAt: null, deliveredAt: null }),
        shipping({ id: 13, name: 'Rui', status: 'failed', reason: 'ERR_XPTO', deliveredAt: null }),
      ],
    });
    renderReport();
    const row = within(await screen.findByTestId('campaign-shipping-10'));
    expect(row.getByText('Maria Lima')).toBeTruthy();
    expect(row.getByText('Entregue')).toBeTruthy();
    expect(row.getByText('Msg. 1')).toBeTruthy();
    expect(row.getByText('05/01/2026 09:05')).toBeTruthy();
    expect(text('campaign-shipping-status-11')).toBe('Falhou');
    expect(text('campaign-shipping-detail-11')).toBe('Não entregue pela Meta para preservar o engajamento');
    expect(text('campaign-shipping-status-12')).toBe('Ignorado');
    expect(text('campaign-shipping-detail-12')).toBe('Contato descadastrado (pediu para não receber)');
    expect(text('campaign-shipping-detail-13')).toBe('Erro: ERR_XPTO');

    expect(urls('/campaigns/1/shipping').at(-1)?.searchParams.get('status')).toBe('all');
    await userEvent.click(within(screen.getByTestId('campaign-report-filter')).getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Todos',
      'Pendentes',
      'Enviando',
      'Aguardando confirmação',
      'Enviados',
      'Entregues',
      'Lidos',
      'Com falha',
      'Ignorados',
      'Descadastrados',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Descadastrados' }));
    await waitFor(() => expect(urls('/campaigns/1/shipping').at(-1)?.searchParams.get('status')).toBe('opted_out'));
  });

  it('downloads every recipient as CSV', async () => {
    const { calls } = server({ campaign: running, recipients: [] });
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('campanha-1.csv');
    });
    try {
      renderReport();
      await screen.findByTestId('campaign-status-line');
      await userEvent.click(screen.getByTestId('campaign-report-export'));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      expect(calls.calls('GET /campaigns/1/shipping/export')).toHaveLength(1);
    } finally {
      click.mockRestore();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    }
  });

  it('follows the progress live, refetching at most once per period', async () => {
    const { state, urls } = await shownLive();
    const before = urls('/campaigns/1/shipping').length;
    state.recipients = [shipping(), shipping({ id: 11, name: 'João' })];
    const progressed = (delivered: number) =>
      campaign({ status: 'EM_ANDAMENTO', counts: counts({ validContacts: 4, delivered }) });
    emitSocket(event, { action: 'update', record: progressed(3), id: 1 });
    emitSocket(event, { action: 'update', record: progressed(4), id: 1 });
    await advance(0);
    expect(text('campaign-status-line')).toBe('4 de 4 entregues');
    expect(screen.queryByTestId('campaign-shipping-11')).toBeNull();
    await advance(CAMPAIGN_REPORT_REFRESH_MS);
    await advance(50);
    expect(screen.getByTestId('campaign-shipping-11')).toBeTruthy();
    expect(urls('/campaigns/1/shipping')).toHaveLength(before + 1);
  });

  it('reloads 5 s after a live event shows the campaign FINALIZADA', async () => {
    const { state, urls } = await shownLive();
    const loads = urls('/campaigns/1').length;

    const finished = campaign({
      status: 'FINALIZADA',
      completedAt: '2026-01-05T13:00:00.000Z',
      counts: counts({ validContacts: 4, delivered: 3 }),
    });
    state.campaign = { ...finished, counts: counts({ validContacts: 4, delivered: 3, read: 1 }) };
    state.recipients = [shipping(), shipping({ id: 11, name: 'João', status: 'read' })];
    emitSocket(event, { action: 'update', record: finished, id: 1 });
    await advance(0);
    expect(text('campaign-report-status')).toBe('Finalizada');
    expect(text('campaign-status-line')).toBe('3 de 4 entregues');
    expect(text('campaign-count-completedAt')).toBe('Conclusão05/01/2026 10:00');

    await advance(CAMPAIGN_REPORT_RELOAD_MS - 1);
    expect(urls('/campaigns/1')).toHaveLength(loads);
    expect(screen.queryByTestId('campaign-shipping-11')).toBeNull();
    await advance(1);
    await advance(50);
    expect(urls('/campaigns/1')).toHaveLength(loads + 1);
    expect(text('campaign-status-line')).toBe('4 de 4 entregues');
    expect(screen.getByTestId('campaign-shipping-11')).toBeTruthy();
  });

  it('leaves for the list when the campaign is deleted', async () => {
    server({ campaign: running, recipients: [] });
    renderReport();
    await screen.findByTestId('campaign-status-line');
    emitSocket(event, { action: 'delete', id: 2 });
    expect(text('location')).toBe('/campaign/1/report');
    emitSocket(event, { action: 'delete', id: 1 });
    await waitFor(() => expect(text('location')).toBe('/campaigns'));
  });
});
