import { type AssistantState, assistantMsg } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppLayout } from '../../layout/AppLayout';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { TOKEN_SAVED_RETURN_MS } from './AssistantSteps';
import { AssistantWidget } from './AssistantWidget';

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

function state(overrides: Partial<AssistantState> = {}): AssistantState {
  return { signedIn: false, hasToken: false, usage: { remaining: 20, limit: 20 }, history: [], ...overrides };
}

const chatting = (overrides: Partial<AssistantState> = {}) => state({ signedIn: true, hasToken: true, ...overrides });

/** jsdom has no PointerEvent: without one, fired pointer events lose their coordinates and button. */
beforeAll(() => {
  const view = document.defaultView as unknown as Record<string, unknown>;
  if (view.PointerEvent) return;
  view.PointerEvent = class extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
    }
  };
});

const widget = () => screen.getByTestId('assistant-widget');
const stateOf = () => widget().dataset.state;

async function openWidget(expected: string) {
  await userEvent.click(screen.getByTestId('assistant-launcher'));
  await waitFor(() => expect(stateOf()).toBe(expected));
}

describe('AssistantWidget', () => {
  it('is a launcher that asks nothing until opened, then shows the auth state and the counter', async () => {
    const api = mockApi({ 'GET /assistant': () => state() });
    renderWithProviders(<AssistantWidget />);
    expect(screen.queryByTestId('assistant-widget')).toBeNull();
    expect(api.fetch).not.toHaveBeenCalled();
    await openWidget('auth');
    expect(screen.getByTestId('assistant-counter').textContent).toBe('20/20');
  });

  it("auth step: both fields required, then the spec's messages for wrong credentials and other failures", async () => {
    let reply: unknown = { status: 400, body: { error: 'ERR_ASSISTANT_INVALID_CREDENTIALS' } };
    const api = mockApi({ 'GET /assistant': () => state(), 'POST /assistant/auth': () => reply });
    renderWithProviders(<AssistantWidget />);
    await openWidget('auth');

    await fill(screen.getByTestId('assistant-username'), 'ana@acme.test');
    await userEvent.click(screen.getByTestId('assistant-sign-in'));
    expect(screen.getByTestId('assistant-auth-error').textContent).toBe(assistantMsg.fillAll);
    expect(api.calls('POST /assistant/auth')).toHaveLength(0);

    await fill(screen.getByTestId('assistant-password'), 'wrong');
    await userEvent.click(screen.getByTestId('assistant-sign-in'));
    await waitFor(() =>
      expect(screen.getByTestId('assistant-auth-error').textContent).toBe(assistantMsg.wrongCredentials),
    );
    expect(api.calls('POST /assistant/auth')).toEqual([{ username: 'ana@acme.test', password: 'wrong' }]);

    reply = { status: 500, body: { error: 'ERR_INTERNAL' } };
    await userEvent.click(screen.getByTestId('assistant-sign-in'));
    await waitFor(() => expect(screen.getByTestId('assistant-auth-error').textContent).toBe(assistantMsg.loginFailed));

    reply = state({ signedIn: true });
    await userEvent.click(screen.getByTestId('assistant-sign-in'));
    await waitFor(() => expect(stateOf()).toBe('token'));
  });

  it('token step: a token is required, a failed save says so, a saved one returns to chat 1.5 s later', async () => {
    let fail = true;
    const api = mockApi({
      'GET /assistant': () => state({ signedIn: true }),
      'PUT /assistant/token': () => (fail ? { status: 500, body: { error: 'ERR_INTERNAL' } } : { hasToken: true }),
    });
    renderWithProviders(<AssistantWidget />);
    await openWidget('token');

    await userEvent.click(screen.getByTestId('assistant-save-token'));
    expect(screen.getByTestId('assistant-token-error').textContent).toBe(assistantMsg.emptyToken);
    expect(api.calls('PUT /assistant/token')).toHaveLength(0);

    await fill(screen.getByTestId('assistant-token-input'), 'sk-meu-token');
    await userEvent.click(screen.getByTestId('assistant-save-token'));
    await waitFor(() =>
      expect(screen.getByTestId('assistant-token-error').textContent).toBe(assistantMsg.tokenSaveFailed),
    );

    fail = false;
    await userEvent.click(screen.getByTestId('assistant-save-token'));
    await screen.findByTestId('assistant-token-saved');
    const savedAt = Date.now();
    expect(screen.getByTestId('assistant-token-saved').textContent).toBe(assistantMsg.tokenSaved);
    expect(stateOf()).toBe('token');
    await waitFor(() => expect(stateOf()).toBe('chat'), { timeout: 4000 });
    expect(Date.now() - savedAt).toBeGreaterThanOrEqual(TOKEN_SAVED_RETURN_MS - 100);
    expect(api.calls('PUT /assistant/token').at(-1)).toEqual({ token: 'sk-meu-token' });
  });

  it('chat: shows the history, sends with Enter, ignores an empty input and updates the counter', async () => {
    const api = mockApi({
      'GET /assistant': () =>
        chatting({
          usage: { remaining: 5, limit: 20 },
          history: [
            { role: 'user', content: 'Oi', timestamp: '2030-01-01T10:00:00Z' },
            { role: 'assistant', content: 'Olá! Em que ajudo?', timestamp: '2030-01-01T10:00:01Z' },
          ],
        }),
      'POST /assistant/messages': (body) => ({
        message: { role: 'user', content: (body as { content: string }).content, timestamp: '2030-01-01T10:01:00Z' },
        reply: { role: 'assistant', content: 'Resumo pronto.', timestamp: '2030-01-01T10:01:01Z' },
        usage: { remaining: 4, limit: 20 },
      }),
    });
    renderWithProviders(<AssistantWidget />);
    await openWidget('chat');
    expect(screen.getByTestId('assistant-counter').textContent).toBe('5/20');
    expect(screen.getByText('Olá! Em que ajudo?')).toBeTruthy();

    const input = screen.getByTestId('assistant-input');
    await fill(input, '   ');
    await userEvent.keyboard('{Enter}');
    expect(api.calls('POST /assistant/messages')).toHaveLength(0);

    await userEvent.clear(input);
    await fill(input, 'Resuma a conversa');
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Resumo pronto.');
    expect(api.calls('POST /assistant/messages')).toEqual([{ content: 'Resuma a conversa' }]);
    expect(screen.getByTestId('assistant-counter').textContent).toBe('4/20');
    expect((input as HTMLTextAreaElement).value).toBe('');
    expect(screen.getAllByTestId('assistant-entry-user').map((e) => e.textContent)).toEqual([
      'Oi',
      'Resuma a conversa',
    ]);
  });

  it("chat: over quota and provider failures show the spec's messages; no call once the quota is gone", async () => {
    let reply: unknown = {
      status: 502,
      body: { error: 'ERR_ASSISTANT_PROVIDER', usage: { remaining: 1, limit: 20 } },
    };
    const api = mockApi({
      'GET /assistant': () => chatting({ usage: { remaining: 1, limit: 20 } }),
      'POST /assistant/messages': () => reply,
    });
    renderWithProviders(<AssistantWidget />);
    await openWidget('chat');
    const input = screen.getByTestId('assistant-input');

    await fill(input, 'Primeira');
    await userEvent.click(screen.getByTestId('assistant-send'));
    await screen.findByText(assistantMsg.providerFailure);

    reply = { status: 429, body: { error: 'ERR_ASSISTANT_DAILY_LIMIT', usage: { remaining: 0, limit: 20 } } };
    await fill(input, 'Segunda');
    await userEvent.click(screen.getByTestId('assistant-send'));
    await screen.findByText(assistantMsg.overQuota);
    expect(screen.getByTestId('assistant-counter').textContent).toBe('0/20');
    expect(api.calls('POST /assistant/messages')).toHaveLength(2);

    await fill(input, 'Terceira');
    await userEvent.click(screen.getByTestId('assistant-send'));
    await waitFor(() => expect(screen.getAllByText(assistantMsg.overQuota)).toHaveLength(2));
    expect(api.calls('POST /assistant/messages')).toHaveLength(2);
  });

  it('chat: a missing token leads to the token step', async () => {
    mockApi({
      'GET /assistant': () => chatting(),
      'POST /assistant/messages': () => ({ status: 409, body: { error: 'ERR_ASSISTANT_NO_TOKEN' } }),
    });
    renderWithProviders(<AssistantWidget />);
    await openWidget('chat');
    await fill(screen.getByTestId('assistant-input'), 'Oi');
    await userEvent.click(screen.getByTestId('assistant-send'));
    await waitFor(() => expect(stateOf()).toBe('token'));
  });

  it('logout clears the history and returns to the auth state', async () => {
    const api = mockApi({
      'GET /assistant': () =>
        chatting({ history: [{ role: 'user', content: 'Conversa antiga', timestamp: '2030-01-01T10:00:00Z' }] }),
      'POST /assistant/logout': () => state({ hasToken: true }),
    });
    renderWithProviders(<AssistantWidget />);
    await openWidget('chat');
    expect(screen.getByText('Conversa antiga')).toBeTruthy();
    await userEvent.click(screen.getByTestId('assistant-logout'));
    await waitFor(() => expect(stateOf()).toBe('auth'));
    expect(screen.queryByText('Conversa antiga')).toBeNull();
    expect(api.calls('POST /assistant/logout')).toHaveLength(1);
  });

  it('minimises to its header, closes to the launcher, and is dragged by its header', async () => {
    mockApi({ 'GET /assistant': () => chatting() });
    renderWithProviders(<AssistantWidget />);
    await openWidget('chat');

    await userEvent.click(screen.getByTestId('assistant-minimise'));
    expect(widget().dataset.minimised).toBe('true');
    expect(screen.queryByTestId('assistant-chat')).toBeNull();
    expect(within(widget()).getByTestId('assistant-counter')).toBeTruthy();
    await userEvent.click(screen.getByTestId('assistant-minimise'));
    expect(screen.getByTestId('assistant-chat')).toBeTruthy();

    const header = screen.getByTestId('assistant-header');
    fireEvent.pointerDown(header, { button: 0, clientX: 50, clientY: 40, pointerId: 1 });
    fireEvent.pointerMove(header, { clientX: 250, clientY: 140, pointerId: 1 });
    fireEvent.pointerUp(header, { pointerId: 1 });
    expect(widget().style.left).toBe('200px');
    expect(widget().style.top).toBe('100px');
    fireEvent.pointerMove(header, { clientX: 400, clientY: 400, pointerId: 1 });
    expect(widget().style.left).toBe('200px');

    await userEvent.click(screen.getByTestId('assistant-close'));
    expect(screen.queryByTestId('assistant-widget')).toBeNull();
    expect(screen.getByTestId('assistant-launcher')).toBeTruthy();
  });

  it('is part of the shell of every signed-in screen', () => {
    mockApi({});
    renderWithProviders(
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/tickets" element={<span>tickets page</span>} />
        </Route>
      </Routes>,
      { path: '/tickets' },
    );
    expect(screen.getByTestId('assistant-launcher')).toBeTruthy();
  });
});
