import type { SessionUser } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import { authApi } from '../api/auth';
import { http } from '../api/client';
import { ApiError } from '../api/http';
import { getToken, hasStoredSession, saveSession } from '../api/session';
import { toastError } from '../components/toastError';
import { warnIfSubscriptionEnding } from '../features/auth/subscriptionWarning';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  token: string | null;
}

export interface AuthContextValue extends AuthState {
  login: (email: string, password: string) => Promise<void>;
  logout: () => Promise<void>;
  /** Reloads the session user from GET /auth/me (after editing one's own profile). */
  reloadUser: () => Promise<void>;
  /** Merges live changes of the session user (from the users channel). */
  updateUser: (changes: Partial<SessionUser>) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

const ANONYMOUS: AuthState = { status: 'anonymous', user: null, token: null };

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(() =>
    hasStoredSession() ? { status: 'loading', user: null, token: getToken() } : ANONYMOUS,
  );

  useEffect(() => {
    const offRefreshed = http.onSessionRefreshed(({ token, user }) =>
      setState({ status: 'authenticated', user, token }),
    );
    const offLoggedOut = http.onLoggedOut(() => {
      setState(ANONYMOUS);
      queryClient.clear();
    });
    return () => {
      offRefreshed();
      offLoggedOut();
    };
  }, [queryClient]);

  const restoring = state.status === 'loading';
  useEffect(() => {
    if (!restoring) return;
    authApi.refresh().catch((err: unknown) => {
      if (err instanceof ApiError) http.endSession();
      else {
        toastError(err);
        setState(ANONYMOUS);
      }
    });
  }, [restoring]);

  const login = useCallback(
    async (email: string, password: string) => {
      const reply = await authApi.login(email, password);
      saveSession(reply);
      warnIfSubscriptionEnding(reply.user);
      // One transition, so /login never renders as authenticated (which would redirect to /).
      startTransition(() => {
        setState({ status: 'authenticated', user: reply.user, token: reply.token });
        navigate('/tickets');
      });
    },
    [navigate],
  );

  const logout = useCallback(async () => {
    try {
      await authApi.logout();
    } catch {
      // The session ends locally whatever the server answers.
    }
    startTransition(() => {
      http.endSession();
      navigate('/login');
    });
  }, [navigate]);

  const reloadUser = useCallback(async () => {
    const user = await authApi.me();
    setState((current) => ({ ...current, user }));
  }, []);

  const updateUser = useCallback((changes: Partial<SessionUser>) => {
    setState((current) => (current.user ? { ...current, user: { ...current.user, ...changes } } : current));
  }, []);

  const value = useMemo(
    () => ({ ...state, login, logout, reloadUser, updateUser }),
    [state, login, logout, reloadUser, updateUser],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** The session user of a screen behind the private guard. */
export function useSessionUser(): SessionUser {
  const { user } = useAuth();
  if (!user) throw new Error('useSessionUser without a session');
  return user;
}
