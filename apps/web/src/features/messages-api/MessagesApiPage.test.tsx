import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import MessagesApiPage from './MessagesApiPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (testId: string, text: string) => fillField(userEvent, screen.getByTestId(testId), text);
const API = 'https://api.acme.test';

const reply = {
  message: 'Mensagem enviada com sucesso',
  id: 4821,
  ids: [4821],
  ticketId: 312,
  contactId: 97,
  number: '5511999998888',
  status: 'pending',
};

/** The requests the page made to the external API: headers and body as sent. */
function sends(fetch: ReturnType<typeof mockApi>['fetch']) {
  return fetch.mock.calls
    .filter(([input]) => String(input) === `${API}/api/messages/send`)
    .map(([, init]) => ({ headers: init?.headers as Record<string, string>, body: init?.body }));
}

beforeEach(() => {
  window.__ENV__ = { BACKEND_URL: API };
});
afterEach(() => {
  window.__ENV__ = undefined;
});

describe('MessagesApiPage', () => {
  it("documents text and media sends with the API's host", () => {
    renderWithProviders(<MessagesApiPage />, { path: '/messages-api' });
    expect(screen.getByTestId('page-title').textContent).toBe('Documentação para envio de mensagens');
    expect(screen.getByTestId('messages-api-endpoint').textContent).toBe(`${API}/api/messages/send`);
    expect(JSON.parse(screen.getByTestId('messages-api-text-body').textContent ?? '')).toEqual({
      number: '5511999998888',
      body: 'Olá! Seu pedido foi enviado.',
    });
    const text = screen.getByTestId('messages-api-text-curl').textContent ?? '';
    expect(text).toContain(`curl -X POST '${API}/api/messages/send'`);
    expect(text).toContain("-H 'Authorization: Bearer <token>'");
    expect(text).toContain("-H 'Content-Type: application/json'");
    const media = screen.getByTestId('messages-api-media-curl').textContent ?? '';
    expect(media).toContain("-F 'number=5511999998888'");
    expect(media).toContain("-F 'medias=@boleto.pdf'");
    expect(screen.getByTestId('messages-api-media').textContent).toContain('multipart/form-data');
    expect(screen.getByTestId('messages-api-reply').textContent).toContain(`GET ${API}/api/messages/{id}`);
    expect(screen.getByRole('link', { name: 'Conexões' }).getAttribute('href')).toBe('/connections');
  });

  it('asks for the token and a digits-only number, and for a message or a file', async () => {
    const api = mockApi({});
    renderWithProviders(<MessagesApiPage />, { path: '/messages-api' });
    await userEvent.click(screen.getByTestId('messages-api-submit'));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2);
    expect(screen.getByText('Escreva uma mensagem ou escolha um arquivo')).toBeTruthy();
    await fill('messages-api-token', 'tok');
    await fill('messages-api-number', '+55 (11) 99999-8888');
    await fill('messages-api-body', 'Olá');
    await userEvent.click(screen.getByTestId('messages-api-submit'));
    expect(await screen.findByText('Use apenas números: código do país, DDD e número')).toBeTruthy();
    expect(sends(api.fetch)).toHaveLength(0);
  });

  it('sends a text as JSON with the token and says so', async () => {
    const api = mockApi({ 'POST /api/messages/send': () => ({ status: 201, body: reply }) });
    renderWithProviders(<MessagesApiPage />, { path: '/messages-api' });
    await fill('messages-api-token', ' segredo ');
    await fill('messages-api-number', '5511999998888');
    await fill('messages-api-body', 'Seu pedido saiu');
    await userEvent.click(screen.getByTestId('messages-api-submit'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Mensagem enviada com sucesso'));
    const [sent] = sends(api.fetch);
    expect(sent.headers).toMatchObject({ Authorization: 'Bearer segredo', 'Content-Type': 'application/json' });
    expect(JSON.parse(sent.body as string)).toEqual({ number: '5511999998888', body: 'Seu pedido saiu' });
    expect(screen.getByTestId('messages-api-last-sent').textContent).toContain('4821');
    expect((screen.getByTestId('messages-api-body') as HTMLTextAreaElement).value).toBe('');
    expect((screen.getByTestId('messages-api-token') as HTMLInputElement).value).toBe(' segredo ');
  });

  it('sends a file as multipart under medias, spaces in its name as underscores', async () => {
    const api = mockApi({ 'POST /api/messages/send': () => ({ status: 201, body: reply }) });
    renderWithProviders(<MessagesApiPage />, { path: '/messages-api' });
    await fill('messages-api-token', 'segredo');
    await fill('messages-api-number', '5511999998888');
    const file = new File(['%PDF-1.4'], 'boleto de maio.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByTestId('messages-api-file'), { target: { files: [file] } });
    expect((await screen.findByTestId('messages-api-file-name')).textContent).toBe('boleto_de_maio.pdf');
    expect(screen.getByTestId('messages-api-submit').textContent).toBe('Enviar arquivo');
    await userEvent.click(screen.getByTestId('messages-api-submit'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Mensagem enviada com sucesso'));
    const [sent] = sends(api.fetch);
    expect(sent.headers).toEqual({ Authorization: 'Bearer segredo' });
    const form = sent.body as FormData;
    expect(form.get('number')).toBe('5511999998888');
    expect(form.get('body')).toBe('');
    const media = form.getAll('medias') as File[];
    expect(media.map((m) => m.name)).toEqual(['boleto_de_maio.pdf']);
    await waitFor(() => expect(screen.queryByTestId('messages-api-file-name')).toBeNull());
  });

  it("shows the API's refusal without touching the session", async () => {
    localStorage.setItem('token', 'session-token');
    mockApi({
      'POST /api/messages/send': () => ({
        status: 401,
        body: { error: 'ERR_INVALID_CREDENTIALS', message: 'Invalid API token' },
      }),
    });
    renderWithProviders(<MessagesApiPage />, { path: '/messages-api' });
    await fill('messages-api-token', 'errado');
    await fill('messages-api-number', '5511999998888');
    await fill('messages-api-body', 'Olá');
    await userEvent.click(screen.getByTestId('messages-api-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro de autenticação. Por favor, tente novamente.', expect.anything()),
    );
    expect(toast.success).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('session-token');
  });
});
