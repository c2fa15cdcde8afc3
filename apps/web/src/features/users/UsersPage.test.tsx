import { companyEvent, PAGE_SIZE } from '@balcao/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser, user } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import UsersPage from './UsersPage';
import { useUsersRealtime } from './useUsersRealtime';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

type Listener = (payload: unknown) => void;
const socketListeners = new Map<string, Listener>();
vi.mock('../../app/RealtimeProvider', () => ({
  useSocketEvent: (event: string, handler: Listener) => socketListeners.set(event, handler),
}));

const people = Array.from({ length: 25 }, (_, i) =>
  user({ id: i + 1, name: `Pessoa ${i + 1}`, email: `p${i + 1}@acme.test` }),
);

function usersApi() {
  return mockApi({
    'GET /users': (_body, url) => {
      const search = url.searchParams.get('searchParam') ?? '';
      const page = Number(url.searchParams.get('pageNumber'));
      const found = people.filter((p) => p.name.toLowerCase().includes(search.toLowerCase()));
      const users = found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      return { users, count: found.length, hasMore: page * PAGE_SIZE < found.length };
    },
    'DELETE /users/2': () => ({ status: 200, body: { message: 'ok' } }),
  });
}

function LivePage() {
  useUsersRealtime();
  return <UsersPage />;
}

function scrollToBottom(element: HTMLElement) {
  Object.defineProperty(element, 'scrollHeight', { value: 1000, configurable: true });
  Object.defineProperty(element, 'clientHeight', { value: 400, configurable: true });
  element.scrollTop = 550;
  fireEvent.scroll(element);
}

describe('UsersPage', () => {
  it('lists users and loads the next page near the bottom', async () => {
    const api = usersApi();
    renderWithProviders(<UsersPage />, { path: '/users' });

    expect(await screen.findByTestId('user-row-20')).toBeTruthy();
    expect(screen.queryByTestId('user-row-21')).toBeNull();
    scrollToBottom(screen.getByTestId('users-list'));
    expect(await screen.findByTestId('user-row-25')).toBeTruthy();
    expect(api.calls('GET /users')).toHaveLength(2);
  });

  it('searches after the debounce', async () => {
    const api = usersApi();
    renderWithProviders(<UsersPage />);
    await screen.findByTestId('user-row-1');

    await userEvent.type(screen.getByTestId('users-search'), 'Pessoa 7');
    await waitFor(() => expect(screen.queryByTestId('user-row-1')).toBeNull());
    expect(await screen.findByTestId('user-row-7')).toBeTruthy();
    const searched = api.fetch.mock.calls.map(([input]) => new URL(String(input)).searchParams.get('searchParam'));
    expect(searched).not.toContain('P');
    expect(searched).toContain('Pessoa 7');
  });

  it('deletes a user after confirmation', async () => {
    const api = usersApi();
    renderWithProviders(<UsersPage />);
    await userEvent.click(await screen.findByTestId('user-delete-2'));
    const dialog = screen.getByTestId('confirmation-modal');
    expect(within(dialog).getByText('Excluir Pessoa 2?')).toBeTruthy();
    await userEvent.click(within(dialog).getByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('DELETE /users/2')).toHaveLength(1));
  });

  it('applies live user events to the list', async () => {
    usersApi();
    renderWithProviders(<LivePage />);
    await screen.findByTestId('user-row-1');
    const emit = socketListeners.get(companyEvent.user(1));
    if (!emit) throw new Error('not subscribed to the users channel');

    act(() => emit({ action: 'update', user: user({ id: 1, name: 'Renomeada' }) }));
    await waitFor(() => expect(within(screen.getByTestId('user-row-1')).getByText('Renomeada')).toBeTruthy());
    act(() => emit({ action: 'create', user: user({ id: 99, name: 'Nova Pessoa' }) }));
    expect(await screen.findByTestId('user-row-99')).toBeTruthy();
    act(() => emit({ action: 'delete', userId: 3 }));
    await waitFor(() => expect(screen.queryByTestId('user-row-3')).toBeNull());
  });

  it('tells a plain user they have no access', () => {
    renderWithProviders(<UsersPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    expect(screen.getByText('Acesso não permitido')).toBeTruthy();
  });
});
