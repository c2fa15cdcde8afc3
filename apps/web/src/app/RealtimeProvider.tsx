import {
  type AuthEventPayload,
  clientRoomEvents,
  companyEvent,
  HEARTBEAT_MS,
  LOGOUT_ELSEWHERE_DELAY_MS,
} from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import type { Socket } from 'socket.io-client';
import { http } from '../api/client';
import { ApiError } from '../api/http';
import { tokenSessionId } from '../api/session';
import { connectSocket } from '../api/socket';
import i18n from '../i18n';
import { useAuth } from './AuthContext';

const SocketContext = createContext<Socket | null>(null);

/**
 * True when an auth event ends this browser's session: it names the session user and, when it
 * names the session that stays valid, that session is not this one.
 */
export function isLoggedOutElsewhere(
  payload: Pick<AuthEventPayload, 'action' | 'user'> & { sessionId?: string },
  userId: number,
  token: string,
): boolean {
  if (payload.action !== 'logout' || payload.user?.id !== userId) return false;
  return !payload.sessionId || payload.sessionId !== tokenSessionId(token);
}

/**
 * One Socket.IO connection per session, opened again with the fresh token after a refresh (and
 * refreshing once itself when the handshake is refused). Sends the `userStatus` heartbeat and
 * logs out when the account is opened elsewhere.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { token, user, logout } = useAuth();
  const queryClient = useQueryClient();
  const [socket, setSocket] = useState<Socket | null>(null);
  const logoutRef = useRef(logout);
  const companyId = user?.companyId;
  const userId = user?.id;

  useEffect(() => {
    logoutRef.current = logout;
  }, [logout]);

  useEffect(() => {
    if (!token || companyId === undefined || userId === undefined) return;
    /** Listens on a connection of this session; returns what closes it. */
    const attach = (connection: Socket) => {
      let logoutTimer: ReturnType<typeof setTimeout> | undefined;
      const sendStatus = () => connection.emit(clientRoomEvents.userStatus);
      const heartbeat = setInterval(sendStatus, HEARTBEAT_MS);
      connection.on('connect', sendStatus);
      // Events sent while this socket was not yet (or no longer) connected are lost: on every
      // connect the lists on screen are fetched again, so nothing that happened meanwhile is missed.
      connection.on('connect', () => void queryClient.invalidateQueries({ refetchType: 'active' }));
      // Refresh once; the new token reconnects, and a refused refresh (session ended) logs out.
      let refreshed = false;
      const refreshOnce = () => {
        if (refreshed) return;
        refreshed = true;
        http.refreshSession().catch((refreshError: unknown) => {
          if (refreshError instanceof ApiError) http.endSession();
        });
      };
      // A handshake refused for an expired token.
      connection.on('connect_error', (err: Error) => {
        if (err.message === 'ERR_SESSION_EXPIRED') refreshOnce();
      });
      // The server closes the sockets of a session it ended (password changed, company deactivated…);
      // after an auth event the logout is already on its way.
      connection.on('disconnect', (reason: string) => {
        if (reason === 'io server disconnect' && !logoutTimer) refreshOnce();
      });
      connection.on(companyEvent.auth(companyId), (payload: AuthEventPayload) => {
        if (logoutTimer || !isLoggedOutElsewhere(payload, userId, token)) return;
        toast.error(i18n.t('auth.loggedOutElsewhere'), { toastId: 'logged-out-elsewhere' });
        logoutTimer = setTimeout(() => void logoutRef.current(), LOGOUT_ELSEWHERE_DELAY_MS);
      });
      setSocket(connection);
      return () => {
        clearInterval(heartbeat);
        clearTimeout(logoutTimer);
        connection.disconnect();
        setSocket(null);
      };
    };
    let detach: (() => void) | undefined;
    let ended = false;
    void connectSocket(token).then((connection) => {
      if (ended) connection.disconnect();
      else detach = attach(connection);
    });
    return () => {
      ended = true;
      detach?.();
    };
  }, [token, companyId, userId, queryClient]);

  return <SocketContext value={socket}>{children}</SocketContext>;
}

/** Calls `handler` for every `event` on the live channel while the component is mounted. */
export function useSocketEvent<T>(event: string, handler: (payload: T) => void): void {
  const socket = useContext(SocketContext);
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  }, [handler]);
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: T) => handlerRef.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}
