import { companyEvent, type QueueIntegration } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import QueueIntegrationsPage from './QueueIntegrationsPage';
import {
  applyQueueIntegrationEvent,
  applyQueueIntegrationOptionEvent,
  type QueueIntegrationsData,
} from './queueIntegrationsCache';
import { integration } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

const typebot = integration();
const n8n = integration({
  id: 2,
  type: 'n8n',
  name: 'Pedidos n8n',
  projectName: 'Pedidos n8n',
  urlN8N: 'https://n8n.acme.test/webhook/pedidos',
  signingSecret: 'abc123',
});
const dialogflow = integration({
  id: 3,
  type: 'dialogflow',
  name: 'Agente Dialogflow',
  projectName: 'acme-agent',
  urlN8N: '',
  jsonContentClientEmail: 'bot@acme-agent.iam.gserviceaccount.com',
});

function api(records: QueueIntegration[]) {
  return mockApi({
    'GET /queueIntegration/': (_body, url) => {
      const search = (url.searchParams.get('searchParam') ?? '').toLowerCase();
      const found = records.filter((r) => r.name.toLowerCase().includes(search));
      return { queueIntegrations: found, count: found.length, hasMore: false };
    },
    'POST /queueIntegration': (body) => ({ status: 201, body: integration({ id: 9, ...(body as object) }) }),
    'PUT /queueIntegration/1': (body) => integration({ ...typebot, ...(body as object) }),
    'DELETE /queueIntegration/1': () => ({ message: 'Integration deleted' }),
  });
}

