import { companyEvent } from '@balcao/shared';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import { playBeep } from '../notifications/sound';
import { ChatsPopover } from './ChatsPopover';
import { chat, ME } from './testing';

vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));
vi.mock('../notifications/sound', () => ({ playBeep: vi.fn() }));

const userEvent = fastUser();

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

const badge = () => {
  const el = screen.getByTestId('chats-unread');
  return el.classList.contains('MuiBadge-invisible') ? '' : el.textContent;
};

describe('ChatsPopover', () => {
  it('shows the chats with the caller’s unread counts and their total; a click opens the chat', async () => {
    mockApi({
      'GET /chats': () => ({
        records: [chat({ id: 1, title: 'Equipe', mine: 2 }), chat({ id: 2, title: 'Plantão', mine: 3 })],
        count: 2,
        hasMore: false,
      }),
    });
    renderWithProviders(
      <Routes>
        <Route
          path="*"
          element={
            <>
              <ChatsPopover />
              <Where />
            </>
          }
        />
      </Routes>,
    );
    await waitFor(() => expect(badge()).toBe('5'));
    await userEvent.click(screen.getByTestId('chats-button'));
    expect(await screen.findByTestId('chats-popover-item-1')).toBeTruthy();
    expect(screen.getByTestId('chats-popover-unread-2').textContent).toBe('3');
    await userEvent.click(screen.getByTestId('chats-popover-item-2'));
    expect(screen.getByTestId('where').textContent).toBe(`/chats/${chat({ id: 2 }).uuid}`);
  });

  it('follows the live counts and beeps for others’ messages only', async () => {
    mockApi({ 'GET /chats': () => ({ records: [chat({ id: 1, mine: 0 })], count: 1, hasMore: false }) });
    renderWithProviders(<ChatsPopover />);
    await waitFor(() => expect(screen.getByTestId('chats-button').dataset.unread).toBe('0'));
    // One's own message: the others' counters rise, not the caller's.
    emitSocket(companyEvent.chatUser(1, ME), { action: 'update', record: chat({ id: 1, mine: 0, lastMessage: 'eu' }) });
    expect(playBeep).not.toHaveBeenCalled();
    emitSocket(companyEvent.chatUser(1, ME), {
      action: 'update',
      record: chat({ id: 1, mine: 1, lastMessage: 'ela' }),
    });
    await waitFor(() => expect(badge()).toBe('1'));
    expect(playBeep).toHaveBeenCalledTimes(1);
    emitSocket(companyEvent.chatUser(1, ME), { action: 'create', record: chat({ id: 4, mine: 2 }) });
    await waitFor(() => expect(badge()).toBe('3'));
    emitSocket(companyEvent.chatUser(1, ME), { action: 'delete', id: 4 });
    await waitFor(() => expect(badge()).toBe('1'));
  });
});
