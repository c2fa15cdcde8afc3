import type { IntegrationTestReply } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { QueueIntegrationModal } from './QueueIntegrationModal';
import { integration } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);
const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

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
  language: 'pt-BR',
  jsonContentClientEmail: 'bot@acme-agent.iam.gserviceaccount.com',
});

async function pickType(type: string) {
  await userEvent.click(within(screen.getByTestId('integration-type')).getByRole('combobox'));
  await userEvent.click(await screen.findByTestId(`integration-type-option-${type}`));
}

describe('QueueIntegrationModal', () => {
  it('asks the type first, then the fields of that type', async () => {
    mockApi({});
    renderWithProviders(<QueueIntegrationModal open record={null} onClose={vi.fn()} />);
    const dialog = screen.getByTestId('integration-modal');
    const inputs = within(dialog).getAllByRole('combobox');
    expect(inputs[0]).toBe(within(screen.getByTestId('integration-type')).getByRole('combobox'));

    // Typebot by default, with the defaults of spec part 2 §9.
    expect(within(screen.getByTestId('integration-type')).getByText('Typebot')).toBeTruthy();
    expect(screen.getByLabelText('URL')).toBe(screen.getByTestId('integration-url'));
    expect(screen.getByTestId('integration-typebot-slug')).toBeTruthy();
    expect(value('integration-typebot-expires')).toBe('1');
    expect(value('integration-typebot-delay')).toBe('1000');
    expect(screen.getByText('Horas sem resposta do contato até o fluxo recomeçar (0 = nunca expira)')).toBeTruthy();
    for (const id of ['keyword-finish', 'keyword-restart', 'restart-message', 'unknown-message']) {
      expect(screen.getByTestId(`integration-typebot-${id}`)).toBeTruthy();
    }
    expect(screen.queryByTestId('integration-project-name')).toBeNull();

    await pickType('n8n');
    expect(screen.getByTestId('integration-url')).toBeTruthy();
    expect(screen.queryByTestId('integration-typebot-slug')).toBeNull();
    expect(screen.getByTestId('integration-signing-secret-pending').textContent).toBe(
      'O segredo de assinatura das entregas é gerado ao salvar.',
    );

    await pickType('webhook');
    expect(screen.getByTestId('integration-url')).toBeTruthy();
    expect(screen.queryByTestId('integration-typebot-expires')).toBeNull();

    await pickType('dialogflow');
    expect(screen.queryByTestId('integration-url')).toBeNull();
    expect(screen.getByTestId('integration-project-name')).toBeTruthy();
    expect((screen.getByTestId('integration-json-content') as HTMLTextAreaElement).placeholder).toBe(
      'Cole aqui o JSON da conta de serviço do Google Cloud',
    );
    expect(within(screen.getByTestId('integration-language')).getByText('Português (Brasil)')).toBeTruthy();
    await userEvent.click(within(screen.getByTestId('integration-language')).getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Português (Brasil)',
      'Inglês',
      'Espanhol',
    ]);
  });

  it("validates with the spec's messages per type and sends nothing", async () => {
    const api = mockApi({});
    renderWithProviders(<QueueIntegrationModal open record={null} onClose={vi.fn()} />);
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    // Name, url and typebot's slug.
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(3);

    await fill(screen.getByTestId('integration-name'), 'A');
    await fill(screen.getByTestId('integration-url'), 'ftp://typebot.acme.test');
    await fill(screen.getByTestId('integration-typebot-slug'), 'vendas');
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    expect(screen.getByText('URL inválida')).toBeTruthy();

    await pickType('dialogflow');
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    // The credentials (the project defaults to theirs; the name is still too short).
    await waitFor(() => expect(screen.getAllByText('Obrigatório')).toHaveLength(1));
    expect(screen.getByTestId('integration-json-content').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('integration-project-name').getAttribute('aria-invalid')).toBe('false');
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('creates a Dialogflow integration with its credentials and language', async () => {
    const api = mockApi({
      'POST /queueIntegration': (body) => ({ status: 201, body: integration({ id: 9, ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<QueueIntegrationModal open record={null} onClose={onClose} />);
    await pickType('dialogflow');
    await fill(screen.getByTestId('integration-name'), 'Agente');
    await fill(screen.getByTestId('integration-project-name'), 'acme-agent');
    await fill(screen.getByTestId('integration-json-content'), '{"client_email":"bot@acme.test"}');
    await userEvent.click(within(screen.getByTestId('integration-language')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('integration-language-option-es'));
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /queueIntegration')[0]).toMatchObject({
      type: 'dialogflow',
      name: 'Agente',
      projectName: 'acme-agent',
      jsonContent: '{"client_email":"bot@acme.test"}',
      language: 'es',
    });
    expect(toast.success).toHaveBeenCalledWith('Integração adicionada com sucesso!');
  });

  it('keeps the stored Dialogflow credentials: the e-mail as placeholder, jsonContent not sent when left empty', async () => {
    const api = mockApi({ 'PUT /queueIntegration/3': (body) => integration({ ...dialogflow, ...(body as object) }) });
    const onClose = vi.fn();
    renderWithProviders(<QueueIntegrationModal open record={dialogflow} onClose={onClose} />);
    const json = screen.getByTestId('integration-json-content') as HTMLTextAreaElement;
    expect(json.value).toBe('');
    expect(json.placeholder).toBe('Conta de serviço atual: bot@acme-agent.iam.gserviceaccount.com');
    expect(value('integration-project-name')).toBe('acme-agent');
    await userEvent.click(screen.getByTestId('integration-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [body] = api.calls('PUT /queueIntegration/3');
    expect(body).toMatchObject({ type: 'dialogflow', projectName: 'acme-agent', language: 'pt-BR' });
    expect(body).not.toHaveProperty('jsonContent');
    expect(toast.success).toHaveBeenCalledWith('Integração editada com sucesso!');
  });

  it('shows the signing secret of an n8n integration read-only, with a copy button and the headers', async () => {
    mockApi({});
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<QueueIntegrationModal open record={n8n} onClose={vi.fn()} />);
    const secret = screen.getByTestId('integration-signing-secret') as HTMLInputElement;
    expect(secret.value).toBe('abc123');
    expect(secret.readOnly).toBe(true);
    expect(
      screen.getByText(
        /^Cada entrega traz X-Balcao-Signature: sha256=HMAC\(segredo, `\$\{X-Balcao-Timestamp\}\.\$\{body\}`\) e o id da entrega em X-Balcao-Delivery\.$/,
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByTestId('integration-signing-secret-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('abc123'));
    expect(toast.success).toHaveBeenCalledWith('Segredo copiado!');
  });

  it('reads the secret of a row that came by a live event (events never carry it)', async () => {
    mockApi({ 'GET /queueIntegration/2': () => n8n });
    renderWithProviders(<QueueIntegrationModal open record={{ ...n8n, signingSecret: undefined }} onClose={vi.fn()} />);
    expect(((await screen.findByTestId('integration-signing-secret')) as HTMLInputElement).value).toBe('abc123');
    expect(screen.queryByTestId('integration-signing-secret-pending')).toBeNull();
  });

  it('"Testar" calls testSession with the dialog\'s fields and shows what came back, or the error', async () => {
    let reply: IntegrationTestReply = {
      ok: true,
      messages: ['Oi! Como posso ajudar?', 'Escolha: 1, 2'],
      actions: ['handoff'],
    };
    const api = mockApi({ 'POST /queueIntegration/testSession': () => reply });
    renderWithProviders(<QueueIntegrationModal open record={n8n} onClose={vi.fn()} />);
    expect(value('integration-test-text')).toBe('Olá');
    await userEvent.clear(screen.getByTestId('integration-url'));
    await fill(screen.getByTestId('integration-url'), 'https://n8n.acme.test/webhook/novo');
    await userEvent.click(screen.getByTestId('integration-test'));

    const result = await screen.findByTestId('integration-test-result');
    expect(within(result).getByText('A integração respondeu')).toBeTruthy();
    expect(screen.getByTestId('integration-test-message-0').textContent).toBe('Oi! Como posso ajudar?');
    expect(screen.getByTestId('integration-test-message-1').textContent).toBe('Escolha: 1, 2');
    expect(screen.getByTestId('integration-test-action-handoff')).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith('Integração testada com sucesso!');
    expect(api.calls('POST /queueIntegration/testSession')[0]).toMatchObject({
      id: 2,
      type: 'n8n',
      name: 'Pedidos n8n',
      urlN8N: 'https://n8n.acme.test/webhook/novo',
      text: 'Olá',
    });
    expect(api.calls('POST /queueIntegration/testSession')[0]).not.toHaveProperty('jsonContent');

    reply = { ok: false, messages: [], actions: [], error: 'Tempo esgotado ao chamar o n8n' };
    await userEvent.clear(screen.getByTestId('integration-test-text'));
    await fill(screen.getByTestId('integration-test-text'), 'Quero meu pedido');
    await userEvent.click(screen.getByTestId('integration-test'));
    expect((await screen.findByTestId('integration-test-error')).textContent).toBe('Tempo esgotado ao chamar o n8n');
    expect(within(screen.getByTestId('integration-test-result')).getByText('O teste falhou')).toBeTruthy();
    expect(api.calls('POST /queueIntegration/testSession')[1]).toMatchObject({ text: 'Quero meu pedido' });
  });

  it('validates before testing, and shows a refused test call as the error', async () => {
    const api = mockApi({
      'POST /queueIntegration/testSession': () => ({ status: 404, body: { error: 'ERR_NO_INTEGRATION_FOUND' } }),
    });
    renderWithProviders(<QueueIntegrationModal open record={null} onClose={vi.fn()} />);
    await userEvent.click(screen.getByTestId('integration-test'));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(3);
    expect(api.fetch).not.toHaveBeenCalled();

    await fill(screen.getByTestId('integration-name'), 'Fluxo');
    await fill(screen.getByTestId('integration-url'), 'https://typebot.acme.test');
    await fill(screen.getByTestId('integration-typebot-slug'), 'fluxo');
    await userEvent.click(screen.getByTestId('integration-test'));
    expect((await screen.findByTestId('integration-test-error')).textContent).toBe(
      'Nenhuma integração encontrada com este ID.',
    );
    expect(api.calls('POST /queueIntegration/testSession')[0]).not.toHaveProperty('id');
  });
});