describe('QueueIntegrationsPage', () => {
  it('lists id and name with the count and a logo per type', async () => {
    api([typebot, n8n, dialogflow]);
    renderWithProviders(<QueueIntegrationsPage />);
    expect((await screen.findByTestId('queueIntegrations-count')).textContent).toBe('3 integrações');
    const row = screen.getByTestId('integration-row-2');
    expect(within(row).getByText('2')).toBeTruthy();
    expect(within(row).getByText('Pedidos n8n')).toBeTruthy();
    expect(within(row).getByTestId('integration-logo-n8n')).toBeTruthy();
    expect(within(screen.getByTestId('integration-row-1')).getByTestId('integration-logo-typebot')).toBeTruthy();
    expect(
      within(screen.getByTestId('integration-row-3')).getByRole('img', { name: 'Dialogflow' }).tagName.toLowerCase(),
    ).toBe('svg');
    expect(screen.getByTestId('integration-type-3').textContent).toBe('Dialogflow');
    expect(screen.getByText('ID')).toBeTruthy();
    expect(screen.getByText('Ações')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    api([]);
    renderWithProviders(<QueueIntegrationsPage />);
    expect(await screen.findByText('Nenhuma integração cadastrada')).toBeTruthy();
    expect(screen.getByTestId('queueIntegrations-count').textContent).toBe('0 integrações');
  });

  it('searches by name', async () => {
    const calls = api([typebot, n8n]);
    renderWithProviders(<QueueIntegrationsPage />);
    await screen.findByTestId('integration-row-1');
    await fill(screen.getByTestId('queueIntegrations-search'), 'pedidos');
    await waitFor(() =>
      expect(calls.fetch.mock.calls.some(([input]) => String(input).includes('searchParam=pedidos'))).toBe(true),
    );
    await waitFor(() => expect(screen.queryByTestId('integration-row-1')).toBeNull());
    expect(screen.getByTestId('integration-row-2')).toBeTruthy();
    expect(screen.getByTestId('queueIntegrations-count').textContent).toBe('1 integração');
  });

  it('follows company-{id}-queueIntegration live: create, update, delete', async () => {
    api([typebot]);
    renderWithProviders(<QueueIntegrationsPage />);
    await screen.findByTestId('integration-row-1');
    const event = companyEvent.queueIntegration(1);

    emitSocket(event, { action: 'create', queueIntegration: n8n });
    expect(await screen.findByTestId('integration-row-2')).toBeTruthy();
    expect(screen.getByTestId('queueIntegrations-count').textContent).toBe('2 integrações');

    emitSocket(event, { action: 'update', queueIntegration: { ...typebot, name: 'Fluxo renomeado' } });
    expect(await within(screen.getByTestId('integration-row-1')).findByText('Fluxo renomeado')).toBeTruthy();

    emitSocket(event, { action: 'delete', integrationId: 1 });
    await waitFor(() => expect(screen.queryByTestId('integration-row-1')).toBeNull());
    expect(screen.getByTestId('queueIntegrations-count').textContent).toBe('1 integração');
  });

  it('adds a typebot integration with the defaults and a success toast', async () => {
    const calls = api([]);
    renderWithProviders(<QueueIntegrationsPage />);
    await userEvent.click(await screen.findByTestId('queueIntegrations-add'));
    await fill(screen.getByTestId('integration-name'), 'Boas-vindas');
    await fill(screen.getByTestId('integration-url'), 'https://typebot.acme.test');
    await fill(screen.getByTestId('integration-typebot-slug'), 'boas-vindas');
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    await waitFor(() => expect(calls.calls('POST /queueIntegration')).toHaveLength(1));
    expect(calls.calls('POST /queueIntegration')[0]).toEqual({
      type: 'typebot',
      name: 'Boas-vindas',
      projectName: 'Boas-vindas',
      language: 'pt-BR',
      urlN8N: 'https://typebot.acme.test',
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotKeywordFinish: '',
      typebotKeywordRestart: '',
      typebotRestartMessage: '',
      typebotSlug: 'boas-vindas',
      typebotUnknownMessage: '',
    });
    await waitFor(() => expect(screen.queryByTestId('integration-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Integração adicionada com sucesso!');
  });

  it('edits, then deletes after confirmation', async () => {
    const calls = api([typebot]);
    renderWithProviders(<QueueIntegrationsPage />);
    await userEvent.click(await screen.findByTestId('integration-edit-1'));
    expect((screen.getByTestId('integration-typebot-slug') as HTMLInputElement).value).toBe('vendas');
    await userEvent.clear(screen.getByTestId('integration-typebot-expires'));
    await fill(screen.getByTestId('integration-typebot-expires'), '0');
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /queueIntegration/1')).toHaveLength(1));
    expect(calls.calls('PUT /queueIntegration/1')[0]).toMatchObject({ typebotExpires: 0, name: 'Fluxo de vendas' });
    await waitFor(() => expect(screen.queryByTestId('integration-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Integração editada com sucesso!');

    await userEvent.click(screen.getByTestId('integration-delete-1'));
    expect(
      within(screen.getByTestId('confirmation-modal')).getByText('Excluir a integração Fluxo de vendas?'),
    ).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls.calls('DELETE /queueIntegration/1')).toHaveLength(1));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Integração excluída com sucesso!'));
  });

  it('shows a plain user the list without add, edit or delete', async () => {
    api([typebot]);
    renderWithProviders(<QueueIntegrationsPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    await screen.findByTestId('integration-row-1');
    expect(screen.queryByTestId('queueIntegrations-add')).toBeNull();
    expect(screen.queryByTestId('integration-edit-1')).toBeNull();
    expect(screen.queryByText('Ações')).toBeNull();
  });
});

describe('queueIntegrationsCache', () => {
  const data = (rows: QueueIntegration[]): QueueIntegrationsData => ({
    pages: [{ queueIntegrations: rows, count: rows.length, hasMore: false }],
    pageParams: [1],
  });

  it("keeps the admin's signing secret when an event (which never carries it) updates the row", () => {
    const updated = applyQueueIntegrationEvent(data([n8n]), {
      action: 'update',
      queueIntegration: { ...n8n, name: 'Renomeado', signingSecret: undefined },
    });
    expect(updated?.pages[0].queueIntegrations[0]).toMatchObject({ name: 'Renomeado', signingSecret: 'abc123' });
  });

  it('does not prepend a new integration while a search is shown', () => {
    const searched = applyQueueIntegrationEvent(data([typebot]), { action: 'create', queueIntegration: n8n }, 'x');
    expect(searched?.pages[0].queueIntegrations.map((r) => r.id)).toEqual([1]);
  });

  it("updates the pickers' plain list", () => {
    const list = applyQueueIntegrationOptionEvent([typebot], { action: 'create', queueIntegration: n8n });
    expect(list?.map((r) => r.id)).toEqual([1, 2]);
    expect(applyQueueIntegrationOptionEvent(list, { action: 'delete', integrationId: 1 })?.map((r) => r.id)).toEqual([
      2,
    ]);
  });
});
