import { clientRoomEvents, companyEvent, HEARTBEAT_MS } from '@balcao/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../api/client';
import { ApiError } from '../api/http';
import { connectSocket } from '../api/socket';
import { authValue, testQueryClient } from '../test/render';
import { AuthContext, type AuthContextValue } from './AuthContext';
import { isLoggedOutElsewhere, RealtimeProvider } from './RealtimeProvider';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn() } }));
vi.mock('../api/socket', () => ({ connectSocket: vi.fn() }));
vi.mock('../api/client', () => ({ http: { refreshSession: vi.fn(), endSession: vi.fn() } }));

type Listener = (payload?: unknown) => void;

function fakeSocket() {
  const listeners = new Map<string, Listener[]>();
  return {
    on: vi.fn((event: string, listener: Listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener])),
    off: vi.fn(),
    emit: vi.fn(),
    disconnect: vi.fn(),
    receive: (event: string, payload?: unknown) => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}

/** An unsigned JWT whose payload carries the session id claim `sid`, as the server's tokens do. */
function tokenOfSession(sid: string): string {
  return `e30.${btoa(JSON.stringify({ sid, sub: '7' })).replace(/=+$/, '')}.sig`;
}

/** Lets the provider attach to the socket `connectSocket` resolves with. */
const connected = () => act(async () => {});

async function renderRealtime(auth: AuthContextValue, queryClient = testQueryClient()) {
  const tree = (value: AuthContextValue) => (
    <QueryClientProvider client={queryClient}>
      <AuthContext value={value}>
        <RealtimeProvider>app</RealtimeProvider>
      </AuthContext>
    </QueryClientProvider>
  );
  const view = render(tree(auth));
  await connected();
  return {
    rerender: async (next: AuthContextValue) => {
      await view.rerender(tree(next));
      await connected();
    },
  };
}

let sockets: ReturnType<typeof fakeSocket>[];

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  vi.mocked(connectSocket).mockImplementation(async () => {
    const socket = fakeSocket();
    sockets.push(socket);
    return socket as never;
  });
});

afterEach(() => vi.useRealTimers());

describe('RealtimeProvider', () => {
  it('connects with the token and sends the userStatus heartbeat', async () => {
    await renderRealtime(authValue({ token: 'tok' }));
    expect(connectSocket).toHaveBeenCalledWith('tok');
    const [socket] = sockets;
    act(() => socket.receive('connect'));
    expect(socket.emit).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(HEARTBEAT_MS));
    expect(socket.emit).toHaveBeenCalledTimes(2);
    expect(socket.emit).toHaveBeenLastCalledWith(clientRoomEvents.userStatus);
  });

  it('fetches the lists on screen again whenever the socket (re)connects', async () => {
    const queryClient = testQueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await renderRealtime(authValue({ token: 'tok' }), queryClient);
    expect(invalidate).not.toHaveBeenCalled();
    act(() => sockets[0].receive('connect'));
    act(() => sockets[0].receive('connect'));
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(invalidate).toHaveBeenCalledWith({ refetchType: 'active' });
  });

  it('logs out 1 s after the account is opened on another computer', async () => {
    const auth = authValue({ token: tokenOfSession('old-session') });
    await renderRealtime(auth);
    act(() =>
      sockets[0].receive(companyEvent.auth(1), { action: 'logout', user: { id: 7 }, sessionId: 'new-session' }),
    );
    expect(toast.error).toHaveBeenCalledWith('Sua conta foi acessada em outro computador.', expect.any(Object));
    expect(auth.logout).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1000));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it('ignores auth events of other users', async () => {
    const auth = authValue({ token: tokenOfSession('s1') });
    await renderRealtime(auth);
    act(() => sockets[0].receive(companyEvent.auth(1), { action: 'logout', user: { id: 8 }, sessionId: 's2' }));
    act(() => vi.advanceTimersByTime(2000));
    expect(auth.logout).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('reconnects with the fresh token after a refresh and closes on logout', async () => {
    const view = await renderRealtime(authValue({ token: 'first' }));
    await view.rerender(authValue({ token: 'second' }));
    expect(sockets[0].disconnect).toHaveBeenCalled();
    expect(connectSocket).toHaveBeenLastCalledWith('second');
    await view.rerender(authValue({ user: null }));
    expect(sockets[1].disconnect).toHaveBeenCalled();
    expect(connectSocket).toHaveBeenCalledTimes(2);
  });
});

describe('refused handshake', () => {
  it('refreshes the session once when the token is refused', async () => {
    vi.mocked(http.refreshSession).mockResolvedValue({} as never);
    await renderRealtime(authValue({ token: 'expired' }));
    act(() => sockets[0].receive('connect_error', new Error('ERR_SESSION_EXPIRED')));
    act(() => sockets[0].receive('connect_error', new Error('ERR_SESSION_EXPIRED')));
    expect(http.refreshSession).toHaveBeenCalledTimes(1);
  });

  it('ends the session when that refresh is refused, but not on network errors', async () => {
    vi.mocked(http.refreshSession).mockRejectedValue(new ApiError(401, { error: 'ERR_SESSION_EXPIRED' }));
    await renderRealtime(authValue({ token: 'expired' }));
    act(() => sockets[0].receive('connect_error', new Error('xhr poll error')));
    expect(http.refreshSession).not.toHaveBeenCalled();
    await act(async () => sockets[0].receive('connect_error', new Error('ERR_SESSION_EXPIRED')));
    expect(http.endSession).toHaveBeenCalledTimes(1);
  });
});

describe('socket closed by the server', () => {
  it('ends the session when the server closed it, not when the browser went away', async () => {
    vi.mocked(http.refreshSession).mockRejectedValue(new ApiError(401, { error: 'ERR_SESSION_EXPIRED' }));
    await renderRealtime(authValue({ token: 'ended' }));
    act(() => sockets[0].receive('disconnect', 'transport close'));
    expect(http.refreshSession).not.toHaveBeenCalled();
    await act(async () => sockets[0].receive('disconnect', 'io server disconnect'));
    expect(http.endSession).toHaveBeenCalledTimes(1);
  });

  it('leaves a logout announced by an auth event to its timer', async () => {
    const auth = authValue({ token: tokenOfSession('old') });
    await renderRealtime(auth);
    act(() => sockets[0].receive(companyEvent.auth(1), { action: 'logout', user: { id: 7 }, sessionId: 'new' }));
    act(() => sockets[0].receive('disconnect', 'io server disconnect'));
    expect(http.refreshSession).not.toHaveBeenCalled();
  });
});

describe('isLoggedOutElsewhere', () => {
  it('keeps the session the event names as the valid one', () => {
    const token = tokenOfSession('mine');
    expect(isLoggedOutElsewhere({ action: 'logout', user: { id: 7 }, sessionId: 'mine' }, 7, token)).toBe(false);
    expect(isLoggedOutElsewhere({ action: 'logout', user: { id: 7 }, sessionId: 'other' }, 7, token)).toBe(true);
    expect(isLoggedOutElsewhere({ action: 'logout', user: { id: 7 } }, 7, token)).toBe(true);
  });
});
