import { type Chat, type ChatMessage, companyEvent } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill } from '../connections/testing/user';
import ChatsPage from './ChatsPage';
import { BIA, chat, ME, message } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function api(chats: Chat[], pages: ChatMessage[][] = [[]]) {
  return mockApi({
    'GET /chats': () => ({ records: chats, count: chats.length, hasMore: false }),
    'GET /chats/1/messages': (_b, url) => {
      const n = Number(url.searchParams.get('pageNumber') ?? 1);
      return { records: pages[n - 1] ?? [], count: 0, hasMore: n < pages.length };
    },
    'POST /chats/1/messages': (body) =>
      message({ id: 99, senderId: ME, message: (body as { message: string }).message }),
    'POST /chats/1/read': () => chat({ id: 1 }),
    'POST /chats': (body) => ({ ...chat({ id: 5 }), title: (body as { title: string }).title }),
    'DELETE /chats/1': () => ({ message: 'ok' }),
    'GET /users/list': () => [
      { id: ME, name: 'Ana Souza', profile: 'admin', online: true, queueIds: [] },
      { id: BIA, name: 'Bia', profile: 'user', online: true, queueIds: [] },
    ],
  });
}

const render = (path = '/chats') =>
  renderWithProviders(
    <Routes>
      <Route
        path="/chats/:id?"
        element={
          <>
            <ChatsPage />
            <Where />
          </>
        }
      />
    </Routes>,
    { path },
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ChatsPage', () => {
  it('lists the chats in the server’s order with the caller’s unread badges; a click opens the conversation and marks it read', async () => {
    const { calls } = api(
      [chat({ id: 1, title: 'Equipe', mine: 3, lastMessage: 'oi' }), chat({ id: 2, title: 'Outra' })],
      [[message({ id: 1, message: '<b>texto</b>' })]],
    );
    render();
    await screen.findByTestId('chat-item-1');
    expect(screen.getAllByTestId(/^chat-item-/).map((e) => e.dataset.testid)).toEqual(['chat-item-1', 'chat-item-2']);
    expect(screen.getByTestId('chat-unread-1').textContent).toBe('3');
    // Narrow screens: two tabs.
    expect(screen.getByTestId('chat-tab-chats').textContent).toBe('Chats');
    expect(screen.getByTestId('chat-tab-messages').textContent).toBe('Mensagens');
    await userEvent.click(screen.getByTestId('chat-item-1'));
    expect(screen.getByTestId('where').textContent).toBe(`/chats/${chat({ id: 1 }).uuid}`);
    const shown = await screen.findByTestId('chat-message-1');
    expect(shown.textContent).toContain('<b>texto</b>');
    expect(shown.querySelector('b')).toBeNull();
    await waitFor(() => expect(calls('POST /chats/1/read')).toHaveLength(1));
    expect(calls('POST /chats/1/read')[0]).toEqual({ userId: ME });
  });

  it('only the owner sees edit and delete', async () => {
    api([chat({ id: 1, ownerId: BIA })]);
    render(`/chats/${chat({ id: 1 }).uuid}`);
    await screen.findByTestId('chat-conversation');
    expect(screen.queryByTestId('chat-edit')).toBeNull();
    expect(screen.queryByTestId('chat-delete')).toBeNull();
  });

  it('Enter or the button sends; blank text is ignored', async () => {
    const { calls } = api([chat({ id: 1 })]);
    render(`/chats/${chat({ id: 1 }).uuid}`);
    const input = await screen.findByTestId('chat-input');
    await fill(userEvent, input, '   ');
    fireEvent.keyDown(input, { key: 'Enter' });
    await userEvent.click(screen.getByTestId('chat-send'));
    expect(calls('POST /chats/1/messages')).toHaveLength(0);
    await fill(userEvent, input, 'olá');
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(calls('POST /chats/1/messages')).toEqual([{ message: 'olá' }]));
    expect(await screen.findByTestId('chat-message-99')).toBeTruthy();
    await fill(userEvent, input, 'pelo botão');
    await userEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(calls('POST /chats/1/messages')).toHaveLength(2));
  });

  it('the new chat dialog requires a title (spec message) and a user', async () => {
    const { calls } = api([]);
    render();
    await userEvent.click(await screen.findByTestId('chat-new'));
    await userEvent.click(screen.getByTestId('chat-dialog-save'));
    expect(await screen.findByText('Por favor, preencha o título da conversa.')).toBeTruthy();
    expect(screen.getByText('Selecione ao menos um usuário')).toBeTruthy();
    expect(calls('POST /chats')).toHaveLength(0);
    await fill(userEvent, screen.getByTestId('chat-title'), 'Plantão');
    await userEvent.click(screen.getByTestId('chat-users'));
    await userEvent.click(await screen.findByRole('option', { name: 'Bia' }));
    expect(screen.queryByRole('option', { name: 'Ana Souza' })).toBeNull();
    await userEvent.click(screen.getByTestId('chat-dialog-save'));
    await waitFor(() => expect(calls('POST /chats')).toEqual([{ title: 'Plantão', users: [{ id: BIA }] }]));
  });

  it('deletes after the spec’s confirmation and returns to /chats', async () => {
    const { calls } = api([chat({ id: 1 })]);
    render(`/chats/${chat({ id: 1 }).uuid}`);
    await userEvent.click(await screen.findByTestId('chat-delete'));
    const dialog = screen.getByTestId('confirmation-modal');
    expect(within(dialog).getByText('Excluir Conversa')).toBeTruthy();
    expect(within(dialog).getByText('Esta ação não pode ser revertida, confirmar?')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls('DELETE /chats/1')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/chats'));
  });

  it('live: a new message is appended; a deleted chat clears the selection', async () => {
    api([chat({ id: 1 }), chat({ id: 2 })], [[message({ id: 1 })]]);
    render(`/chats/${chat({ id: 1 }).uuid}`);
    await screen.findByTestId('chat-message-1');
    emitSocket(companyEvent.chatRoom(1, 1), {
      action: 'new-message',
      message: message({ id: 2, message: 'ao vivo' }),
      record: { ...chat({ id: 1 }), lastMessage: 'ao vivo', updatedAt: '2024-05-02T10:00:00.000Z' },
    });
    expect((await screen.findByTestId('chat-message-2')).textContent).toContain('ao vivo');
    emitSocket(companyEvent.chatUser(1, ME), { action: 'delete', id: 1 });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/chats'));
    await userEvent.click(screen.getByTestId('chat-tab-chats'));
    expect(screen.queryByTestId('chat-item-1')).toBeNull();
    emitSocket(companyEvent.chatUser(1, ME), { action: 'create', record: chat({ id: 3, title: 'Nova' }) });
    await waitFor(() => expect(screen.getAllByTestId(/^chat-item-/)[0].dataset.testid).toBe('chat-item-3'));
  });

  it('loads older messages when scrolled within 600 px of the top', async () => {
    const { calls } = api([chat({ id: 1 })], [[message({ id: 21 })], [message({ id: 1, message: 'antiga' })]]);
    render(`/chats/${chat({ id: 1 }).uuid}`);
    await screen.findByTestId('chat-message-21');
    const box = screen.getByTestId('chat-messages');
    Object.defineProperties(box, {
      scrollHeight: { configurable: true, value: 3000 },
      clientHeight: { configurable: true, value: 500 },
      scrollTop: { configurable: true, writable: true, value: 700 },
    });
    fireEvent.scroll(box);
    expect(calls('GET /chats/1/messages')).toHaveLength(1);
    box.scrollTop = 599;
    fireEvent.scroll(box);
    expect(await screen.findByTestId('chat-message-1')).toBeTruthy();
    const ids = screen.getAllByTestId(/^chat-message-/).map((e) => e.dataset.testid);
    expect(ids).toEqual(['chat-message-1', 'chat-message-21']);
  });

  it('wide screens show the list and the conversation side by side', async () => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: true,
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          addListener: () => undefined,
          removeListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    api([chat({ id: 1 })]);
    render(`/chats/${chat({ id: 1 }).uuid}`);
    await screen.findByTestId('chat-conversation');
    expect(screen.getByTestId('chat-item-1')).toBeTruthy();
    expect(screen.queryByTestId('chat-tabs')).toBeNull();
  });
});
